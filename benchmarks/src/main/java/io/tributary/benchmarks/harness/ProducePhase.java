package io.tributary.benchmarks.harness;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;

/**
 * Runs produce phases against one broker: one producer sends as fast as it can, with null keys
 * (the sticky partitioner spreads batches over the partitions), and the phase measures records
 * acknowledged per second and the broker's CPU. The clock starts after a first record to the
 * phase's topic has been acknowledged, so connecting and fetching metadata are not timed; it stops
 * when {@code flush()} returns, so every counted record was acknowledged.
 *
 * <p>One producer per acks setting lives as long as this object, like a long-running application's
 * producer, instead of one per phase: creating and closing producers would otherwise cost more
 * wall time than short phases measure. Not thread-safe.
 */
public final class ProducePhase implements AutoCloseable {
    private static final long SEED = 20261130L;
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final Broker broker;
    private final Map<String, KafkaProducer<byte[], byte[]>> producersByAcks = new HashMap<>();

    public ProducePhase(Broker broker) {
        this.broker = broker;
    }

    /** Produces {@code workload} for {@code duration}. */
    public PhaseMeasurement forDuration(ProduceWorkload workload, Duration duration) throws InterruptedException {
        return produce(workload.topic(), workload.recordBytes(), workload.acks(), Long.MAX_VALUE, duration);
    }

    /** Produces exactly {@code records} records with acks=1; fails if that takes longer than {@code limit}. */
    public void exactly(String topic, int recordBytes, long records, Duration limit) throws InterruptedException {
        long timed = records - 1; // the first, untimed record makes up the count
        PhaseMeasurement measured = produce(topic, recordBytes, "1", timed, limit);
        if (measured.records() != timed) {
            throw new IllegalStateException("produced only " + (measured.records() + 1) + " of " + records
                    + " records to " + topic + " within " + limit);
        }
    }

    private PhaseMeasurement produce(String topic, int recordBytes, String acks, long maxTimedRecords,
                                     Duration maxDuration) throws InterruptedException {
        byte[] value = new byte[recordBytes];
        new Random(SEED).nextBytes(value);
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, value);
        SendFailures failures = new SendFailures();
        KafkaProducer<byte[], byte[]> producer = producersByAcks.computeIfAbsent(acks,
                a -> new KafkaProducer<>(ClientSettings.producer(broker, a)));
        try {
            producer.send(record).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("first record to " + topic + " failed", e.getCause());
        }
        double cpuBefore = broker.cpuSeconds();
        long start = System.nanoTime();
        long deadline = start + maxDuration.toNanos();
        long sent = 0;
        // The record's bytes are copied into a batch inside send(), so one record object serves every send.
        while (sent < maxTimedRecords && System.nanoTime() < deadline) {
            producer.send(record, failures);
            sent++;
        }
        producer.flush();
        long elapsed = System.nanoTime() - start;
        double cpu = broker.cpuSeconds() - cpuBefore;
        failures.throwIfAny("producing to " + topic);
        return new PhaseMeasurement(sent, sent * recordBytes, elapsed, cpu);
    }

    /** Closes the producers, giving up on unsent records after a few seconds (a dead broker must not hang the run). */
    @Override
    public void close() {
        producersByAcks.values().forEach(producer -> producer.close(CLOSE_TIMEOUT));
        producersByAcks.clear();
    }
}

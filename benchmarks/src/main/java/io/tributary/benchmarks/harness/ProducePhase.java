package io.tributary.benchmarks.harness;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.time.Duration;
import java.util.Random;
import java.util.concurrent.ExecutionException;

/**
 * Produces as fast as one producer can, with null keys (the sticky partitioner spreads batches
 * over the partitions), and measures records acknowledged per second and the broker's CPU.
 * The clock starts after a first record has been acknowledged, so connecting and fetching metadata
 * are not timed; it stops when {@code flush()} returns, so every counted record was acknowledged.
 */
public final class ProducePhase {
    private static final long SEED = 20261130L;

    private ProducePhase() {
    }

    /** Produces for {@code duration}. */
    public static PhaseMeasurement forDuration(Broker broker, ProduceWorkload workload, Duration duration)
            throws InterruptedException {
        return produce(broker, workload.topic(), workload.recordBytes(), workload.acks(), Long.MAX_VALUE, duration);
    }

    /** Produces exactly {@code records} records with acks=1; fails if that takes longer than {@code limit}. */
    public static void exactly(Broker broker, String topic, int recordBytes, long records, Duration limit)
            throws InterruptedException {
        long timed = records - 1; // the first, untimed record makes up the count
        PhaseMeasurement measured = produce(broker, topic, recordBytes, "1", timed, limit);
        if (measured.records() != timed) {
            throw new IllegalStateException("produced only " + (measured.records() + 1) + " of " + records
                    + " records to " + topic + " within " + limit);
        }
    }

    private static PhaseMeasurement produce(Broker broker, String topic, int recordBytes, String acks,
                                            long maxTimedRecords, Duration maxDuration) throws InterruptedException {
        byte[] value = new byte[recordBytes];
        new Random(SEED).nextBytes(value);
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, value);
        SendFailures failures = new SendFailures();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(ClientSettings.producer(broker.bootstrapServers(), acks))) {
            producer.send(record).get();
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
        } catch (ExecutionException e) {
            throw new IllegalStateException("first record to " + topic + " failed", e.getCause());
        }
    }
}

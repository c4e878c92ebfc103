package io.tributary.benchmarks.harness;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.time.Duration;
import java.util.Map;
import java.util.Random;

/**
 * Transactional produce phases against one broker: one transactional producer (kafka-clients 4.4: transaction version
 * 2 where the broker finalizes it, as both do) commits transactions of {@link #RECORDS_PER_TRANSACTION} records of
 * {@link #SHAPE}'s size, back to back, null keys over the topic's partitions; the phase measures committed records per
 * second (a transaction counts once its commit returned) and the broker's CPU. The clock starts after a first
 * committed transaction (coordinator look-up, InitProducerId and metadata are not timed) and stops when the last
 * commit returns. The producer lives as long as this object, like an application's. Not thread-safe.
 */
public final class TransactionalProducePhase implements AutoCloseable {
    /** Its name for {@code benchmarks/run --only}. */
    public static final String NAME = "transactions";
    /** 100 B records over 6 partitions, at replication factor 1. */
    static final ProduceWorkload SHAPE = new ProduceWorkload(100, "all", 6);
    static final int RECORDS_PER_TRANSACTION = 1000;
    static final String TOPIC = "transactional-produce";
    private static final long SEED = 20261206L;
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final KafkaProducer<byte[], byte[]> producer;
    private final Broker broker;
    private final ProducerRecord<byte[], byte[]> record;

    public TransactionalProducePhase(Broker broker, String transactionalId) {
        this.broker = broker;
        Map<String, Object> config = ClientSettings.producer(broker, SHAPE.acks());
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        this.producer = new KafkaProducer<>(config);
        byte[] value = new byte[SHAPE.recordBytes()];
        new Random(SEED).nextBytes(value);
        this.record = new ProducerRecord<>(TOPIC, value);
        producer.initTransactions();
        commitOne(); // untimed
    }

    /** "100B 6p 1000/txn". */
    static Metric metric(MetricKind kind) {
        return new Metric(kind, SHAPE.readMetric(kind).workload() + " " + RECORDS_PER_TRANSACTION + "/txn", SHAPE.recordBytes());
    }

    /** Commits transactions for {@code duration} (the one under way when it ends included). */
    public PhaseMeasurement forDuration(Duration duration) {
        double cpuBefore = broker.cpuSeconds();
        long start = System.nanoTime();
        long deadline = start + duration.toNanos();
        long transactions = 0;
        do {
            commitOne();
            transactions++;
        } while (System.nanoTime() < deadline);
        long elapsed = System.nanoTime() - start;
        long records = transactions * RECORDS_PER_TRANSACTION;
        return new PhaseMeasurement(records, records * SHAPE.recordBytes(), elapsed, broker.cpuSeconds() - cpuBefore);
    }

    /** One transaction; a failed send fails its commit, which throws. */
    private void commitOne() {
        producer.beginTransaction();
        for (int i = 0; i < RECORDS_PER_TRANSACTION; i++) {
            producer.send(record);
        }
        producer.commitTransaction();
    }

    @Override
    public void close() {
        producer.close(CLOSE_TIMEOUT);
    }
}

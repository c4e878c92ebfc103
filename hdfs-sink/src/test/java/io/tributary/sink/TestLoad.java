package io.tributary.sink;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Produces {@code count} records round-robin over the partitions of a topic, on a background
 * thread, at most {@code ratePerSecond} (0: as fast as possible). Values are 100 random bytes, keys
 * {@code k<i>}, timestamps the time of sending (or, from {@link #produceOverTwoHours}, alternately
 * an hour earlier). Bounded in count; {@link #await} bounds the time.
 */
final class TestLoad implements AutoCloseable {
    static final int VALUE_BYTES = 100;

    private final KafkaProducer<byte[], byte[]> producer;
    private final AtomicLong sent = new AtomicLong();
    private final CompletableFuture<Void> done;
    private final long everyOtherShiftMs;

    private TestLoad(String bootstrap, String topic, int partitions, long count, long ratePerSecond, long everyOtherShiftMs) {
        this.everyOtherShiftMs = everyOtherShiftMs;
        producer = new KafkaProducer<>(Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ProducerConfig.LINGER_MS_CONFIG, 5,
            ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024,
            ProducerConfig.ACKS_CONFIG, "all"), new ByteArraySerializer(), new ByteArraySerializer());
        done = CompletableFuture.runAsync(() -> run(topic, partitions, count, ratePerSecond));
    }

    static TestLoad start(String bootstrap, String topic, int partitions, long count, long ratePerSecond) {
        return new TestLoad(bootstrap, topic, partitions, count, ratePerSecond, 0);
    }

    /** As {@link #produce}, with every other record of a partition an hour older: each commit writes two files per partition. */
    static void produceOverTwoHours(String bootstrap, String topic, int partitions, long count) throws Exception {
        try (TestLoad load = new TestLoad(bootstrap, topic, partitions, count, 0, 3_600_000L)) {
            load.await(Duration.ofMinutes(2));
        }
    }

    /** Produces synchronously; returns when every record is acknowledged. */
    static void produce(String bootstrap, String topic, int partitions, long count) throws Exception {
        try (TestLoad load = start(bootstrap, topic, partitions, count, 0)) {
            load.await(Duration.ofMinutes(2));
        }
    }

    /** Random bytes: Parquet cannot shrink them, so they cost what they weigh in the writers' buffers. */
    static byte[] value() {
        byte[] value = new byte[VALUE_BYTES];
        ThreadLocalRandom.current().nextBytes(value);
        return value;
    }

    private void run(String topic, int partitions, long count, long ratePerSecond) {
        long start = System.nanoTime();
        for (long i = 0; i < count; i++) {
            if (ratePerSecond > 0) {
                long due = start + i * 1_000_000_000L / ratePerSecond;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
            long shift = (i / partitions) % 2 == 1 ? everyOtherShiftMs : 0;
            producer.send(new ProducerRecord<>(topic, (int) (i % partitions), System.currentTimeMillis() - shift,
                ("k" + i).getBytes(StandardCharsets.UTF_8), value()));
            sent.incrementAndGet();
        }
        producer.flush();
    }

    long sent() {
        return sent.get();
    }

    void await(Duration timeout) throws Exception {
        done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}

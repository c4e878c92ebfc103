package io.tributary.benchmarks.harness;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * End-to-end latency at a fixed rate: a producer sends on a schedule, a consumer in this same
 * process reads the records back, and each record's latency is the consumer's {@code nanoTime}
 * minus the time the record was scheduled to be sent (carried in the record). Counting from the
 * schedule rather than the actual send means a stalled producer shows up as latency instead of
 * silently sending less (no coordinated omission). Records of the warm-up are read but not counted.
 */
public final class LatencyPhase {
    /** Value layout: scheduled send time (nanoTime), then sequence number; the rest is padding. */
    static final int HEADER_BYTES = 16;
    private static final long UNTIMED = -1;
    private static final Duration POLL = Duration.ofMillis(50);
    private static final Duration DRAIN = Duration.ofSeconds(30);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private LatencyPhase() {
    }

    public static LatencyDistribution measure(Broker broker, String topic, int recordBytes, double recordsPerSecond,
                                              Duration duration, Duration warmup) throws InterruptedException {
        if (recordBytes < HEADER_BYTES) {
            throw new IllegalArgumentException("latency records need at least " + HEADER_BYTES + " bytes");
        }
        long total = Math.round(recordsPerSecond * duration.toNanos() / 1e9);
        long warmupRecords = Math.round(recordsPerSecond * warmup.toNanos() / 1e9);
        if (total <= warmupRecords) {
            throw new IllegalArgumentException("the latency phase is no longer than its warm-up");
        }
        long[] latencies = new long[Math.toIntExact(total - warmupRecords)];
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(ClientSettings.consumer(broker));
        try {
            List<TopicPartition> partitions = ConsumePhase.partitionsOf(consumer, topic, DRAIN);
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
        } catch (RuntimeException e) {
            consumer.close(); // from here on the reader thread owns and closes it
            throw e;
        }

        long readDeadline = System.nanoTime() + duration.toNanos() + DRAIN.toNanos();
        AtomicReference<RuntimeException> readFailure = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try (consumer) {
                readBack(consumer, warmupRecords, latencies, readDeadline);
            } catch (RuntimeException e) {
                readFailure.set(e);
            }
        }, "latency-reader");
        reader.start();
        boolean allSent = false;
        try {
            sendOnSchedule(broker, topic, recordBytes, recordsPerSecond, total);
            allSent = true;
        } finally {
            if (!allSent) {
                consumer.wakeup(); // the reader would otherwise wait for records that never come
            }
            reader.join(); // it stops by itself at readDeadline at the latest
        }
        if (readFailure.get() != null) {
            throw readFailure.get();
        }
        return LatencyDistribution.of(latencies, latencies.length);
    }

    private static void sendOnSchedule(Broker broker, String topic, int recordBytes, double recordsPerSecond,
                                       long total) throws InterruptedException {
        SendFailures failures = new SendFailures();
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(ClientSettings.producer(broker, "all"));
        try {
            producer.send(record(topic, recordBytes, System.nanoTime(), UNTIMED)).get();
            double nanosBetween = 1e9 / recordsPerSecond;
            long start = System.nanoTime();
            for (long sequence = 0; sequence < total; sequence++) {
                long scheduled = start + (long) (sequence * nanosBetween);
                for (long wait = scheduled - System.nanoTime(); wait > 0; wait = scheduled - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
                producer.send(record(topic, recordBytes, scheduled, sequence), failures);
            }
            producer.flush();
            failures.throwIfAny("latency phase on " + topic);
        } catch (ExecutionException e) {
            throw new IllegalStateException("first record to " + topic + " failed", e.getCause());
        } finally {
            producer.close(CLOSE_TIMEOUT);
        }
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, int recordBytes, long scheduled, long sequence) {
        byte[] value = new byte[recordBytes];
        ByteBuffer.wrap(value).putLong(scheduled).putLong(sequence);
        return new ProducerRecord<>(topic, value);
    }

    private static void readBack(KafkaConsumer<byte[], byte[]> consumer, long warmupRecords, long[] latencies,
                                 long deadline) {
        long counted = 0;
        while (counted < latencies.length) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("read back only " + counted + " of " + latencies.length
                        + " timed records before the deadline");
            }
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                long now = System.nanoTime();
                ByteBuffer value = ByteBuffer.wrap(record.value());
                long scheduled = value.getLong();
                long sequence = value.getLong();
                if (sequence >= warmupRecords) {
                    latencies[Math.toIntExact(sequence - warmupRecords)] = now - scheduled;
                    counted++;
                }
            }
        }
    }
}

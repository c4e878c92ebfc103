package io.tributary.benchmarks.harness;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.List;

/**
 * Reads a topic from its beginning with one consumer and measures records per second and the
 * broker's CPU. The topic was written moments before, so its segments are in the page cache.
 * The clock starts once the start offsets are resolved.
 */
public final class ConsumePhase {
    private static final Duration POLL = Duration.ofMillis(100);

    private ConsumePhase() {
    }

    /** Reads the first {@code records} records of {@code topic}; fails if that takes longer than {@code limit}. */
    public static PhaseMeasurement read(Broker broker, String topic, long records, Duration limit) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(ClientSettings.consumer(broker))) {
            List<TopicPartition> partitions = partitionsOf(consumer, topic, limit);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            partitions.forEach(consumer::position);

            double cpuBefore = broker.cpuSeconds();
            long start = System.nanoTime();
            long deadline = start + limit.toNanos();
            long read = 0;
            long bytes = 0;
            while (read < records) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("read only " + read + " of " + records + " records of "
                            + topic + " within " + limit);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    read++;
                    bytes += record.serializedValueSize();
                }
            }
            long elapsed = System.nanoTime() - start;
            return new PhaseMeasurement(read, bytes, elapsed, broker.cpuSeconds() - cpuBefore);
        }
    }

    static List<TopicPartition> partitionsOf(KafkaConsumer<?, ?> consumer, String topic, Duration timeout) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
        if (infos.isEmpty()) {
            throw new IllegalStateException("topic " + topic + " has no partitions");
        }
        return infos.stream().map(info -> new TopicPartition(topic, info.partition())).toList();
    }
}

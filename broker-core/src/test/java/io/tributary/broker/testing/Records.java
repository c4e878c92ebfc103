package io.tributary.broker.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/** Reading topics back in tests. */
public final class Records {
    private Records() {
    }

    /** Every record of the topic from the beginning up to the end offsets as of now, partition by partition. */
    public static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrap, String topic, Duration timeout) {
        return readAll(bootstrap, topic, timeout, Map.of());
    }

    /** {@link #readAll(String, String, Duration)} with more consumer settings (security, for one). */
    public static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrap, String topic, Duration timeout,
                                                               Map<String, Object> settings) {
        Map<String, Object> overrides = new java.util.HashMap<>(settings);
        overrides.put("max.poll.records", 5000);
        try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(bootstrap, overrides)) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo info : consumer.partitionsFor(topic, Duration.ofSeconds(20))) {
                partitions.add(new TopicPartition(topic, info.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(20));
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!reached(consumer, end) && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            if (!reached(consumer, end)) {
                throw new AssertionError("could not read " + topic + " up to " + end + " within " + timeout + "; read " + records.size());
            }
            return records;
        }
    }

    private static boolean reached(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        Collection<TopicPartition> partitions = end.keySet();
        for (TopicPartition partition : partitions) {
            if (consumer.position(partition) < end.get(partition)) {
                return false;
            }
        }
        return true;
    }
}

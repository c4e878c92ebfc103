package io.tributary.hadoop.input;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Estimates each partition's average record size (key + value + headers) from the first records
 * of its planned range, for {@code tributary.split.max.bytes}. A partition it cannot sample
 * keeps an unknown (0) average and is then cut by record count only.
 */
public final class RecordSizeSampler {
    private static final int POLLS = 5;
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);

    private final Consumer<byte[], byte[]> consumer;
    private final int samplesPerPartition;

    public RecordSizeSampler(Consumer<byte[], byte[]> consumer, int samplesPerPartition) {
        this.consumer = consumer;
        this.samplesPerPartition = samplesPerPartition;
    }

    public LoadPlan withAverages(LoadPlan plan) {
        Map<Integer, long[]> totals = new TreeMap<>(); // partition -> {records, bytes}
        List<TopicPartition> assigned = new ArrayList<>();
        for (OffsetRange r : plan.ranges()) {
            if (!r.isEmpty()) {
                assigned.add(new TopicPartition(plan.topic(), r.partition()));
                totals.put(r.partition(), new long[2]);
            }
        }
        try {
            consumer.assign(assigned);
            plan.ranges().stream().filter(r -> !r.isEmpty())
                .forEach(r -> consumer.seek(new TopicPartition(plan.topic(), r.partition()), r.start()));
            for (int i = 0; i < POLLS && !consumer.assignment().isEmpty(); i++) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL_TIMEOUT)) {
                    long[] t = totals.get(record.partition());
                    t[0]++;
                    t[1] += RecordSizes.of(record);
                    if (t[0] >= samplesPerPartition) {
                        consumer.pause(List.of(new TopicPartition(record.topic(), record.partition())));
                    }
                }
            }
        } catch (KafkaException partlyUnreadable) {
            // Out-of-range starts and the like: sizes stay unknown, the reader deals with them.
        } finally {
            consumer.assign(List.of());
        }
        List<LoadPlan.Partition> sampled = plan.partitions().stream().map(p -> {
            long[] t = totals.get(p.range().partition());
            double avg = t == null || t[0] == 0 ? 0 : (double) t[1] / t[0];
            return p.withAvgRecordBytes(avg);
        }).toList();
        return new LoadPlan(plan.topic(), sampled);
    }
}

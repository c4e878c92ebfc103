package io.tributary.broker.metrics;

import org.apache.kafka.common.TopicPartition;

/**
 * How far a consumer group is behind on one partition, as {@code kafka-consumer-groups --describe} counts it: the
 * partition's end offset (its high watermark, what a consumer can read) minus the group's committed offset.
 */
public record PartitionLag(String group, TopicPartition partition, long committedOffset, long endOffset) {
    public long lag() {
        return endOffset - committedOffset;
    }
}

package io.tributary.consumer;

import org.apache.kafka.common.TopicPartition;

import java.util.OptionalLong;

/**
 * Counters of one partition, written by the worker thread that handles it and sampled by the
 * poll thread. Thread-safe: all access goes through this object's monitor (cheap: one
 * uncontended lock per handler call).
 */
final class PartitionMetrics {
    private final TopicPartition partition;
    private long records;
    private long intervalRecords;
    private long intervalLatencyNanos;
    private long intervalMaxLatencyNanos;

    PartitionMetrics(TopicPartition partition) {
        this.partition = partition;
    }

    /** {@code count} records were handled by one handler call that took {@code latencyNanos}. */
    synchronized void recordHandled(int count, long latencyNanos) {
        records += count;
        intervalRecords += count;
        intervalLatencyNanos += latencyNanos;
        intervalMaxLatencyNanos = Math.max(intervalMaxLatencyNanos, latencyNanos);
    }

    /** Closes the current interval of {@code intervalNanos} and returns its figures. */
    synchronized PartitionStats sample(long intervalNanos, OptionalLong lag, int queued, boolean paused) {
        double seconds = Math.max(intervalNanos, 1) / 1e9;
        double avgMillis = intervalRecords == 0 ? 0 : intervalLatencyNanos / 1e6 / intervalRecords;
        PartitionStats stats = new PartitionStats(partition, records, intervalRecords / seconds,
                avgMillis, intervalMaxLatencyNanos / 1e6, lag, queued, paused);
        intervalRecords = 0;
        intervalLatencyNanos = 0;
        intervalMaxLatencyNanos = 0;
        return stats;
    }
}

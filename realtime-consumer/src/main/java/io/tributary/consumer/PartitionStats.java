package io.tributary.consumer;

import org.apache.kafka.common.TopicPartition;

import java.util.OptionalLong;

/**
 * One partition's processing figures over the last metrics interval.
 *
 * @param partition          the partition
 * @param recordsProcessed   records handled since the partition was assigned to this consumer
 * @param recordsPerSecond   handled records per second during the last interval
 * @param avgLatencyMillis   mean handler time per record during the last interval (0 if none)
 * @param maxLatencyMillis   longest handler call during the last interval (0 if none)
 * @param lag                log end offset minus the next offset to process; empty until known
 * @param queued             records fetched and waiting for the handler at sampling time
 * @param paused             whether fetching was paused because the queue was full (backpressure)
 */
public record PartitionStats(TopicPartition partition, long recordsProcessed, double recordsPerSecond,
                             double avgLatencyMillis, double maxLatencyMillis, OptionalLong lag,
                             int queued, boolean paused) {

    @Override
    public String toString() {
        return String.format("%s: %.1f records/s, latency avg %.2f ms max %.2f ms, lag %s, queued %d%s, total %d",
                partition, recordsPerSecond, avgLatencyMillis, maxLatencyMillis,
                lag.isPresent() ? Long.toString(lag.getAsLong()) : "unknown", queued, paused ? " (paused)" : "",
                recordsProcessed);
    }
}

package io.tributary.sink;

import org.apache.kafka.common.TopicPartition;

import java.util.Optional;

/**
 * A snapshot of one partition for logs, the console and callers.
 *
 * @param lag                records behind the log end, -1 if unknown yet
 * @param freshnessMs        how long the oldest uncommitted record has been waiting (0 if none)
 * @param recordsPerSecond   records written per second since the previous snapshot
 * @param recordsCommitted   records in committed files, since this sink took the partition
 * @param filesCommitted     files committed since this sink took the partition
 * @param maxVisibleDelayMs  the largest (commit time - record timestamp) of a committed record seen
 * @param lostRanges         ranges the log no longer had and the sink skipped (on.missing=skip), since it took the partition
 * @param lostRecords        offsets in those ranges
 * @param recovering         paused after a storage failure, waiting to retry
 * @param lastCommitMs       when this sink last committed the partition's files (wall clock), -1 if it has not yet
 * @param committedOffset    the offset the dataset holds the partition up to (exclusive) after that commit, -1 if none
 * @param heldBy             the open transaction the partition waits at (its last stable offset), if one holds it
 */
public record PartitionStatus(TopicPartition partition, long lag, long freshnessMs, double recordsPerSecond,
                              long recordsCommitted, long filesCommitted, long maxVisibleDelayMs, long lostRanges,
                              long lostRecords, boolean recovering, long lastCommitMs, long committedOffset,
                              Optional<TransactionHold> heldBy) {
    String logLine() {
        return String.format("%s lag=%d freshness=%dms rate=%.0f/s committed=%d records in %d files%s%s%s",
            partition, lag, freshnessMs, recordsPerSecond, recordsCommitted, filesCommitted,
            lostRanges > 0 ? " lost=" + lostRecords + " offsets in " + lostRanges + " ranges" : "",
            recovering ? " RECOVERING" : "", heldBy.map(hold -> " HELD " + hold.describe()).orElse(""));
    }
}

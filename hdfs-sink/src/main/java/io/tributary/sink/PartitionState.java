package io.tributary.sink;

import org.apache.kafka.common.TopicPartition;

import java.util.Optional;

/**
 * The sink's state of one assigned partition: its open files (absent while recovering), its
 * retry schedule after a storage failure, and its counters. Poll thread only.
 */
final class PartitionState {
    private final TopicPartition partition;
    private PartitionFiles files;
    private int failures;
    private long retryAtMs;
    private long recordsWritten;
    private long recordsCommitted;
    private long filesCommitted;
    private long maxVisibleDelayMs;
    private long lostRanges;
    private long lostRecords;
    private long rateRecords;
    private long rateSinceMs;
    private long lastCommitMs = -1;
    private long committedOffset = -1;

    PartitionState(TopicPartition partition, long nowMs) {
        this.partition = partition;
        this.retryAtMs = nowMs;
        this.rateSinceMs = nowMs;
    }

    TopicPartition partition() {
        return partition;
    }

    boolean isRecovering() {
        return files == null;
    }

    PartitionFiles files() {
        return files;
    }

    /** Starts writing with fresh files, after the assignment or a recovery. */
    void start(PartitionFiles fresh) {
        files = fresh;
    }

    boolean hadFailures() {
        return failures > 0;
    }

    void clearFailures() {
        failures = 0;
    }

    /** Drops the open files and schedules a retry with backoff. */
    void fail(long nowMs, Backoff backoff) {
        if (files != null) {
            files.abandon();
            files = null;
        }
        failures++;
        retryAtMs = nowMs + backoff.delayMs(failures);
    }

    /** Drops the open files (another writer moved the ledger) and resumes at the ledger on the next loop. */
    void replan(long nowMs) {
        if (files != null) {
            files.abandon();
            files = null;
        }
        retryAtMs = nowMs;
    }

    /** Schedules the next try after a recovery attempt failed; returns the delay. */
    long retryLater(long nowMs, Backoff backoff) {
        failures++;
        long delay = backoff.delayMs(failures);
        retryAtMs = nowMs + delay;
        return delay;
    }

    boolean isRetryDue(long nowMs) {
        return isRecovering() && nowMs >= retryAtMs;
    }

    long retryAtMs() {
        return retryAtMs;
    }

    void recordWritten() {
        recordsWritten++;
    }

    /** Files holding {@code records} committed at {@code nowMs}; the dataset holds the partition up to {@code nextOffset}. */
    void committed(long records, int fileCount, long visibleDelayMs, long nextOffset, long nowMs) {
        recordsCommitted += records;
        filesCommitted += fileCount;
        maxVisibleDelayMs = Math.max(maxVisibleDelayMs, visibleDelayMs);
        committedOffset = nextOffset;
        lastCommitMs = nowMs;
    }

    /** Offsets {@code [start, end)} were gone from the log and skipped (on.missing=skip). */
    void lost(long start, long end) {
        lostRanges++;
        lostRecords += end - start;
    }

    /** A snapshot; also restarts the records/s window. */
    PartitionStatus status(long lag, Optional<TransactionHold> heldBy, long nowMs) {
        long elapsed = Math.max(1, nowMs - rateSinceMs);
        double rate = (recordsWritten - rateRecords) * 1000.0 / elapsed;
        rateRecords = recordsWritten;
        rateSinceMs = nowMs;
        long freshness = files == null || files.isEmpty() ? 0 : nowMs - files.firstAppendMs();
        return new PartitionStatus(partition, lag, freshness, rate, recordsCommitted, filesCommitted,
            maxVisibleDelayMs, lostRanges, lostRecords, isRecovering(), lastCommitMs, committedOffset, heldBy);
    }
}

package io.tributary.broker.log.cleaner;

import java.util.OptionalLong;
import org.apache.kafka.common.record.internal.MemoryRecords.RecordFilter;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * Decides record by record what a clean keeps: the latest record of each key, except tombstones whose
 * delete horizon has passed. The first clean that keeps a tombstone stamps its batch with the horizon
 * now + delete.retention.ms (kafka-clients' filter does that); a later clean past the horizon drops it.
 * Batches left empty are dropped; the offsets of the records kept never change. Transaction markers
 * (control batches) are always kept: a read_committed reader needs them to end a transaction's
 * records, and the offsets coordinator to apply a transaction's commits when it loads.
 */
final class CompactionFilter extends RecordFilter {
    private final LatestOffsets latest;
    private long earliestRetainedHorizonMs = Long.MAX_VALUE;

    CompactionFilter(LatestOffsets latest, long nowMs, long deleteRetentionMs) {
        super(nowMs, deleteRetentionMs);
        this.latest = latest;
    }

    @Override
    protected BatchRetentionResult checkBatchRetention(RecordBatch batch) {
        return new BatchRetentionResult(batch.isControlBatch() ? BatchRetention.RETAIN_EMPTY : BatchRetention.DELETE_EMPTY, false);
    }

    @Override
    protected boolean shouldRetainRecord(RecordBatch batch, Record record) {
        if (batch.isControlBatch()) {
            return true;
        }
        if (!latest.isLatest(record)) {
            return false;
        }
        if (record.hasValue()) {
            return true;
        }
        OptionalLong stamped = batch.deleteHorizonMs();
        long horizon = stamped.isPresent() ? stamped.getAsLong() : currentTime + deleteRetentionMs;
        if (currentTime >= horizon) {
            return false;
        }
        earliestRetainedHorizonMs = Math.min(earliestRetainedHorizonMs, horizon);
        return true;
    }

    /** When the earliest tombstone kept so far may be dropped; Long.MAX_VALUE if none was kept. */
    long earliestRetainedHorizonMs() {
        return earliestRetainedHorizonMs;
    }
}

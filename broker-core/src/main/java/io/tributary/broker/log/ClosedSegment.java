package io.tributary.broker.log;

import org.apache.kafka.common.record.internal.FileRecords;

/**
 * A segment that takes no more appends, as the cleaner sees it: it holds offsets in [baseOffset, endOffset)
 * (the end is the next segment's base offset) and its batches are read through {@code records}.
 *
 * @param firstBatchTimestamp the max timestamp of its first batch, an estimate of its oldest record's time
 *                            (NO_TIMESTAMP when unknown); min/max.compaction.lag.ms are measured against it
 * @param maxTimestamp        the largest timestamp it holds (NO_TIMESTAMP when unknown)
 */
public record ClosedSegment(long baseOffset, long endOffset, FileRecords records, long firstBatchTimestamp,
                            long maxTimestamp) {
}

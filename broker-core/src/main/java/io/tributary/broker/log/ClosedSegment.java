package io.tributary.broker.log;

import org.apache.kafka.common.record.internal.FileRecords;

/**
 * A segment that takes no more appends, as the cleaner sees it: it holds offsets in [baseOffset, endOffset)
 * (the end is the next segment's base offset) and its batches are read through {@code records}.
 */
public record ClosedSegment(long baseOffset, long endOffset, FileRecords records) {
}

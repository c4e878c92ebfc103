package io.tributary.broker.log;

import org.apache.kafka.common.record.internal.Records;

/**
 * Result of a read.
 *
 * @param fetchOffset    the offset that was asked for
 * @param records        a {@code FileRecords} slice of one segment (sendable with zero copy), or
 *                       {@code MemoryRecords.EMPTY} when there is nothing to return
 * @param logStartOffset the first offset available in the log at the time of the read
 * @param logEndOffset   the offset the next appended record will get, at the time of the read
 */
public record FetchDataInfo(long fetchOffset, Records records, long logStartOffset, long logEndOffset) {
}

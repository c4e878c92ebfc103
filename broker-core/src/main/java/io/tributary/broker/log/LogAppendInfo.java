package io.tributary.broker.log;

/**
 * Result of an append: the offsets assigned, the batch statistics and the bytes written.
 *
 * @param firstOffset   offset of the first record appended, or -1 if nothing was appended
 * @param lastOffset    offset of the last record appended, or -1 if nothing was appended
 * @param maxTimestamp  largest record timestamp of the append (after LogAppendTime stamping), or -1
 * @param logAppendTime broker time stamped on the batches, or -1 when the topic uses CreateTime
 * @param recordCount   number of records appended
 * @param validBytes    bytes appended to the segment
 */
public record LogAppendInfo(long firstOffset, long lastOffset, long maxTimestamp, long logAppendTime,
                            int recordCount, int validBytes) {

    static final LogAppendInfo NOTHING_APPENDED = new LogAppendInfo(-1, -1, -1, -1, 0, 0);
}

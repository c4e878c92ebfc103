package io.tributary.hadoop.input;

/**
 * How ranges are cut into splits: at most {@code maxRecords} offsets, at most an estimated
 * {@code maxBytes} (0 = no byte limit), and ranges under {@code packRecords} offsets packed
 * together into splits of up to {@code packRecords}.
 */
public record SplitLimits(long maxRecords, long maxBytes, long packRecords) {
    public SplitLimits {
        if (maxRecords < 1 || maxBytes < 0 || packRecords < 0) {
            throw new IllegalArgumentException("bad split limits: max.records " + maxRecords
                + ", max.bytes " + maxBytes + ", pack.records " + packRecords);
        }
    }

    /** The most offsets one split of a partition with this average record size may hold. */
    public long maxOffsets(double avgRecordBytes) {
        if (maxBytes == 0 || avgRecordBytes <= 0) {
            return maxRecords;
        }
        return Math.max(1, Math.min(maxRecords, (long) (maxBytes / avgRecordBytes)));
    }
}

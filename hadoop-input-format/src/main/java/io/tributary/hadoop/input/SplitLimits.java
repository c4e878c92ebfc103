package io.tributary.hadoop.input;

/**
 * How ranges are cut into splits: at most {@code maxRecords} offsets, at most an estimated
 * {@code maxBytes} (0 = no byte limit); ranges under {@code packRecords} offsets (tiny ones; 0 =
 * never) packed together into splits of up to {@code packRecords}; then at least {@code minMaps}
 * and at most {@code maxMaps} splits (0 = no bound).
 */
public record SplitLimits(long maxRecords, long maxBytes, long packRecords, int minMaps, int maxMaps) {
    public SplitLimits {
        if (maxRecords < 1 || maxBytes < 0 || packRecords < 0 || minMaps < 0 || maxMaps < 0) {
            throw new IllegalArgumentException("bad split limits: max.records " + maxRecords + ", max.bytes " + maxBytes
                + ", pack.records " + packRecords + ", min.maps " + minMaps + ", max.maps " + maxMaps);
        }
        if (maxMaps > 0 && minMaps > maxMaps) {
            throw new IllegalArgumentException("min.maps " + minMaps + " is more than max.maps " + maxMaps);
        }
    }

    /** Limits by size alone: no bound on the number of maps. */
    public SplitLimits(long maxRecords, long maxBytes, long packRecords) {
        this(maxRecords, maxBytes, packRecords, 0, 0);
    }

    /** The most offsets one split of a partition with this average record size may hold. */
    public long maxOffsets(double avgRecordBytes) {
        if (maxBytes == 0 || avgRecordBytes <= 0) {
            return maxRecords;
        }
        return Math.max(1, Math.min(maxRecords, (long) (maxBytes / avgRecordBytes)));
    }
}

package io.tributary.hadoop.input;

/**
 * Offsets {@code [start, end)} of one partition. Offsets inside need not be dense: compaction
 * and transaction markers leave gaps, so {@link #span()} is an upper bound on the record count.
 */
public record OffsetRange(int partition, long start, long end) {
    public OffsetRange {
        if (partition < 0 || start < 0 || end < start) {
            throw new IllegalArgumentException("bad offset range: partition " + partition + " [" + start + ", " + end + ")");
        }
    }

    public long span() {
        return end - start;
    }

    public boolean isEmpty() {
        return start == end;
    }

    @Override
    public String toString() {
        return "partition " + partition + " [" + start + ", " + end + ")";
    }
}

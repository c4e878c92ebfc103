package io.tributary.broker.log;

import java.util.Arrays;
import java.util.Collection;

/**
 * An immutable, array-backed copy of a partition's segments ordered by base offset, for the lock-free read path.
 *
 * <p>A read at a random offset in a log of thousands of segments would otherwise walk a skip list of boxed keys
 * twice (the floor, then the next base offset), a handful of cache misses each. Here the floor is a binary search
 * over a {@code long[]} that stays in the CPU cache, and the next base offset is the neighbouring slot. The log
 * publishes a new table (O(segments) to build) after every change of its segment set, under its append lock.
 */
final class SegmentTable {

    private final long[] baseOffsets;
    private final LogSegment[] segments;

    private SegmentTable(long[] baseOffsets, LogSegment[] segments) {
        this.baseOffsets = baseOffsets;
        this.segments = segments;
    }

    /** The table of {@code ordered}, which must be sorted by base offset. */
    static SegmentTable of(Collection<LogSegment> ordered) {
        LogSegment[] segments = ordered.toArray(new LogSegment[0]);
        long[] baseOffsets = new long[segments.length];
        for (int i = 0; i < segments.length; i++) {
            baseOffsets[i] = segments[i].baseOffset();
        }
        return new SegmentTable(baseOffsets, segments);
    }

    int size() {
        return segments.length;
    }

    /** The slot of the segment with the largest base offset at or below {@code offset}, or -1 if there is none. */
    int floorSlot(long offset) {
        int found = Arrays.binarySearch(baseOffsets, offset);
        return found >= 0 ? found : -found - 2;
    }

    LogSegment segment(int slot) {
        return segments[slot];
    }

    /** The base offset of the segment after {@code slot}, or {@link Long#MAX_VALUE} for the last one. */
    long nextBaseOffset(int slot) {
        return slot + 1 < baseOffsets.length ? baseOffsets[slot + 1] : Long.MAX_VALUE;
    }
}

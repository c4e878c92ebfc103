package io.tributary.broker.log;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The segments of one partition by base offset (as Kafka's LogSegments): a concurrent map that the writer changes
 * under the log's append lock, and the array copy of it ({@link SegmentTable}) that lock-free reads look segments up
 * in. The writer publishes a new copy with {@link #publish} once a change is complete, so readers never see a half
 * done swap or deletion.
 */
final class LogSegments {
    private final ConcurrentSkipListMap<Long, LogSegment> segments;
    private volatile SegmentTable readTable;

    LogSegments(java.util.Map<Long, LogSegment> loaded) {
        this.segments = new ConcurrentSkipListMap<>(loaded);
        publish();
    }

    /** Makes the current segment set what reads see. */
    void publish() {
        readTable = SegmentTable.of(segments.values());
    }

    /** The segment set as last published. */
    SegmentTable readTable() {
        return readTable;
    }

    void put(LogSegment segment) {
        segments.put(segment.baseOffset(), segment);
    }

    void remove(LogSegment segment) {
        segments.remove(segment.baseOffset(), segment);
    }

    LogSegment get(long baseOffset) {
        return segments.get(baseOffset);
    }

    LogSegment active() {
        return segments.lastEntry().getValue();
    }

    long firstBaseOffset() {
        return segments.firstKey();
    }

    Long floorBaseOffset(long offset) {
        return segments.floorKey(offset);
    }

    /** The base offset of the segment after the one at {@code baseOffset}, or null for the active one. */
    Long nextBaseOffset(long baseOffset) {
        return segments.higherKey(baseOffset);
    }

    /** All segments, oldest first. */
    Collection<LogSegment> all() {
        return segments.values();
    }

    /** The segments after the one at {@code baseOffset}, oldest first. */
    List<LogSegment> after(long baseOffset) {
        return new ArrayList<>(segments.tailMap(baseOffset, false).values());
    }

    /** The segments whose base offsets lie in [from, to). */
    Collection<LogSegment> between(long from, long to) {
        return segments.subMap(from, true, to, false).values();
    }

    int count() {
        return segments.size();
    }

    long sizeInBytes() {
        return segments.values().stream().mapToLong(LogSegment::size).sum();
    }
}

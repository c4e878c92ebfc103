package io.tributary.broker.log;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Chooses the segments that retention deletes: whole segments, oldest first, never the active (last) one.
 * A segment goes when its newest timestamp is older than the retention time, or while the log exceeds the retention
 * size by at least the segment's size; and only if it ends at or below a bound (on a tiered log, the end of what the
 * remote part holds). Stateless.
 */
final class RetentionPolicy {

    private RetentionPolicy() {
    }

    /**
     * @param segments       all segments, oldest first; the last one is the active segment
     * @param retentionMs    the retention time, negative for none
     * @param retentionBytes the retention size, negative for none
     * @param endBound       no segment whose end (the next one's base offset) lies beyond this goes
     * @return the prefix of {@code segments} to delete
     */
    static List<LogSegment> deletable(List<LogSegment> segments, long retentionMs, long retentionBytes, long nowMs,
                                      long endBound) throws IOException {
        if (segments.size() < 2) {
            return List.of();
        }
        long excessBytes = retentionBytes < 0 ? 0 : segments.stream().mapToLong(LogSegment::size).sum() - retentionBytes;
        List<LogSegment> deletable = new ArrayList<>();
        for (int i = 0; i + 1 < segments.size(); i++) {
            LogSegment segment = segments.get(i);
            boolean expired = retentionMs >= 0 && nowMs - segment.largestTimestamp() > retentionMs;
            boolean tooBig = excessBytes > 0 && excessBytes >= segment.size();
            if (!expired && !tooBig || segments.get(i + 1).baseOffset() > endBound) {
                break;
            }
            deletable.add(segment);
            excessBytes -= segment.size();
        }
        return deletable;
    }
}

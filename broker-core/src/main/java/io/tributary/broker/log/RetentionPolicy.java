package io.tributary.broker.log;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Chooses the segments that retention deletes: whole segments, oldest first, never the active (last) one.
 * A segment goes when its newest timestamp is older than retention.ms, or while the log exceeds retention.bytes
 * by at least the segment's size. Stateless.
 */
final class RetentionPolicy {

    private RetentionPolicy() {
    }

    /**
     * @param segments all segments, oldest first; the last one is the active segment
     * @return the prefix of {@code segments} to delete
     */
    static List<LogSegment> deletable(List<LogSegment> segments, LogConfig config, long nowMs) throws IOException {
        if (!config.deleteRetentionEnabled() || segments.size() < 2) {
            return List.of();
        }
        long excessBytes = config.retentionBytes() < 0 ? 0
                : segments.stream().mapToLong(LogSegment::size).sum() - config.retentionBytes();
        List<LogSegment> deletable = new ArrayList<>();
        for (LogSegment segment : segments.subList(0, segments.size() - 1)) {
            boolean expired = config.retentionMs() >= 0 && nowMs - segment.largestTimestamp() > config.retentionMs();
            boolean tooBig = excessBytes > 0 && excessBytes >= segment.size();
            if (!expired && !tooBig) {
                break;
            }
            deletable.add(segment);
            excessBytes -= segment.size();
        }
        return deletable;
    }
}

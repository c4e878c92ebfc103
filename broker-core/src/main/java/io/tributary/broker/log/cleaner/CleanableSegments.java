package io.tributary.broker.log.cleaner;

import java.util.List;
import io.tributary.broker.log.ClosedSegment;
import io.tributary.broker.log.LogConfig;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * Which closed segments a clean may touch, and when a log is due. Segments reaching the last stable offset are out
 * of the cleaner's reach (an undecided transaction, or records not yet on every ISR member), and so, by the topic's
 * min.compaction.lag.ms, are segments with records younger than that; max.compaction.lag.ms makes a log due for
 * cleaning, whatever its dirty ratio, once a dirty record has waited that long. Timestamps are those of the
 * segments' batches, as in Kafka.
 */
final class CleanableSegments {

    private CleanableSegments() {
    }

    /**
     * The leading closed segments that end at or below {@code lastStableOffset} and whose every record is at least
     * min.compaction.lag.ms old at {@code now}.
     */
    static List<ClosedSegment> of(List<ClosedSegment> closed, long lastStableOffset, LogConfig config, long now) {
        long horizon = now - config.minCompactionLagMs();
        int end = 0;
        while (end < closed.size() && closed.get(end).endOffset() <= lastStableOffset
                && closed.get(end).maxTimestamp() <= horizon) {
            end++;
        }
        return closed.subList(0, end);
    }

    /**
     * True when the first cleanable segment at or after {@code firstDirtyOffset} began more than
     * max.compaction.lag.ms before {@code now}.
     */
    static boolean overdue(List<ClosedSegment> cleanable, long firstDirtyOffset, LogConfig config, long now) {
        long maxLag = config.maxCompactionLagMs();
        if (maxLag == Long.MAX_VALUE) {
            return false;
        }
        for (ClosedSegment segment : cleanable) {
            if (segment.endOffset() > firstDirtyOffset) {
                long first = segment.firstBatchTimestamp();
                return first != RecordBatch.NO_TIMESTAMP && now - first > maxLag;
            }
        }
        return false;
    }
}

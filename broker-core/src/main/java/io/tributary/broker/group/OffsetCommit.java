package io.tributary.broker.group;

import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * An OffsetCommit as the coordinator sees it.
 *
 * @param generationId -1 (with an empty member id) for consumers outside group management
 * @param offsets      what to commit; the commit timestamp is the broker's
 */
public record OffsetCommit(String groupId, String memberId, String groupInstanceId, int generationId,
                           Map<TopicPartition, Position> offsets) {

    /** A position to commit. */
    public record Position(long offset, int leaderEpoch, String metadata) {
    }
}

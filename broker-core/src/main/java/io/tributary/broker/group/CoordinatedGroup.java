package io.tributary.broker.group;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * A group this broker coordinates, as the status page and the lag gauges see it: its listing, its members and its
 * committed offsets.
 */
public record CoordinatedGroup(GroupListing listing, List<Member> members, Map<TopicPartition, Long> committedOffsets) {
    /** One member: who it is and where it runs. */
    public record Member(String memberId, String clientId, String clientHost) {
    }
}

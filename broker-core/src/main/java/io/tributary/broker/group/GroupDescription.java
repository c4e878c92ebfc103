package io.tributary.broker.group;

import java.util.List;

/**
 * A group as DescribeGroups reports it. Member metadata and assignments are only filled in while
 * the group is Stable, as in Kafka.
 */
public record GroupDescription(String groupId, GroupState state, String protocolType, String protocolName,
                               List<DescribedMember> members) {

    /** One member: its client, its subscription (protocol metadata) and its assignment. */
    public record DescribedMember(String memberId, String groupInstanceId, String clientId, String clientHost,
                                  byte[] metadata, byte[] assignment) {
    }
}

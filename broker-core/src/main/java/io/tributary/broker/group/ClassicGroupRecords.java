package io.tributary.broker.group;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.coordinator.group.generated.CoordinatorRecordType;
import org.apache.kafka.coordinator.group.generated.GroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;

/**
 * A classic group's record in {@code __consumer_offsets}, in Kafka's layout (GroupMetadataKey and GroupMetadataValue of
 * kafka-group-coordinator: key type 2, value version 3, as Kafka writes them): protocol type, generation, selected
 * protocol, leader, when the group entered its state, and each member with its timeouts, its subscription (its metadata
 * for the selected protocol) and its assignment. A null value (tombstone) deletes the group. {@link Replay} keeps each
 * group's latest record; {@link #restore} rebuilds the group from it, Stable with its members or Empty, as Kafka loads
 * a classic group.
 */
final class ClassicGroupRecords {
    private static final short VALUE_VERSION = 3;

    private ClassicGroupRecords() {
    }

    /** True if the key (not consumed) is a classic group's. */
    static boolean isClassicGroupKey(ByteBuffer key) {
        return key.remaining() >= 2 && key.getShort(key.position()) == CoordinatorRecordType.GROUP_METADATA.id();
    }

    /** The group as it stands, each member with its current assignment. */
    static SimpleRecord of(Group group, long timestampMs) {
        return of(group, currentAssignments(group), timestampMs);
    }

    /** Each member's current assignment, by member id. */
    static Map<String, byte[]> currentAssignments(Group group) {
        Map<String, byte[]> assignments = new HashMap<>();
        group.members().forEach(member -> assignments.put(member.memberId(), member.assignment()));
        return assignments;
    }

    /** The group with the assignments of its generation ({@code assignments}: by member id, a missing one is empty). */
    static SimpleRecord of(Group group, Map<String, byte[]> assignments, long timestampMs) {
        List<GroupMetadataValue.MemberMetadata> members = new ArrayList<>();
        for (Member member : group.members()) {
            members.add(new GroupMetadataValue.MemberMetadata().setMemberId(member.memberId())
                    .setGroupInstanceId(member.groupInstanceId()).setClientId(member.clientId()).setClientHost(member.clientHost())
                    .setRebalanceTimeout(member.rebalanceTimeoutMs()).setSessionTimeout(member.sessionTimeoutMs())
                    .setSubscription(member.metadata(group.protocolName()))
                    .setAssignment(assignments.getOrDefault(member.memberId(), new byte[0])));
        }
        GroupMetadataValue value = new GroupMetadataValue().setProtocolType(group.protocolType() == null ? "" : group.protocolType())
                .setGeneration(group.generationId()).setProtocol(group.protocolName()).setLeader(group.leaderId())
                .setCurrentStateTimestamp(group.stateChangedMs()).setMembers(members);
        return new SimpleRecord(timestampMs, key(group.groupId()), MessageUtil.toVersionPrefixedBytes(VALUE_VERSION, value));
    }

    /** Deletes the group's record. */
    static SimpleRecord tombstone(String groupId, long timestampMs) {
        return new SimpleRecord(timestampMs, key(groupId), null);
    }

    private static byte[] key(String groupId) {
        return MessageUtil.toCoordinatorTypePrefixedBytes(new GroupMetadataKey().setGroup(groupId));
    }

    /**
     * Makes the (new, empty) {@code group} the one {@code stored} describes: its generation, protocol and leader, its
     * members with their subscriptions and assignments; Stable if it has members, else Empty, since the time stored.
     */
    static void restore(Group group, GroupMetadataValue stored, long nowMs) {
        String protocolType = stored.protocolType().isEmpty() ? null : stored.protocolType();
        group.protocolType(protocolType);
        for (GroupMetadataValue.MemberMetadata storedMember : stored.members()) {
            JoinRequest joined = new JoinRequest(group.groupId(), storedMember.memberId(), storedMember.groupInstanceId(), storedMember.clientId(),
                    storedMember.clientHost(), storedMember.sessionTimeout(), storedMember.rebalanceTimeout(), stored.protocolType(),
                    List.of(new Protocol(stored.protocol(), storedMember.subscription())), false);
            Member member = new Member(storedMember.memberId(), joined);
            member.assign(storedMember.assignment());
            group.add(member);
        }
        group.restore(stored.generation(), stored.protocol(), stored.leader());
        group.transitionTo(group.hasMembers() ? GroupState.STABLE : GroupState.EMPTY,
                stored.currentStateTimestamp() < 0 ? nowMs : stored.currentStateTimestamp());
    }

    /** Each classic group's latest record, from the records in log order. */
    static final class Replay {
        private final Map<String, GroupMetadataValue> groups = new HashMap<>();

        /** @param value the value, or null for a tombstone */
        void apply(ByteBuffer key, ByteBuffer value) {
            ByteBufferAccessor keyReader = new ByteBufferAccessor(key.duplicate());
            keyReader.readShort();
            String groupId = new GroupMetadataKey(keyReader, (short) 0).group();
            if (value == null) {
                groups.remove(groupId);
                return;
            }
            ByteBufferAccessor valueReader = new ByteBufferAccessor(value.duplicate());
            groups.put(groupId, new GroupMetadataValue(valueReader, valueReader.readShort()));
        }

        /** The groups the records left, by group id. */
        Map<String, GroupMetadataValue> groups() {
            return Map.copyOf(groups);
        }
    }
}

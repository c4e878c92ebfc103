package io.tributary.broker.group.consumer;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMemberKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMemberValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMetadataValue;
import org.apache.kafka.coordinator.group.generated.CoordinatorRecordType;

/**
 * The consumer group records of {@code __consumer_offsets}, in Kafka's layouts (the generated classes of
 * kafka-group-coordinator): the key is the record type (int16) then the key message, the value its version
 * (int16) then the value message, a tombstone deletes. ConsumerGroupMetadata holds the group epoch,
 * ConsumerGroupMemberMetadata a member's subscription, ConsumerGroupTargetAssignmentMetadata/Member the target
 * assignment, ConsumerGroupCurrentMemberAssignment a member's epoch and partitions. {@link Replay} rebuilds the
 * groups from them.
 */
public final class ConsumerGroupRecords {
    private static final Set<Short> TYPES = Set.of(CoordinatorRecordType.CONSUMER_GROUP_METADATA.id(),
            CoordinatorRecordType.CONSUMER_GROUP_PARTITION_METADATA.id(), CoordinatorRecordType.CONSUMER_GROUP_MEMBER_METADATA.id(),
            CoordinatorRecordType.CONSUMER_GROUP_TARGET_ASSIGNMENT_METADATA.id(),
            CoordinatorRecordType.CONSUMER_GROUP_TARGET_ASSIGNMENT_MEMBER.id(),
            CoordinatorRecordType.CONSUMER_GROUP_CURRENT_MEMBER_ASSIGNMENT.id(),
            CoordinatorRecordType.CONSUMER_GROUP_REGULAR_EXPRESSION.id());

    private final long timestampMs;
    private final String groupId;
    private final List<SimpleRecord> records = new ArrayList<>();

    /** Collects the records of one change of {@code groupId}. */
    public ConsumerGroupRecords(String groupId, long timestampMs) {
        this.groupId = groupId;
        this.timestampMs = timestampMs;
    }

    public List<SimpleRecord> records() {
        return List.copyOf(records);
    }

    public boolean isEmpty() {
        return records.isEmpty();
    }

    /** Adds a record of another kind, in order: the classic group's, when the group changes type. */
    public ConsumerGroupRecords append(SimpleRecord record) {
        records.add(record);
        return this;
    }

    /** True if the key (not consumed) is one of a consumer group record. */
    public static boolean isConsumerGroupKey(ByteBuffer key) {
        return key.remaining() >= 2 && TYPES.contains(key.getShort(key.position()));
    }

    private void add(ApiMessage key, ApiMessage value) {
        records.add(new SimpleRecord(timestampMs, MessageUtil.toCoordinatorTypePrefixedBytes(key),
                value == null ? null : MessageUtil.toVersionPrefixedBytes(value.highestSupportedVersion(), value)));
    }

    public ConsumerGroupRecords groupEpoch(ConsumerMembership group) {
        add(new ConsumerGroupMetadataKey().setGroupId(groupId),
                new ConsumerGroupMetadataValue().setEpoch(group.groupEpoch()).setMetadataHash(group.subscriptionHash()));
        return this;
    }

    public ConsumerGroupRecords memberSubscription(ConsumerMember member) {
        add(new ConsumerGroupMemberMetadataKey().setGroupId(groupId).setMemberId(member.memberId()),
                new ConsumerGroupMemberMetadataValue().setInstanceId(member.instanceId()).setRackId(member.rackId())
                        .setClientId(member.clientId()).setClientHost(member.clientHost())
                        .setSubscribedTopicNames(member.subscribedTopicNames()).setSubscribedTopicRegex(member.subscribedTopicRegex())
                        .setRebalanceTimeoutMs(member.rebalanceTimeoutMs()).setServerAssignor(member.serverAssignor())
                        .setClassicMemberMetadata(member.classicMetadata()));
        return this;
    }

    /** The whole target assignment of the group's current target epoch. */
    public ConsumerGroupRecords targetAssignment(ConsumerMembership group) {
        group.members().forEach(member -> memberTarget(member.memberId(), group.targetOf(member.memberId())));
        add(new ConsumerGroupTargetAssignmentMetadataKey().setGroupId(groupId),
                new ConsumerGroupTargetAssignmentMetadataValue().setAssignmentEpoch(group.targetAssignmentEpoch())
                        .setAssignmentTimestamp(timestampMs));
        return this;
    }

    /** One member's target. */
    public ConsumerGroupRecords memberTarget(String memberId, Map<Uuid, Set<Integer>> target) {
        List<ConsumerGroupTargetAssignmentMemberValue.TopicPartition> topics = new ArrayList<>();
        target.forEach((topic, partitions) -> topics.add(new ConsumerGroupTargetAssignmentMemberValue.TopicPartition()
                .setTopicId(topic).setPartitions(new ArrayList<>(new TreeSet<>(partitions)))));
        add(new ConsumerGroupTargetAssignmentMemberKey().setGroupId(groupId).setMemberId(memberId),
                new ConsumerGroupTargetAssignmentMemberValue().setTopicPartitions(topics));
        return this;
    }

    public ConsumerGroupRecords currentAssignment(ConsumerMember member) {
        add(new ConsumerGroupCurrentMemberAssignmentKey().setGroupId(groupId).setMemberId(member.memberId()),
                new ConsumerGroupCurrentMemberAssignmentValue().setMemberEpoch(member.memberEpoch())
                        .setPreviousMemberEpoch(member.previousMemberEpoch()).setState(member.state().value())
                        .setAssignedPartitions(topicPartitions(member, member.assigned()))
                        .setPartitionsPendingRevocation(topicPartitions(member, member.pendingRevocation())));
        return this;
    }

    private static List<ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions> topicPartitions(ConsumerMember member,
                                                                                              Map<Uuid, Set<Integer>> partitions) {
        List<ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions> topics = new ArrayList<>();
        partitions.forEach((topic, ids) -> {
            List<Integer> sorted = new ArrayList<>(new TreeSet<>(ids));
            topics.add(new ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions().setTopicId(topic).setPartitions(sorted)
                    .setAssignmentEpochs(sorted.stream().map(partition -> member.assignmentEpoch(topic, partition)).toList()));
        });
        return topics;
    }

    /** A member is gone: its assignment, target and subscription records are deleted, in Kafka's order. */
    public ConsumerGroupRecords memberRemoved(String memberId) {
        add(new ConsumerGroupCurrentMemberAssignmentKey().setGroupId(groupId).setMemberId(memberId), null);
        add(new ConsumerGroupTargetAssignmentMemberKey().setGroupId(groupId).setMemberId(memberId), null);
        add(new ConsumerGroupMemberMetadataKey().setGroupId(groupId).setMemberId(memberId), null);
        return this;
    }

    /** The whole group as it stands, as when a classic group becomes this consumer group (in Kafka's order). */
    public ConsumerGroupRecords wholeGroup(ConsumerMembership group) {
        group.members().forEach(this::memberSubscription);
        groupEpoch(group);
        targetAssignment(group);
        group.members().forEach(this::currentAssignment);
        return this;
    }

    /** The consumer group is gone, with its members (in Kafka's order), as when it becomes a classic group or is deleted. */
    public ConsumerGroupRecords groupRemoved(ConsumerMembership group) {
        group.members().forEach(member -> add(new ConsumerGroupCurrentMemberAssignmentKey().setGroupId(groupId)
                .setMemberId(member.memberId()), null));
        group.members().forEach(member -> add(new ConsumerGroupTargetAssignmentMemberKey().setGroupId(groupId)
                .setMemberId(member.memberId()), null));
        add(new ConsumerGroupTargetAssignmentMetadataKey().setGroupId(groupId), null);
        group.members().forEach(member -> add(new ConsumerGroupMemberMetadataKey().setGroupId(groupId)
                .setMemberId(member.memberId()), null));
        add(new ConsumerGroupMetadataKey().setGroupId(groupId), null);
        return this;
    }

    /**
     * Rebuilds consumer groups from their records in log order. Members are given no session yet; the
     * coordinator starts their sessions when it takes the groups over.
     */
    public static final class Replay {
        private final Map<String, ConsumerMembership> groups = new HashMap<>();
        private final Map<String, Map<String, ConsumerMember>> members = new HashMap<>();

        /** The groups the records left, by group id. */
        public Map<String, ConsumerMembership> groups() {
            return Map.copyOf(groups);
        }

        /** @param value the value, or null for a tombstone */
        public void apply(ByteBuffer key, ByteBuffer value) {
            ByteBufferAccessor keyReader = new ByteBufferAccessor(key.duplicate());
            CoordinatorRecordType type = CoordinatorRecordType.fromId(keyReader.readShort());
            ByteBufferAccessor valueReader = null;
            short valueVersion = 0;
            if (value != null) {
                valueReader = new ByteBufferAccessor(value.duplicate());
                valueVersion = valueReader.readShort();
            }
            switch (type) {
                case CONSUMER_GROUP_METADATA -> {
                    String groupId = new ConsumerGroupMetadataKey(keyReader, (short) 0).groupId();
                    if (valueReader == null) {
                        groups.remove(groupId);
                        members.remove(groupId);
                    } else {
                        ConsumerGroupMetadataValue metadata = new ConsumerGroupMetadataValue(valueReader, valueVersion);
                        ConsumerMembership group = group(groupId);
                        group.restore(metadata.epoch(), group.targetAssignmentEpoch(), metadata.metadataHash());
                    }
                }
                case CONSUMER_GROUP_TARGET_ASSIGNMENT_METADATA -> {
                    String groupId = new ConsumerGroupTargetAssignmentMetadataKey(keyReader, (short) 0).groupId();
                    if (valueReader != null) {
                        ConsumerMembership group = group(groupId);
                        int epoch = new ConsumerGroupTargetAssignmentMetadataValue(valueReader, valueVersion).assignmentEpoch();
                        group.restore(group.groupEpoch(), epoch, group.subscriptionHash());
                    }
                }
                case CONSUMER_GROUP_MEMBER_METADATA -> memberMetadata(new ConsumerGroupMemberMetadataKey(keyReader, (short) 0),
                        valueReader == null ? null : new ConsumerGroupMemberMetadataValue(valueReader, valueVersion));
                case CONSUMER_GROUP_TARGET_ASSIGNMENT_MEMBER -> {
                    ConsumerGroupTargetAssignmentMemberKey memberKey = new ConsumerGroupTargetAssignmentMemberKey(keyReader, (short) 0);
                    if (valueReader != null) {
                        Map<Uuid, Set<Integer>> partitions = new HashMap<>();
                        new ConsumerGroupTargetAssignmentMemberValue(valueReader, valueVersion).topicPartitions()
                                .forEach(t -> partitions.put(t.topicId(), new HashSet<>(t.partitions())));
                        group(memberKey.groupId()).target(memberKey.memberId(), partitions);
                    }
                }
                case CONSUMER_GROUP_CURRENT_MEMBER_ASSIGNMENT -> {
                    ConsumerGroupCurrentMemberAssignmentKey memberKey = new ConsumerGroupCurrentMemberAssignmentKey(keyReader, (short) 0);
                    if (valueReader != null) {
                        ConsumerGroupCurrentMemberAssignmentValue current = new ConsumerGroupCurrentMemberAssignmentValue(valueReader, valueVersion);
                        ConsumerMember member = member(memberKey.groupId(), memberKey.memberId());
                        group(memberKey.groupId()).apply(member, new Reconciliation.Next(current.memberEpoch(),
                                current.previousMemberEpoch(), MemberState.of(current.state()),
                                partitions(current.assignedPartitions()), partitions(current.partitionsPendingRevocation())));
                        member.restoreAssignmentEpochs(assignmentEpochs(current));
                    }
                }
                default -> { } // partition metadata and regex records: recomputed from the topics, not replayed
            }
        }

        private void memberMetadata(ConsumerGroupMemberMetadataKey key, ConsumerGroupMemberMetadataValue value) {
            if (value == null) {
                ConsumerMember removed = members.getOrDefault(key.groupId(), Map.of()).get(key.memberId());
                if (removed != null) {
                    members.get(key.groupId()).remove(key.memberId());
                    group(key.groupId()).remove(removed);
                }
                return;
            }
            ConsumerMember member = members.computeIfAbsent(key.groupId(), g -> new HashMap<>()).get(key.memberId());
            if (member == null) {
                member = new ConsumerMember(key.memberId());
                member.instanceId(value.instanceId());
                members.get(key.groupId()).put(key.memberId(), member);
                group(key.groupId()).add(member);
            }
            member.rackId(value.rackId());
            member.client(value.clientId(), value.clientHost());
            member.subscribedTopicNames(value.subscribedTopicNames());
            member.subscribedTopicRegex(value.subscribedTopicRegex());
            member.rebalanceTimeoutMs(value.rebalanceTimeoutMs());
            member.serverAssignor(value.serverAssignor());
            member.classicMetadata(value.classicMemberMetadata());
        }

        private ConsumerMember member(String groupId, String memberId) {
            Map<String, ConsumerMember> byId = members.computeIfAbsent(groupId, g -> new HashMap<>());
            ConsumerMember member = byId.get(memberId);
            if (member == null) {
                member = new ConsumerMember(memberId);
                byId.put(memberId, member);
                group(groupId).add(member);
            }
            return member;
        }

        private ConsumerMembership group(String groupId) {
            return groups.computeIfAbsent(groupId, g -> new ConsumerMembership());
        }

        private static Map<Uuid, Map<Integer, Integer>> assignmentEpochs(ConsumerGroupCurrentMemberAssignmentValue current) {
            Map<Uuid, Map<Integer, Integer>> epochs = new HashMap<>();
            for (List<ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions> topics
                    : List.of(current.assignedPartitions(), current.partitionsPendingRevocation())) {
                for (ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions topic : topics) {
                    for (int i = 0; i < topic.partitions().size() && i < topic.assignmentEpochs().size(); i++) {
                        epochs.computeIfAbsent(topic.topicId(), t -> new HashMap<>()).put(topic.partitions().get(i),
                                topic.assignmentEpochs().get(i));
                    }
                }
            }
            return epochs;
        }

        private static Map<Uuid, Set<Integer>> partitions(List<ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions> topics) {
            Map<Uuid, Set<Integer>> partitions = new HashMap<>();
            topics.forEach(t -> partitions.put(t.topicId(), new HashSet<>(t.partitions())));
            return partitions;
        }
    }
}

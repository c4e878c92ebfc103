package io.tributary.broker.group.consumer;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.GroupSpec;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.assignor.MemberSubscription;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import org.apache.kafka.common.Uuid;

/**
 * Computes a group's target assignment with a server-side assignor (Kafka's own uniform and range
 * assignors through their public interface): each member's subscribed topic ids, the previous
 * target (so the assignors stay sticky) and the partition counts go in, a partition set per member
 * comes out.
 */
public final class TargetAssignor {
    private TargetAssignor() {
    }

    /** What the assignor is told of one member. */
    public record Subscriber(String memberId, String instanceId, String rackId, Set<Uuid> topicIds) {
    }

    public static Map<String, Map<Uuid, Set<Integer>>> assign(ConsumerGroupPartitionAssignor assignor, List<Subscriber> members,
                                                              Map<String, Map<Uuid, Set<Integer>>> previousTarget,
                                                              Map<Uuid, Integer> partitionCounts) {
        Map<String, Map<Uuid, Set<Integer>>> result = new HashMap<>();
        if (members.isEmpty()) {
            return result;
        }
        Map<String, Map<Uuid, Set<Integer>>> previous = new HashMap<>();
        members.forEach(m -> previous.put(m.memberId(), keepExisting(previousTarget.getOrDefault(m.memberId(), Map.of()),
                m.topicIds(), partitionCounts)));
        GroupAssignment assignment = assignor.assign(new Spec(members, previous), new Describer(partitionCounts));
        for (Subscriber member : members) {
            MemberAssignment assigned = assignment.members().get(member.memberId());
            result.put(member.memberId(), assigned == null ? Map.of() : Partitions.copy(assigned.partitions()));
        }
        return result;
    }

    /** The previous target minus partitions of topics no longer subscribed to or no longer there. */
    private static Map<Uuid, Set<Integer>> keepExisting(Map<Uuid, Set<Integer>> previous, Set<Uuid> subscribed,
                                                        Map<Uuid, Integer> partitionCounts) {
        Map<Uuid, Set<Integer>> kept = new HashMap<>();
        previous.forEach((topic, partitions) -> {
            int count = partitionCounts.getOrDefault(topic, 0);
            if (subscribed.contains(topic)) {
                Set<Integer> valid = new HashSet<>();
                partitions.stream().filter(p -> p < count).forEach(valid::add);
                kept.put(topic, valid);
            }
        });
        return Partitions.copy(kept);
    }

    private record Subscription(Optional<String> rackId, Optional<String> instanceId, Set<Uuid> subscribedTopicIds)
            implements MemberSubscription {
    }

    private record Assigned(Map<Uuid, Set<Integer>> partitions) implements MemberAssignment {
    }

    private static final class Spec implements GroupSpec {
        private final Map<String, Subscriber> members = new java.util.LinkedHashMap<>();
        private final Map<String, Map<Uuid, Set<Integer>>> previous;
        private final Map<Uuid, Map<Integer, String>> owners = new HashMap<>();
        private final SubscriptionType type;

        Spec(List<Subscriber> subscribers, Map<String, Map<Uuid, Set<Integer>>> previous) {
            subscribers.forEach(s -> members.put(s.memberId(), s));
            this.previous = previous;
            previous.forEach((member, partitions) -> partitions.forEach((topic, ids) ->
                    ids.forEach(id -> owners.computeIfAbsent(topic, t -> new HashMap<>()).put(id, member))));
            long distinct = subscribers.stream().map(Subscriber::topicIds).distinct().count();
            this.type = distinct <= 1 ? SubscriptionType.HOMOGENEOUS : SubscriptionType.HETEROGENEOUS;
        }

        @Override
        public Collection<String> memberIds() {
            return members.keySet();
        }

        @Override
        public SubscriptionType subscriptionType() {
            return type;
        }

        @Override
        public boolean isPartitionAssigned(Uuid topicId, int partition) {
            return owners.getOrDefault(topicId, Map.of()).containsKey(partition);
        }

        @Override
        public boolean isPartitionAssignable(Uuid topicId, int partition) {
            return true;
        }

        @Override
        public MemberSubscription memberSubscription(String memberId) {
            Subscriber member = members.get(memberId);
            return new Subscription(Optional.ofNullable(member.rackId()), Optional.ofNullable(member.instanceId()),
                    member.topicIds());
        }

        @Override
        public MemberAssignment memberAssignment(String memberId) {
            // The assignors copy a previous assignment only if it is a java.util.Collections unmodifiable (or empty) map.
            return new Assigned(Collections.unmodifiableMap(new HashMap<>(previous.getOrDefault(memberId, Map.of()))));
        }
    }

    private record Describer(Map<Uuid, Integer> partitionCounts) implements SubscribedTopicDescriber {
        @Override
        public int numPartitions(Uuid topicId) {
            return partitionCounts.getOrDefault(topicId, -1);
        }

        @Override
        public Set<String> racksForPartition(Uuid topicId, int partition) {
            return Set.of();
        }
    }
}

package io.tributary.broker.group.consumer;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.GroupMaxSizeReachedException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor;

/**
 * The consumer-protocol (KIP-848) side of a group: its members, the group epoch (bumped by every
 * change of membership, subscriptions or subscribed topics' partitions), the target assignment and
 * its epoch, and who owns each partition now. Holds state and the rules over it; the coordinator
 * decides when they run. Mutable; the group's monitor guards it.
 */
public final class ConsumerMembership {
    private int groupEpoch;
    private int targetAssignmentEpoch;
    private long subscriptionHash;
    private final Map<String, ConsumerMember> members = new LinkedHashMap<>();
    private final Map<String, String> staticMembers = new HashMap<>();
    private final Map<String, Map<Uuid, Set<Integer>>> target = new HashMap<>();
    private final Map<Uuid, Map<Integer, String>> owners = new HashMap<>();
    private final Map<String, Pattern> patterns = new HashMap<>();
    /** The ids of the subscribed topics by name, as of the last {@link #refreshSubscriptionHash}. */
    private Map<String, Uuid> subscribedTopicIds = Map.of();

    public int groupEpoch() {
        return groupEpoch;
    }

    public int targetAssignmentEpoch() {
        return targetAssignmentEpoch;
    }

    /** A hash of the subscribed topics' ids and partition counts, as stored in the ConsumerGroupMetadata record. */
    public long subscriptionHash() {
        return subscriptionHash;
    }

    /** Restores the epochs a stored record names. */
    public void restore(int epoch, int assignmentEpoch, long hash) {
        this.groupEpoch = epoch;
        this.targetAssignmentEpoch = assignmentEpoch;
        this.subscriptionHash = hash;
    }

    public void bumpGroupEpoch() {
        groupEpoch++;
    }

    public boolean isEmpty() {
        return members.isEmpty();
    }

    public Collection<ConsumerMember> members() {
        return List.copyOf(members.values());
    }

    public Optional<ConsumerMember> member(String memberId) {
        return Optional.ofNullable(members.get(memberId));
    }

    public Optional<ConsumerMember> staticMember(String instanceId) {
        return Optional.ofNullable(staticMembers.get(instanceId)).map(members::get);
    }

    /**
     * Kafka's rule of {@code group.consumer.max.size} for a member's heartbeat or JoinGroup: a group with {@code maxSize}
     * members or more takes only its members, and a static member coming back for its instance id.
     *
     * @throws GroupMaxSizeReachedException if {@code memberId} (with {@code instanceId}, or null) may not be one
     */
    public void throwIfFull(String memberId, String instanceId, int maxSize) {
        if (instanceId != null && staticMembers.containsKey(instanceId)) {
            return;
        }
        if (members.size() >= maxSize && !members.containsKey(memberId)) {
            throw new GroupMaxSizeReachedException("The consumer group has reached its maximum capacity of " + maxSize + " members.");
        }
    }

    public void add(ConsumerMember member) {
        members.put(member.memberId(), member);
        if (member.isStatic()) {
            staticMembers.put(member.instanceId(), member.memberId());
        }
        own(member);
    }

    /** Drops a member: its partitions are free and it has no target any more. */
    public void remove(ConsumerMember member) {
        members.remove(member.memberId());
        if (member.isStatic()) {
            staticMembers.remove(member.instanceId(), member.memberId());
        }
        disown(member.memberId());
        target.remove(member.memberId());
    }

    /** A static member's new incarnation takes over the old one's place, partitions and target. */
    public void replace(ConsumerMember old, ConsumerMember successor) {
        Map<Uuid, Set<Integer>> targetOfOld = target.get(old.memberId());
        remove(old);
        add(successor);
        if (targetOfOld != null) {
            target.put(successor.memberId(), targetOfOld);
        }
    }

    public Map<Uuid, Set<Integer>> targetOf(String memberId) {
        return target.getOrDefault(memberId, Map.of());
    }

    /** Sets one member's target (replaying a stored record). */
    public void target(String memberId, Map<Uuid, Set<Integer>> partitions) {
        target.put(memberId, Partitions.copy(partitions));
    }

    public Reconciliation.Owners owners() {
        return (topic, partition) -> owners.getOrDefault(topic, Map.of()).get(partition);
    }

    /**
     * A static member leaves for a while (epoch -2), as Kafka records it: it keeps the partitions it was to keep, and
     * those it was still to revoke are free for their new owners.
     */
    public void leaveTemporarily(ConsumerMember member) {
        disown(member.memberId());
        member.leaveTemporarily();
        own(member);
    }

    /** Applies a member's next state; what it owns changes accordingly. */
    public void apply(ConsumerMember member, Reconciliation.Next next) {
        disown(member.memberId());
        member.update(next.memberEpoch(), next.previousMemberEpoch(), next.state(), next.assigned(), next.pendingRevocation());
        own(member);
    }

    private void own(ConsumerMember member) {
        for (Map<Uuid, Set<Integer>> partitions : List.of(member.assigned(), member.pendingRevocation())) {
            partitions.forEach((topic, ids) -> ids.forEach(id ->
                    owners.computeIfAbsent(topic, t -> new HashMap<>()).put(id, member.memberId())));
        }
    }

    private void disown(String memberId) {
        owners.values().forEach(byPartition -> byPartition.values().removeIf(memberId::equals));
        owners.values().removeIf(Map::isEmpty);
    }

    // ---- members that speak the classic protocol

    /**
     * Whether a classic member offering {@code protocolNames} of {@code protocolType} may join (Kafka's rule): the
     * consumer protocol type, and one of its protocols supported by every classic member already in the group.
     */
    public boolean supportsClassicProtocols(String protocolType, Collection<String> protocolNames) {
        if (!ConsumerProtocol.PROTOCOL_TYPE.equals(protocolType) || protocolNames.isEmpty()) {
            return false;
        }
        List<ConsumerMember> classic = members.values().stream().filter(ConsumerMember::usesClassicProtocol).toList();
        return protocolNames.stream().anyMatch(name -> classic.stream().allMatch(member ->
                member.classicMetadata().supportedProtocols().stream().anyMatch(protocol -> protocol.name().equals(name))));
    }

    /**
     * True if a member waiting for partitions (unreleased partitions) still waits: some partition of its target it does
     * not have yet is owned by another member. A classic member is told to rejoin once none is.
     */
    public boolean waitsForUnreleasedPartitions(ConsumerMember member) {
        if (member.state() != MemberState.UNRELEASED_PARTITIONS) {
            return false;
        }
        Reconciliation.Owners owners = owners();
        for (Map.Entry<Uuid, Set<Integer>> topic : Partitions.difference(targetOf(member.memberId()), member.assigned()).entrySet()) {
            for (int partition : topic.getValue()) {
                String owner = owners.ownerOf(topic.getKey(), partition);
                if (owner != null && !owner.equals(member.memberId())) {
                    return true;
                }
            }
        }
        return false;
    }

    // ---- subscriptions

    /** @throws PatternSyntaxException if the regex is not valid RE2J */
    public static void validateRegex(String regex) {
        Pattern.compile(regex);
    }

    /** The topics a member subscribes to that exist: those it names and those its regex matches (internal topics never). */
    public Map<String, SubscribableTopics.Topic> subscribedTopics(ConsumerMember member, SubscribableTopics topics) {
        Map<String, SubscribableTopics.Topic> subscribed = new TreeMap<>();
        for (String name : member.subscribedTopicNames()) {
            topics.byName(name).ifPresent(topic -> subscribed.put(name, topic));
        }
        if (member.subscribedTopicRegex() != null) {
            Pattern pattern = patterns.computeIfAbsent(member.subscribedTopicRegex(), Pattern::compile);
            for (SubscribableTopics.Topic topic : topics.all()) {
                if (!Topic.isInternal(topic.name()) && pattern.matches(topic.name())) {
                    subscribed.put(topic.name(), topic);
                }
            }
        }
        return subscribed;
    }

    private Map<String, SubscribableTopics.Topic> allSubscribedTopics(SubscribableTopics topics) {
        Map<String, SubscribableTopics.Topic> all = new TreeMap<>();
        members.values().forEach(member -> all.putAll(subscribedTopics(member, topics)));
        return all;
    }

    /**
     * Recomputes the hash of the subscribed topics; true if it changed (a topic appeared, went away
     * or got partitions), which calls for a new group epoch.
     */
    public boolean refreshSubscriptionHash(SubscribableTopics topics) {
        long hash = 1125899906842597L;
        Map<String, SubscribableTopics.Topic> subscribed = allSubscribedTopics(topics);
        Map<String, Uuid> ids = new HashMap<>();
        subscribed.values().forEach(topic -> ids.put(topic.name(), topic.id()));
        subscribedTopicIds = Map.copyOf(ids);
        for (SubscribableTopics.Topic topic : subscribed.values()) {
            hash = 31 * hash + topic.name().hashCode();
            hash = 31 * hash + topic.id().hashCode();
            hash = 31 * hash + topic.partitionCount();
        }
        boolean changed = hash != subscriptionHash;
        subscriptionHash = hash;
        return changed;
    }

    /** The id of a topic some member subscribes to. */
    public Optional<Uuid> subscribedTopicId(String name) {
        return Optional.ofNullable(subscribedTopicIds.get(name));
    }

    // ---- target assignment

    /** The assignor most members ask for, or the default one. */
    public ConsumerGroupPartitionAssignor assignor(ConsumerGroupSettings settings) {
        Map<String, Integer> votes = new HashMap<>();
        for (ConsumerMember member : members.values()) {
            if (member.serverAssignor() != null) {
                votes.merge(member.serverAssignor(), 1, Integer::sum);
            }
        }
        return votes.entrySet().stream().max(Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                .flatMap(vote -> settings.assignor(vote.getKey())).orElse(settings.defaultAssignor());
    }

    /** Computes the target assignment of the current group epoch. */
    public void computeTargetAssignment(ConsumerGroupSettings settings, SubscribableTopics topics) {
        List<TargetAssignor.Subscriber> subscribers = new ArrayList<>();
        Map<Uuid, Integer> partitionCounts = new HashMap<>();
        for (ConsumerMember member : members.values()) {
            Set<Uuid> ids = new HashSet<>();
            for (SubscribableTopics.Topic topic : subscribedTopics(member, topics).values()) {
                ids.add(topic.id());
                partitionCounts.put(topic.id(), topic.partitionCount());
            }
            subscribers.add(new TargetAssignor.Subscriber(member.memberId(), member.instanceId(), member.rackId(), ids));
        }
        Map<String, Map<Uuid, Set<Integer>>> next = TargetAssignor.assign(assignor(settings), subscribers, target, partitionCounts);
        target.clear();
        target.putAll(next);
        targetAssignmentEpoch = groupEpoch;
    }

    public ConsumerGroupState state() {
        if (members.isEmpty()) {
            return ConsumerGroupState.EMPTY;
        }
        if (groupEpoch > targetAssignmentEpoch) {
            return ConsumerGroupState.ASSIGNING;
        }
        for (ConsumerMember member : members.values()) {
            if (member.memberEpoch() != targetAssignmentEpoch || member.state() != MemberState.STABLE) {
                return ConsumerGroupState.RECONCILING;
            }
        }
        return ConsumerGroupState.STABLE;
    }
}

package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import io.tributary.broker.group.consumer.ConsumerMembership;
import org.apache.kafka.common.TopicPartition;

/**
 * One group's state: members, generation, selected protocol, leader, committed offsets and the
 * deadline of a rebalance in progress. Holds no protocol logic ({@link GroupCoordinator} does);
 * every access holds the group's monitor.
 */
final class Group {
    private final String groupId;
    private GroupState state = GroupState.EMPTY;
    private long stateChangedMs;
    private int generationId;
    private String protocolType;
    private String protocolName;
    private String leaderId;
    private final Map<String, Member> members = new LinkedHashMap<>();
    private final Map<String, String> staticMembers = new HashMap<>();
    /** Members told MEMBER_ID_REQUIRED, with the time their id lapses if they do not join with it. */
    private final Map<String, Long> pendingMembers = new HashMap<>();
    private final Map<TopicPartition, CommittedOffset> offsets = new HashMap<>();
    private final Map<TopicPartition, Long> appliedCommits = new HashMap<>();
    /** The sequence of each partition's latest commit appended: above its applied one while in flight (or if it failed). */
    private final Map<TopicPartition, Long> appendedCommits = new HashMap<>();
    private long commitSequence;
    private int commitsInFlight;
    private final JoinDeadline joinDeadline = new JoinDeadline();
    /** The members of a consumer (KIP-848) group; null while the group is a classic one. */
    private ConsumerMembership consumer;

    Group(String groupId, long nowMs) {
        this.groupId = groupId;
        this.stateChangedMs = nowMs;
    }

    String groupId() {
        return groupId;
    }

    GroupState state() {
        return state;
    }

    boolean is(GroupState candidate) {
        return state == candidate;
    }

    void transitionTo(GroupState next, long nowMs) {
        state = next;
        stateChangedMs = nowMs;
    }

    /** When the group entered its current state. */
    long stateChangedMs() {
        return stateChangedMs;
    }

    int generationId() {
        return generationId;
    }

    /** Starts the next generation with {@code protocol} (null when the group is left empty). */
    void nextGeneration(String protocol) {
        generationId++;
        protocolName = protocol;
    }

    /** Takes the generation, protocol and leader of a stored group (its members added first). */
    void restore(int generation, String protocol, String leader) {
        generation(generation, protocol);
        leaderId = leader;
    }

    /** Takes over the generation and protocol of a consumer group that becomes this classic group. */
    void generation(int generation, String protocol) {
        generationId = generation;
        protocolName = protocol;
    }

    String protocolType() {
        return protocolType;
    }

    void protocolType(String type) {
        this.protocolType = type;
    }

    String protocolName() {
        return protocolName;
    }

    String leaderId() {
        return leaderId;
    }

    boolean isLeader(String memberId) {
        return memberId.equals(leaderId);
    }

    JoinDeadline joinDeadline() {
        return joinDeadline;
    }

    // ---- the group's type

    /** The consumer-protocol membership, or null if the group is a classic group. */
    ConsumerMembership consumer() {
        return consumer;
    }

    /** Makes the group a consumer group ({@code membership} not null) or a classic group again (null). */
    void consumer(ConsumerMembership membership) {
        this.consumer = membership;
    }

    /** True if the group is a consumer group with members (classic members join it as members of the consumer group then). */
    boolean hasConsumerMembers() {
        return consumer != null && !consumer.isEmpty();
    }

    /**
     * Forgets the classic group (members, pending member ids, leader, protocol type and protocol, generation, a join
     * phase in progress), as when the group becomes a consumer group: should it turn classic again, it starts as Kafka's
     * new classic group does, Empty at generation 0. Whoever waits for a JoinGroup or SyncGroup answer must have been
     * answered.
     */
    void forgetClassicGroup(long nowMs) {
        members.clear();
        staticMembers.clear();
        pendingMembers.clear();
        leaderId = null;
        protocolType = null;
        protocolName = null;
        generationId = 0;
        joinDeadline.clear();
        transitionTo(GroupState.EMPTY, nowMs);
    }

    // ---- members

    boolean hasMembers() {
        return !members.isEmpty();
    }

    Optional<Member> member(String memberId) {
        return Optional.ofNullable(members.get(memberId));
    }

    Collection<Member> members() {
        return List.copyOf(members.values());
    }

    void add(Member member) {
        if (members.isEmpty()) {
            leaderId = member.memberId();
        }
        members.put(member.memberId(), member);
        if (member.isStatic()) {
            staticMembers.put(member.groupInstanceId(), member.memberId());
        }
        pendingMembers.remove(member.memberId());
    }

    void remove(Member member) {
        members.remove(member.memberId());
        if (member.isStatic()) {
            staticMembers.remove(member.groupInstanceId(), member.memberId());
        }
        if (member.memberId().equals(leaderId)) {
            leaderId = members.isEmpty() ? null : members.keySet().iterator().next();
        }
    }

    /** Removes the member or pending member id {@code memberId}, if there is one. */
    void remove(String memberId) {
        member(memberId).ifPresent(this::remove);
        pendingMembers.remove(memberId);
    }

    /** How many members wait for their JoinGroup answer. */
    int awaitingJoinCount() {
        return (int) members.values().stream().filter(Member::isAwaitingJoin).count();
    }

    /** The member id a static instance currently joins under. */
    Optional<String> staticMemberId(String groupInstanceId) {
        return Optional.ofNullable(staticMembers.get(groupInstanceId));
    }

    /** A static member rejoined with a new member id: the old id is fenced from now on. */
    void replaceStaticMember(Member member, String newMemberId) {
        String oldId = member.memberId();
        members.remove(oldId);
        member.replaceMemberId(newMemberId);
        members.put(newMemberId, member);
        staticMembers.put(member.groupInstanceId(), newMemberId);
        if (oldId.equals(leaderId)) {
            leaderId = newMemberId;
        }
    }

    void addPending(String memberId, long deadlineMs) {
        pendingMembers.put(memberId, deadlineMs);
    }

    boolean isPending(String memberId) {
        return pendingMembers.containsKey(memberId);
    }

    boolean removePending(String memberId) {
        return pendingMembers.remove(memberId) != null;
    }

    /** Drops pending member ids whose deadline passed; true if any was dropped. */
    boolean expirePending(long nowMs) {
        return pendingMembers.values().removeIf(deadline -> nowMs >= deadline);
    }

    /**
     * The earliest moment something of this group is due: a member's session, a pending member id, or the end of the
     * join phase; {@link Long#MAX_VALUE} if none.
     */
    long nextDeadlineMs() {
        long next = pendingMembers.values().stream().mapToLong(Long::longValue).min().orElse(Long.MAX_VALUE);
        for (Member member : members.values()) {
            next = Math.min(next, member.sessionDeadlineMs());
        }
        return is(GroupState.PREPARING_REBALANCE) ? Math.min(next, joinDeadline.deadlineMs) : next;
    }

    boolean hasPendingMembers() {
        return !pendingMembers.isEmpty();
    }

    boolean allMembersJoined() {
        return pendingMembers.isEmpty() && members.values().stream().allMatch(Member::isAwaitingJoin);
    }

    /** The longest rebalance timeout of the members: how long a rebalance waits for all of them. */
    int rebalanceTimeoutMs() {
        return members.values().stream().mapToInt(Member::rebalanceTimeoutMs).max().orElse(0);
    }

    /** Protocols every member supports, in the first member's order of preference. */
    List<String> commonProtocols() {
        List<String> common = new ArrayList<>();
        Member first = members.values().stream().findFirst().orElse(null);
        if (first == null) {
            return common;
        }
        for (Protocol protocol : first.protocols()) {
            if (members.values().stream().allMatch(m -> m.supports(protocol.name()))) {
                common.add(protocol.name());
            }
        }
        return common;
    }

    /** True if a member offering {@code protocols} of {@code type} may join. */
    boolean accepts(String type, List<Protocol> protocols) {
        if (members.isEmpty()) {
            return !type.isEmpty() && !protocols.isEmpty();
        }
        if (!type.equals(protocolType)) {
            return false;
        }
        Set<String> offered = protocols.stream().map(Protocol::name).collect(Collectors.toSet());
        return commonProtocols().stream().anyMatch(offered::contains);
    }

    /**
     * Each member votes for the first protocol of its list that all members support; the most votes
     * win, ties going to the first member's preference.
     */
    String selectProtocol() {
        List<String> candidates = commonProtocols();
        Map<String, Integer> votes = new HashMap<>();
        for (Member member : members.values()) {
            member.protocols().stream().map(Protocol::name).filter(candidates::contains).findFirst()
                    .ifPresent(vote -> votes.merge(vote, 1, Integer::sum));
        }
        String winner = candidates.get(0);
        for (String candidate : candidates) {
            if (votes.getOrDefault(candidate, 0) > votes.getOrDefault(winner, 0)) {
                winner = candidate;
            }
        }
        return winner;
    }

    // ---- offsets

    Map<TopicPartition, CommittedOffset> offsets() {
        return Map.copyOf(offsets);
    }

    Optional<CommittedOffset> offset(TopicPartition partition) {
        return Optional.ofNullable(offsets.get(partition));
    }

    void putOffset(TopicPartition partition, CommittedOffset offset) {
        offsets.put(partition, offset);
    }

    /**
     * The sequence number of a commit about to be written; commits are written in this order. Their
     * writes may be acknowledged out of order, so {@link #applyCommit} keeps the latest written.
     */
    long nextCommitSequence() {
        return ++commitSequence;
    }

    /** The commit {@code sequence} of {@code partitions} was appended to the log: it is in flight until {@link #commitEnded}. */
    void commitAppended(Collection<TopicPartition> partitions, long sequence) {
        partitions.forEach(partition -> appendedCommits.put(partition, sequence));
        commitsInFlight++;
    }

    /** An appended commit was replicated, or failed. */
    void commitEnded() {
        commitsInFlight--;
    }

    /** Whether a commit was appended and is not replicated (nor failed) yet: the group is not empty of offsets then. */
    boolean hasCommitsInFlight() {
        return commitsInFlight > 0;
    }

    /** Applies an acknowledged commit, unless a later write of the same partition (commit or deletion) already was. */
    void applyCommit(TopicPartition partition, CommittedOffset offset, long sequence) {
        if (sequence > appliedCommits.getOrDefault(partition, 0L)) {
            offsets.put(partition, offset);
            appliedCommits.put(partition, sequence);
        }
    }

    /** Removes a committed offset; a commit written before but acknowledged after this does not bring it back. */
    void removeOffset(TopicPartition partition) {
        offsets.remove(partition);
        appliedCommits.put(partition, commitSequence);
    }

    boolean hasOffsets() {
        return !offsets.isEmpty();
    }

    /**
     * The partitions the group's log may hold an offset of: the committed ones, and those of commits appended but not
     * applied (in flight, or failed after they were appended). Deleting the group tombstones them all, so that none
     * brings it back.
     */
    Set<TopicPartition> storedPartitions() {
        Set<TopicPartition> stored = new HashSet<>(offsets.keySet());
        appendedCommits.forEach((partition, sequence) -> {
            if (sequence > appliedCommits.getOrDefault(partition, 0L)) {
                stored.add(partition);
            }
        });
        return stored;
    }

    /**
     * When a rebalance stops waiting for members. The first rebalance of an empty group waits
     * {@code group.initial.rebalance.delay.ms} and again as long as new members keep arriving, up
     * to the rebalance timeout; later rebalances wait up to the rebalance timeout for known members.
     */
    static final class JoinDeadline {
        private long deadlineMs = Long.MAX_VALUE;
        private boolean initialDelay;
        private long initialDelayMs;
        private long remainingMs;
        private boolean newMemberArrived;

        void startInitialDelay(long nowMs, long delayMs, long rebalanceTimeoutMs) {
            long first = Math.min(delayMs, rebalanceTimeoutMs);
            initialDelay = true;
            initialDelayMs = delayMs;
            remainingMs = Math.max(0, rebalanceTimeoutMs - first);
            newMemberArrived = false;
            deadlineMs = nowMs + first;
        }

        void startRebalance(long nowMs, long rebalanceTimeoutMs) {
            initialDelay = false;
            deadlineMs = nowMs + rebalanceTimeoutMs;
        }

        void memberArrived() {
            newMemberArrived = true;
        }

        long deadlineMs() {
            return deadlineMs;
        }

        /** During the initial delay the rebalance never completes early, even if all members are in. */
        boolean inInitialDelay() {
            return initialDelay;
        }

        /**
         * At or after the deadline: true if the rebalance should complete now; false if the initial
         * delay was extended because members kept arriving.
         */
        boolean expired(long nowMs) {
            if (nowMs < deadlineMs) {
                return false;
            }
            if (initialDelay && newMemberArrived && remainingMs > 0) {
                long extension = Math.min(initialDelayMs, remainingMs);
                remainingMs -= extension;
                newMemberArrived = false;
                deadlineMs = nowMs + extension;
                return false;
            }
            return true;
        }

        void clear() {
            initialDelay = false;
            deadlineMs = Long.MAX_VALUE;
        }
    }
}

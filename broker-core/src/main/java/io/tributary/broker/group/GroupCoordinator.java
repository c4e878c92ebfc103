package io.tributary.broker.group;

import io.tributary.broker.coordinator.CoordinatedPartitions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;
import io.tributary.broker.group.LeaveResult.MemberLeft;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The classic group membership protocol: JoinGroup, SyncGroup, Heartbeat, LeaveGroup, plus the
 * session and rebalance deadlines: every deadline it sets is announced to {@code deadlineSet}, which
 * runs {@link #checkDeadlines()} (against the injected clock) when the earliest comes due. Assignment is the leader's job; the coordinator only collects memberships,
 * picks the protocol and hands out what the leader assigned ({@link ClassicRebalance} runs the rebalances).
 * Classic members of a consumer group (KIP-848's online migration) are served by {@link ClassicMembersOfConsumerGroups}.
 * The group's record in {@code __consumer_offsets} holds each generation's members and assignment (written by
 * {@link ClassicRebalance}), so a new coordinator {@link #load loads} the group and its members go on.
 *
 * <p>Only groups of the offsets partitions this broker coordinates are served; the others get
 * NOT_COORDINATOR (or COORDINATOR_LOAD_IN_PROGRESS), thrown as the kafka-clients exception.
 *
 * <p>Thread-safe: each operation holds the monitor of its group, and completes the JoinGroup and
 * SyncGroup futures it answers while holding it.
 */
public final class GroupCoordinator {
    private static final Logger log = LoggerFactory.getLogger(GroupCoordinator.class);

    private final GroupConfig config;
    private final GroupRegistry groups;
    private final CoordinatedPartitions partitions;
    private final Time time;
    private final LongConsumer deadlineSet;
    private final ClassicRebalance rebalance;
    private final ClassicMembersOfConsumerGroups classicMembers;

    /**
     * @param deadlineSet    told of every deadline set, so that {@link #checkDeadlines()} runs by then
     * @param consumerGroups the consumer protocol's coordinator, which serves the classic members of consumer groups
     */
    GroupCoordinator(GroupConfig config, GroupRegistry groups, CoordinatedPartitions partitions, Time time, LongConsumer deadlineSet,
                     ClassicRebalance rebalance, ConsumerGroupCoordinator consumerGroups) {
        this.config = config;
        this.groups = groups;
        this.partitions = partitions;
        this.time = time;
        this.deadlineSet = deadlineSet;
        this.rebalance = rebalance;
        this.classicMembers = new ClassicMembersOfConsumerGroups(consumerGroups, time);
    }

    // ---- JoinGroup

    public CompletableFuture<JoinResult> join(JoinRequest request) {
        if (request.groupId() == null || request.groupId().isEmpty()) {
            return done(JoinResult.error(Errors.INVALID_GROUP_ID, request.memberId()));
        }
        partitions.require(request.groupId());
        if (request.sessionTimeoutMs() < config.minSessionTimeoutMs() || request.sessionTimeoutMs() > config.maxSessionTimeoutMs()) {
            return done(JoinResult.error(Errors.INVALID_SESSION_TIMEOUT, request.memberId()));
        }
        boolean newMember = request.memberId().isEmpty();
        Optional<Group> found = newMember
                ? Optional.of(groups.getOrCreate(request.groupId(), time.milliseconds()))
                : groups.get(request.groupId());
        if (found.isEmpty()) {
            return done(JoinResult.error(Errors.UNKNOWN_MEMBER_ID, request.memberId()));
        }
        Group group = found.get();
        synchronized (group) {
            if (group.is(GroupState.DEAD)) {
                return done(JoinResult.error(Errors.COORDINATOR_NOT_AVAILABLE, request.memberId()));
            }
            if (group.hasConsumerMembers()) {
                return classicMembers.join(group, request);
            }
            if (group.consumer() != null) {
                Errors converted = classicMembers.convertEmpty(group);
                if (converted != Errors.NONE) {
                    return done(JoinResult.error(converted, request.memberId()));
                }
            }
            if (!rebalance.acceptsJoiningMember(group, request.memberId())) {
                return refuseOverMaxSize(group, request.memberId());
            }
            if (!group.accepts(request.protocolType(), request.protocols())) {
                return done(JoinResult.error(Errors.INCONSISTENT_GROUP_PROTOCOL, request.memberId()));
            }
            return newMember ? joinNew(group, request) : joinKnown(group, request);
        }
    }

    /**
     * The group is at {@code group.max.size}: the member is refused (GROUP_MAX_SIZE_REACHED, no member id) and, if it
     * was a member or had a member id handed out, removed, as Kafka does (a rebalance in progress goes on without it);
     * a refused static member keeps its instance id here, where Kafka also drops it.
     */
    private CompletableFuture<JoinResult> refuseOverMaxSize(Group group, String memberId) {
        log.info("group {}: member {} is refused: the group has {} member(s), as many as group.max.size allows", group.groupId(),
                memberId.isEmpty() ? "(new)" : memberId, group.members().size());
        group.remove(memberId); // never one that waits for an answer: those are accepted
        rebalance.maybeCompleteJoin(group);
        return done(JoinResult.error(Errors.GROUP_MAX_SIZE_REACHED, ""));
    }

    private CompletableFuture<JoinResult> joinNew(Group group, JoinRequest request) {
        String memberId = request.clientId() + "-" + UUID.randomUUID();
        if (request.groupInstanceId() != null) {
            Optional<String> existing = group.staticMemberId(request.groupInstanceId());
            if (existing.isPresent()) {
                return rejoinStatic(group, group.member(existing.get()).orElseThrow(), request, memberId);
            }
        } else if (request.requireKnownMemberId()) {
            long deadlineMs = time.milliseconds() + request.sessionTimeoutMs();
            group.addPending(memberId, deadlineMs);
            deadlineSet.accept(deadlineMs);
            return done(JoinResult.error(Errors.MEMBER_ID_REQUIRED, memberId));
        }
        return addAndRebalance(group, request, memberId);
    }

    /**
     * A static member restarted: it takes over its old membership under a new member id (fencing
     * the old one). In a Stable group a follower with unchanged protocols keeps its assignment
     * without a rebalance, answered once the group's record names its new member id (if that write
     * fails, the replacement is undone and it gets the error, as in Kafka); otherwise the group rebalances.
     */
    private CompletableFuture<JoinResult> rejoinStatic(Group group, Member member, JoinRequest request, String newMemberId) {
        member.completeJoin(JoinResult.error(Errors.FENCED_INSTANCE_ID, member.memberId()));
        member.completeSync(SyncResult.error(Errors.FENCED_INSTANCE_ID));
        boolean sameProtocols = member.sameProtocols(request.protocols());
        String oldMemberId = member.memberId();
        int oldSessionTimeoutMs = member.sessionTimeoutMs();
        int oldRebalanceTimeoutMs = member.rebalanceTimeoutMs();
        group.replaceStaticMember(member, newMemberId);
        member.update(request);
        rebalance.touch(member);
        if (!group.is(GroupState.STABLE) || !sameProtocols || group.isLeader(newMemberId)) {
            return updateAndAwait(group, member, request);
        }
        int generation = group.generationId();
        return rebalance.store(group).thenApply(error -> {
            synchronized (group) {
                if (error == Errors.NONE) {
                    return ClassicRebalance.currentGeneration(group, member);
                }
                if (group.generationId() == generation && group.member(newMemberId).isPresent()) {
                    group.replaceStaticMember(member, oldMemberId);
                    member.update(oldSessionTimeoutMs, oldRebalanceTimeoutMs, member.protocols());
                }
                return JoinResult.error(error, "");
            }
        });
    }

    private CompletableFuture<JoinResult> addAndRebalance(Group group, JoinRequest request, String memberId) {
        Member member = new Member(memberId, request);
        if (!group.hasMembers()) {
            group.protocolType(request.protocolType());
        }
        CompletableFuture<JoinResult> joined = new CompletableFuture<>();
        member.awaitJoin(joined);
        rebalance.touch(member);
        group.add(member);
        group.joinDeadline().memberArrived();
        rebalance.membershipChanged(group);
        return joined;
    }

    private CompletableFuture<JoinResult> joinKnown(Group group, JoinRequest request) {
        String memberId = request.memberId();
        if (group.isPending(memberId)) {
            return addAndRebalance(group, request, memberId);
        }
        Optional<Member> found = group.member(memberId);
        if (found.isEmpty()) {
            boolean fenced = request.groupInstanceId() != null && group.staticMemberId(request.groupInstanceId()).isPresent();
            return done(JoinResult.error(fenced ? Errors.FENCED_INSTANCE_ID : Errors.UNKNOWN_MEMBER_ID, memberId));
        }
        Member member = found.get();
        if (isFenced(group, member, request.groupInstanceId())) {
            return done(JoinResult.error(Errors.FENCED_INSTANCE_ID, memberId));
        }
        rebalance.touch(member);
        return switch (group.state()) {
            case PREPARING_REBALANCE -> updateAndAwait(group, member, request);
            case COMPLETING_REBALANCE -> member.sameProtocols(request.protocols())
                    ? done(ClassicRebalance.currentGeneration(group, member)) // its JoinGroup answer was lost: repeat it
                    : updateAndAwait(group, member, request);
            case STABLE -> group.isLeader(memberId) || !member.sameProtocols(request.protocols())
                    ? updateAndAwait(group, member, request) // the leader rejoins to force a new assignment
                    : done(ClassicRebalance.currentGeneration(group, member));
            case EMPTY, DEAD -> done(JoinResult.error(Errors.UNKNOWN_MEMBER_ID, memberId));
        };
    }

    private CompletableFuture<JoinResult> updateAndAwait(Group group, Member member, JoinRequest request) {
        member.update(request);
        member.completeJoin(JoinResult.error(Errors.REBALANCE_IN_PROGRESS, member.memberId())); // a duplicate join
        CompletableFuture<JoinResult> joined = new CompletableFuture<>();
        member.awaitJoin(joined);
        rebalance.membershipChanged(group);
        return joined;
    }

    private static boolean isFenced(Group group, Member member, String groupInstanceId) {
        return groupInstanceId != null
                && !group.staticMemberId(groupInstanceId).map(member.memberId()::equals).orElse(false);
    }

    private void removeMember(Group group, Member member) {
        member.completeJoin(JoinResult.error(Errors.UNKNOWN_MEMBER_ID, member.memberId()));
        member.completeSync(SyncResult.error(Errors.UNKNOWN_MEMBER_ID));
        group.remove(member);
        if (!group.is(GroupState.EMPTY)) {
            rebalance.membershipChanged(group);
        }
    }

    // ---- SyncGroup

    public CompletableFuture<SyncResult> sync(SyncRequest request) {
        partitions.require(request.groupId());
        Optional<Group> found = groups.get(request.groupId());
        if (found.isEmpty()) {
            return done(SyncResult.error(Errors.UNKNOWN_MEMBER_ID));
        }
        Group group = found.get();
        synchronized (group) {
            if (group.consumer() != null && !group.is(GroupState.DEAD)) {
                return classicMembers.sync(group, request);
            }
            Errors error = memberError(group, request.memberId(), request.groupInstanceId());
            if (error != Errors.NONE) {
                return done(SyncResult.error(error));
            }
            if (request.generationId() != group.generationId()) {
                return done(SyncResult.error(Errors.ILLEGAL_GENERATION));
            }
            if (request.protocolType() != null && !request.protocolType().equals(group.protocolType())
                    || request.protocolName() != null && !request.protocolName().equals(group.protocolName())) {
                return done(SyncResult.error(Errors.INCONSISTENT_GROUP_PROTOCOL));
            }
            Member member = group.member(request.memberId()).orElseThrow();
            rebalance.touch(member);
            return switch (group.state()) {
                case PREPARING_REBALANCE -> done(SyncResult.error(Errors.REBALANCE_IN_PROGRESS));
                case STABLE -> done(ClassicRebalance.assignmentOf(group, member));
                case COMPLETING_REBALANCE -> awaitAssignment(group, member, request);
                case EMPTY, DEAD -> done(SyncResult.error(Errors.UNKNOWN_MEMBER_ID));
            };
        }
    }

    private CompletableFuture<SyncResult> awaitAssignment(Group group, Member member, SyncRequest request) {
        CompletableFuture<SyncResult> synced = new CompletableFuture<>();
        member.awaitSync(synced);
        if (group.isLeader(member.memberId())) {
            rebalance.completeRebalance(group, request.assignments());
        }
        return synced;
    }

    /** NONE if the member belongs to the group (and is not a fenced static instance). */
    private static Errors memberError(Group group, String memberId, String groupInstanceId) {
        if (group.is(GroupState.DEAD)) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        Optional<Member> member = group.member(memberId);
        if (member.isEmpty()) {
            boolean fenced = groupInstanceId != null && group.staticMemberId(groupInstanceId).isPresent();
            return fenced ? Errors.FENCED_INSTANCE_ID : Errors.UNKNOWN_MEMBER_ID;
        }
        return isFenced(group, member.get(), groupInstanceId) ? Errors.FENCED_INSTANCE_ID : Errors.NONE;
    }

    // ---- Heartbeat and LeaveGroup

    public Errors heartbeat(String groupId, String memberId, String groupInstanceId, int generationId) {
        partitions.require(groupId);
        Optional<Group> found = groups.get(groupId);
        if (found.isEmpty()) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        Group group = found.get();
        synchronized (group) {
            if (group.consumer() != null && !group.is(GroupState.DEAD)) {
                return classicMembers.heartbeat(group, memberId, groupInstanceId, generationId);
            }
            Errors error = memberError(group, memberId, groupInstanceId);
            if (error != Errors.NONE) {
                return error;
            }
            if (generationId != group.generationId()) {
                return Errors.ILLEGAL_GENERATION; // checked first, as Kafka does, and no new session
            }
            rebalance.touch(group.member(memberId).orElseThrow());
            return group.is(GroupState.PREPARING_REBALANCE) ? Errors.REBALANCE_IN_PROGRESS : Errors.NONE;
        }
    }

    /** Checks whether a member may commit offsets in {@code generationId}, and counts it as a heartbeat. */
    Errors checkCommitter(Group group, String memberId, String groupInstanceId, int generationId) {
        if (group.consumer() != null) {
            return ConsumerGroupCoordinator.commitError(group.consumer(), memberId, generationId);
        }
        if (generationId < 0 && group.is(GroupState.EMPTY)) {
            return Errors.NONE; // a consumer without group management (assign/seek) or an admin tool
        }
        Errors error = memberError(group, memberId, groupInstanceId);
        if (error != Errors.NONE) {
            return error;
        }
        if (generationId != group.generationId()) {
            return Errors.ILLEGAL_GENERATION;
        }
        if (group.is(GroupState.COMPLETING_REBALANCE)) {
            return Errors.REBALANCE_IN_PROGRESS; // a current member that has not got its assignment yet
        }
        rebalance.touch(group.member(memberId).orElseThrow());
        return Errors.NONE;
    }

    /** Completes at once for a classic group; for a consumer group, once the members' removal is replicated. */
    public CompletableFuture<LeaveResult> leave(String groupId, List<MemberIdentity> leaving) {
        partitions.require(groupId);
        Optional<Group> found = groups.get(groupId);
        List<MemberLeft> results = new ArrayList<>();
        if (found.isEmpty()) {
            leaving.forEach(m -> results.add(new MemberLeft(m.memberId(), m.groupInstanceId(), Errors.UNKNOWN_MEMBER_ID)));
            return done(new LeaveResult(results));
        }
        Group group = found.get();
        synchronized (group) {
            if (group.consumer() != null && !group.is(GroupState.DEAD)) {
                return classicMembers.leave(group, leaving);
            }
            for (MemberIdentity identity : leaving) {
                results.add(new MemberLeft(identity.memberId(), identity.groupInstanceId(), leave(group, identity)));
            }
        }
        return done(new LeaveResult(results));
    }

    private Errors leave(Group group, MemberIdentity identity) {
        if (group.is(GroupState.DEAD)) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        String memberId = identity.memberId();
        if (identity.groupInstanceId() != null) {
            Optional<String> current = group.staticMemberId(identity.groupInstanceId());
            if (current.isEmpty()) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            if (memberId != null && !memberId.isEmpty() && !memberId.equals(current.get())) {
                return Errors.FENCED_INSTANCE_ID;
            }
            memberId = current.get();
        } else if (group.removePending(memberId)) {
            rebalance.maybeCompleteJoin(group);
            return Errors.NONE;
        }
        Optional<Member> member = group.member(memberId);
        if (member.isEmpty()) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        log.info("group {}: member {} left", group.groupId(), memberId);
        removeMember(group, member.get());
        return Errors.NONE;
    }

    // ---- deadlines

    /**
     * Removes members whose session ran out and member ids handed out but never used, and ends
     * join phases whose deadline passed. @return the earliest deadline still ahead, {@link Long#MAX_VALUE} if none
     */
    public long checkDeadlines() {
        long now = time.milliseconds();
        long next = Long.MAX_VALUE;
        for (Group group : groups.all()) {
            synchronized (group) {
                if (group.is(GroupState.DEAD)) {
                    continue;
                }
                boolean pendingExpired = group.expirePending(now);
                for (Member member : group.members()) {
                    if (member.sessionExpired(now)) {
                        log.info("group {}: member {} missed its session timeout and is removed", group.groupId(),
                                member.memberId());
                        removeMember(group, member);
                    }
                }
                if (group.is(GroupState.PREPARING_REBALANCE)) {
                    if (group.joinDeadline().expired(now)) {
                        rebalance.completeJoin(group);
                    } else if (pendingExpired) {
                        rebalance.maybeCompleteJoin(group);
                    }
                }
                next = Math.min(next, group.nextDeadlineMs());
            }
        }
        return next;
    }

    /**
     * Drops the groups of an offsets partition this broker no longer coordinates (or is about to
     * load again): members waiting for a JoinGroup or SyncGroup answer get NOT_COORDINATOR and
     * look the new coordinator up.
     */
    void unload(int offsetsPartition) {
        long now = time.milliseconds();
        int count = 0;
        for (Group group : groups.all()) {
            if (partitions.partitionOf(group.groupId()) != offsetsPartition) {
                continue;
            }
            synchronized (group) {
                for (Member member : group.members()) {
                    member.completeJoin(JoinResult.error(Errors.NOT_COORDINATOR, member.memberId()));
                    member.completeSync(SyncResult.error(Errors.NOT_COORDINATOR));
                }
                group.transitionTo(GroupState.DEAD, now);
                groups.remove(group);
                count++;
            }
        }
        if (count > 0) {
            log.info("unloaded {} group(s) of {}-{}", count, OffsetStore.TOPIC, offsetsPartition);
        }
    }

    /** A classic group {@code stored} in an offsets partition this coordinator has started to lead. */
    void load(String groupId, GroupMetadataValue stored) {
        Group group = groups.getOrCreate(groupId, time.milliseconds());
        synchronized (group) {
            rebalance.load(group, stored);
        }
    }

    // ---- ListGroups and DescribeGroups

    public List<GroupListing> listGroups() {
        List<GroupListing> listings = new ArrayList<>();
        for (Group group : groups.all()) {
            synchronized (group) {
                if (group.is(GroupState.DEAD)) {
                    continue;
                }
                if (group.consumer() != null) {
                    listings.add(new GroupListing(group.groupId(), ConsumerProtocol.PROTOCOL_TYPE,
                            group.consumer().state().wireName(), GroupListing.CONSUMER));
                } else {
                    listings.add(new GroupListing(group.groupId(), group.protocolType() == null ? "" : group.protocolType(),
                            group.state().wireName(), GroupListing.CLASSIC));
                }
            }
        }
        listings.sort(Comparator.comparing(GroupListing::groupId));
        return listings;
    }

    /** The classic group, or empty if this coordinator does not know it or it is a consumer group. */
    public Optional<GroupDescription> describe(String groupId) {
        partitions.require(groupId);
        Optional<Group> found = groups.get(groupId);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Group group = found.get();
        synchronized (group) {
            if (group.is(GroupState.DEAD) || group.consumer() != null) {
                return Optional.empty();
            }
            boolean stable = group.is(GroupState.STABLE);
            List<GroupDescription.DescribedMember> members = new ArrayList<>();
            for (Member member : group.members()) {
                members.add(new GroupDescription.DescribedMember(member.memberId(), member.groupInstanceId(),
                        member.clientId(), member.clientHost(),
                        stable ? member.metadata(group.protocolName()) : new byte[0],
                        stable ? member.assignment() : new byte[0]));
            }
            return Optional.of(new GroupDescription(group.groupId(), group.state(),
                    group.protocolType() == null ? "" : group.protocolType(),
                    group.protocolName() == null ? "" : group.protocolName(), members));
        }
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }
}

package io.tributary.broker.group;

import io.tributary.broker.coordinator.CoordinatedPartitions;
import io.tributary.broker.group.consumer.ConsumerGroupRecords;
import io.tributary.broker.group.consumer.ConsumerGroupSettings;
import io.tributary.broker.group.consumer.ConsumerGroupState;
import io.tributary.broker.group.consumer.ConsumerHeartbeat;
import io.tributary.broker.group.consumer.ConsumerMember;
import io.tributary.broker.group.consumer.ConsumerMembership;
import io.tributary.broker.group.consumer.HeartbeatResult;
import io.tributary.broker.group.consumer.MemberState;
import io.tributary.broker.group.consumer.Partitions;
import io.tributary.broker.group.consumer.Reconciliation;
import io.tributary.broker.group.consumer.SubscribableTopics;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongConsumer;
import com.google.re2j.PatternSyntaxException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupMaxSizeReachedException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer group protocol of KIP-848 (ConsumerGroupHeartbeat), beside the classic one in the
 * same groups and the same {@code __consumer_offsets}: members join with epoch 0, heartbeat with
 * their epoch, and leave with -1 (static members for a while with -2); any but a joining member's request to a group
 * that does not exist or is classic is GROUP_ID_NOT_FOUND, as Kafka answers it. Every change of membership,
 * subscription or subscribed partitions bumps the group epoch; the server-side assignor then
 * computes the target assignment of that epoch at once, and each member moves to it one heartbeat
 * at a time ({@link Reconciliation}). Sessions end after {@code group.consumer.session.timeout.ms}
 * without a heartbeat, and a member that does not revoke within its rebalance timeout is fenced
 * ({@link #checkDeadlines()}).
 *
 * <p>A group is either classic or consumer. An empty classic group becomes a consumer group on a
 * member's first heartbeat, and an empty consumer group a classic group on a JoinGroup. Non-empty groups change type
 * as {@code group.consumer.migration.policy} allows ({@link GroupConversion}): a consumer-protocol member upgrades a
 * classic group of consumers (else GROUP_ID_NOT_FOUND, as Kafka answers), whose members then take part through the
 * classic APIs ({@link ClassicMembersOfConsumerGroups}, over this coordinator's rules); when the last
 * consumer-protocol member leaves, or a classic member takes over its static instance id, the classic members become
 * a classic group again.
 *
 * <p>Every change is written as Kafka's records to the group's offsets partition, in order, so the next coordinator
 * rebuilds the group; as in Kafka, a heartbeat is answered only once what it wrote is replicated (acks=-1: on every
 * ISR member, refused below min.insync.replicas), and one that wrote nothing only once the group's earlier writes
 * are, so no member is ever told a state that a failover could lose. A write that fails answers COORDINATOR_NOT_AVAILABLE
 * (NOT_COORDINATOR if leadership moved); one refused before anything was appended (too few replicas in sync) also
 * puts the group back to what its log holds. Deadlines (sessions, revocations) are acted on when they come due: each
 * one set asks for a wake-up by then ({@code wakeBy}, {@link io.tributary.broker.coordinator.DeadlineWakeups}), and
 * {@link #checkDeadlines()} returns the next. Thread-safe: each operation holds its group's monitor.
 */
public final class ConsumerGroupCoordinator {
    private static final Logger log = LoggerFactory.getLogger(ConsumerGroupCoordinator.class);

    private final ConsumerGroupSettings settings;
    private final Function<String, Map<String, String>> groupConfigs;
    private final GroupRegistry groups;
    private final CoordinatedPartitions partitions;
    private final SubscribableTopics topics;
    private final OffsetStore store;
    private final Time time;
    private final LongConsumer wakeBy;
    private final GroupConversion conversion;
    private final ClassicRebalance classicRebalance;
    /** Each group's latest write not yet replicated: answers that wrote nothing wait for it. */
    private final Map<String, CompletableFuture<Errors>> pendingWrites = new ConcurrentHashMap<>();

    /**
     * @param groupConfigs each group's own configs (GROUP config resources), which may set its timeouts
     * @param store        where each group's records are written, and read back after a refused write
     * @param wakeBy       asks for {@link #checkDeadlines()} to run by the given time (ms on {@code time})
     * @param rebalance    the classic rebalances, which a downgraded group's members go through; it also loads a classic group a
     *                     refused write reverts to
     */
    ConsumerGroupCoordinator(ConsumerGroupSettings settings, Function<String, Map<String, String>> groupConfigs, GroupRegistry groups,
                             CoordinatedPartitions partitions, SubscribableTopics topics, OffsetStore store, Time time,
                             LongConsumer wakeBy, ClassicRebalance rebalance) {
        this.settings = settings;
        this.groupConfigs = groupConfigs;
        this.groups = groups;
        this.partitions = partitions;
        this.topics = topics;
        this.store = store;
        this.time = time;
        this.wakeBy = wakeBy;
        this.conversion = new GroupConversion(settings, topics, rebalance, time);
        this.classicRebalance = rebalance;
    }

    /** Completes once the heartbeat's changes (and the group's earlier ones) are replicated, or failed. */
    public CompletableFuture<HeartbeatResult> heartbeat(ConsumerHeartbeat request) {
        Optional<HeartbeatResult> invalid = validate(request);
        if (invalid.isPresent()) {
            return CompletableFuture.completedFuture(invalid.get());
        }
        partitions.require(request.groupId());
        Group group = request.memberEpoch() == 0 ? groups.getOrCreate(request.groupId(), time.milliseconds())
                : groups.get(request.groupId()).orElse(null);
        if (group == null) { // Kafka's messages: a leave looks the group up, a heartbeat would create it at epoch 0
            return CompletableFuture.completedFuture(HeartbeatResult.error(Errors.GROUP_ID_NOT_FOUND,
                    (request.memberEpoch() < 0 ? "Group " : "Consumer group ") + request.groupId() + " not found."));
        }
        synchronized (group) {
            if (group.is(GroupState.DEAD)) {
                return CompletableFuture.completedFuture(HeartbeatResult.error(Errors.COORDINATOR_NOT_AVAILABLE, null));
            }
            ConsumerGroupRecords changes = new ConsumerGroupRecords(group.groupId(), time.milliseconds());
            ConsumerMembership membership = group.consumer();
            if (membership == null && request.memberEpoch() != 0) {
                return CompletableFuture.completedFuture(HeartbeatResult.error(Errors.GROUP_ID_NOT_FOUND,
                        "Group " + group.groupId() + " is not a consumer group."));
            }
            try {
                if (membership == null) {
                    membership = toConsumerGroup(group, request, changes);
                }
                if (request.memberEpoch() >= 0) {
                    throwIfFull(membership, request.memberId(), request.instanceId());
                }
            } catch (GroupIdNotFoundException | GroupMaxSizeReachedException e) {
                return CompletableFuture.completedFuture(HeartbeatResult.error(Errors.forException(e), e.getMessage()));
            }
            HeartbeatResult result = request.memberEpoch() < 0 ? leave(group, membership, request, changes)
                    : heartbeat(group, membership, request, changes);
            return write(group, changes).thenApply(error -> error == Errors.NONE || result.error() != Errors.NONE ? result
                    : HeartbeatResult.error(OffsetStore.clientError(error), null));
        }
    }

    /**
     * The classic {@code group} becomes a consumer group: an empty one at once, a non-empty one if it may be upgraded
     * and the member joining fits in (its members then get their sessions).
     *
     * @throws GroupIdNotFoundException     if it may not be upgraded
     * @throws GroupMaxSizeReachedException if its members are as many as {@code group.consumer.max.size}; it stays classic
     */
    private ConsumerMembership toConsumerGroup(Group group, ConsumerHeartbeat joining, ConsumerGroupRecords changes) {
        if (!group.hasMembers()) {
            log.info("group {} becomes a consumer group", group.groupId());
            if (group.generationId() > 0) {
                changes.append(ClassicGroupRecords.tombstone(group.groupId(), time.milliseconds())); // its classic record, as Kafka
            }
            group.forgetClassicGroup(time.milliseconds());
            ConsumerMembership membership = new ConsumerMembership();
            group.consumer(membership);
            return membership;
        }
        ConsumerMembership membership = conversion.upgrade(group, upgraded -> throwIfFull(upgraded, joining.memberId(),
                joining.instanceId()), changes);
        long now = time.milliseconds();
        membership.members().forEach(member -> startSession(group, member, now));
        return membership;
    }

    /**
     * Kafka's check of {@code group.consumer.max.size} for a member that heartbeats or joins (classic members too).
     *
     * @throws GroupMaxSizeReachedException if the group is full and {@code memberId} is not a member of it
     */
    void throwIfFull(ConsumerMembership membership, String memberId, String instanceId) {
        membership.throwIfFull(memberId, instanceId, settings.maxSize());
    }

    /** Kafka's checks of a heartbeat's fields: INVALID_REQUEST, UNSUPPORTED_ASSIGNOR, INVALID_REGULAR_EXPRESSION. */
    private Optional<HeartbeatResult> validate(ConsumerHeartbeat request) {
        if (request.groupId() == null || request.groupId().isEmpty()) {
            return invalid("GroupId can't be empty.");
        }
        if (request.memberId() == null || request.memberId().isEmpty()) {
            return invalid("MemberId can't be empty.");
        }
        if (request.memberEpoch() < ConsumerMember.LEFT_STATIC_EPOCH) {
            return invalid("MemberEpoch is invalid.");
        }
        if (request.memberEpoch() == ConsumerMember.LEFT_STATIC_EPOCH && request.instanceId() == null) {
            return invalid("InstanceId can't be null when MemberEpoch is -2.");
        }
        if (request.memberEpoch() == 0) {
            if (request.rebalanceTimeoutMs() == -1) {
                return invalid("RebalanceTimeoutMs must be provided in first request.");
            }
            if (request.owned() == null || !request.owned().isEmpty()) {
                return invalid("TopicPartitions must be empty when (re-)joining.");
            }
            if (request.subscribedTopicNames() == null && request.subscribedTopicRegex() == null) {
                return invalid("SubscribedTopicNames or SubscribedTopicRegex must be set in first request.");
            }
        }
        if (request.serverAssignor() != null && settings.assignor(request.serverAssignor()).isEmpty()) {
            return Optional.of(HeartbeatResult.error(Errors.UNSUPPORTED_ASSIGNOR,
                    "ServerAssignor " + request.serverAssignor() + " is not supported. Supported assignors: "
                            + settings.assignors().stream().map(a -> a.name()).toList() + "."));
        }
        if (request.subscribedTopicRegex() != null && !request.subscribedTopicRegex().isEmpty()) {
            try {
                ConsumerMembership.validateRegex(request.subscribedTopicRegex());
            } catch (PatternSyntaxException e) {
                return Optional.of(HeartbeatResult.error(Errors.INVALID_REGULAR_EXPRESSION,
                        "SubscribedTopicRegex `" + request.subscribedTopicRegex() + "` is not a valid regular expression: " + e.getMessage()));
            }
        }
        return Optional.empty();
    }

    private static Optional<HeartbeatResult> invalid(String message) {
        return Optional.of(HeartbeatResult.error(Errors.INVALID_REQUEST, message));
    }

    private HeartbeatResult heartbeat(Group group, ConsumerMembership membership, ConsumerHeartbeat request,
                                      ConsumerGroupRecords changes) {
        long now = time.milliseconds();
        boolean epochBump = false;
        ConsumerMember member;
        if (request.memberEpoch() == 0) {
            Optional<ConsumerMember> staticMember = Optional.ofNullable(request.instanceId()).flatMap(membership::staticMember);
            if (staticMember.isPresent() && !staticMember.get().memberId().equals(request.memberId())) {
                // as in Kafka, a classic member's instance id is taken over at once: it cannot say that it left
                if (!staticMember.get().hasLeftTemporarily() && !staticMember.get().usesClassicProtocol()) {
                    return HeartbeatResult.error(Errors.UNRELEASED_INSTANCE_ID, "Static member " + request.instanceId()
                            + " of group " + group.groupId() + " is still in use by member " + staticMember.get().memberId());
                }
                member = takeOver(membership, staticMember.get(), request.memberId(), changes);
            } else {
                membership.member(request.memberId()).ifPresent(earlier -> remove(group, membership, List.of(earlier), "rejoins", changes));
                member = new ConsumerMember(request.memberId());
                member.instanceId(request.instanceId());
                membership.add(member);
                epochBump = true;
                log.info("group {}: member {} joins{}", group.groupId(), member.memberId(),
                        member.isStatic() ? " as static member " + member.instanceId() : "");
            }
            member.client(request.clientId(), request.clientHost());
        } else {
            Optional<ConsumerMember> found = membership.member(request.memberId());
            if (found.isEmpty()) {
                return HeartbeatResult.error(Errors.UNKNOWN_MEMBER_ID, "Member " + request.memberId() + " is not a member of group "
                        + group.groupId() + ".");
            }
            member = found.get();
            if (!validEpoch(member, request)) {
                return HeartbeatResult.error(Errors.FENCED_MEMBER_EPOCH, "The consumer group member has an invalid epoch "
                        + request.memberEpoch() + "; its epoch is " + member.memberEpoch() + ".");
            }
        }
        // a heartbeat of the consumer protocol from a classic member (one that took over its instance id): it uses this protocol now
        boolean leavesClassicProtocol = member.usesClassicProtocol();
        member.useConsumerProtocol();
        startSession(group, member, now);
        boolean resubscribed = updateSubscription(member, request);
        if (resubscribed || epochBump || leavesClassicProtocol) {
            changes.memberSubscription(member);
        }
        epochBump |= resubscribed;
        Map<Uuid, Set<Integer>> before = member.assigned();
        moveTowardsTarget(membership, member, epochBump, request.owned(), changes);
        boolean sendAssignment = request.memberEpoch() == 0 || request.owned() != null || !before.equals(member.assigned());
        return new HeartbeatResult(Errors.NONE, null, member.memberId(), member.memberEpoch(),
                settings.heartbeatIntervalMs(groupConfigs.apply(group.groupId())),
                sendAssignment ? member.assigned() : null);
    }

    /**
     * A heartbeat may carry the member's epoch, or its previous one if the answer that moved it on was lost
     * and it owns no partition beyond what it owns now; anything else is fenced.
     */
    private static boolean validEpoch(ConsumerMember member, ConsumerHeartbeat request) {
        if (request.memberEpoch() == member.memberEpoch()) {
            return true;
        }
        return request.memberEpoch() < member.memberEpoch() && request.memberEpoch() == member.previousMemberEpoch()
                && request.owned() != null && Partitions.difference(request.owned(), member.assigned()).isEmpty();
    }

    /**
     * A restarted static member takes over its old incarnation's partitions and target without a rebalance, at member
     * epoch 0 as in Kafka (the caller reconciles it to the target epoch, unless the group turns classic first), with
     * Kafka's records: the old member's tombstones, then the new one's subscription, target and assignment.
     */
    ConsumerMember takeOver(ConsumerMembership membership, ConsumerMember old, String memberId, ConsumerGroupRecords changes) {
        ConsumerMember successor = old.copyAs(memberId);
        successor.update(0, 0, old.state(), old.assigned(), old.pendingRevocation());
        membership.replace(old, successor);
        changes.memberRemoved(old.memberId()).memberSubscription(successor).memberTarget(successor.memberId(),
                membership.targetOf(successor.memberId())).currentAssignment(successor);
        log.info("static member {}: member {} replaces {}", successor.instanceId(), memberId, old.memberId());
        return successor;
    }

    /** Applies the full fields of a heartbeat; true if the subscription changed (a new group epoch). */
    private static boolean updateSubscription(ConsumerMember member, ConsumerHeartbeat request) {
        boolean changed = false;
        if (request.subscribedTopicNames() != null && !member.subscribesTo(request.subscribedTopicNames())) {
            member.subscribedTopicNames(request.subscribedTopicNames());
            changed = true;
        }
        if (request.subscribedTopicRegex() != null) {
            String regex = request.subscribedTopicRegex().isEmpty() ? null : request.subscribedTopicRegex();
            if (!Objects.equals(regex, member.subscribedTopicRegex())) {
                member.subscribedTopicRegex(regex);
                changed = true;
            }
        }
        if (request.serverAssignor() != null && !request.serverAssignor().equals(member.serverAssignor())) {
            member.serverAssignor(request.serverAssignor());
            changed = true;
        }
        if (request.rackId() != null && !request.rackId().equals(member.rackId())) {
            member.rackId(request.rackId());
            changed = true;
        }
        if (request.rebalanceTimeoutMs() != -1 && request.rebalanceTimeoutMs() != member.rebalanceTimeoutMs()) {
            member.rebalanceTimeoutMs(request.rebalanceTimeoutMs());
        }
        return changed;
    }

    /**
     * After a member joined or changed ({@code bumpEpoch}): a new group epoch if that or the subscribed topics call for
     * one, its target assignment, and the member's next step towards its target.
     *
     * @param owned what the member says it owns, or null if it did not say
     */
    void moveTowardsTarget(ConsumerMembership membership, ConsumerMember member, boolean bumpEpoch, Map<Uuid, Set<Integer>> owned,
                           ConsumerGroupRecords changes) {
        if (membership.refreshSubscriptionHash(topics) || bumpEpoch) {
            membership.bumpGroupEpoch();
            changes.groupEpoch(membership);
        }
        maybeComputeTargetAssignment(membership, changes);
        reconcile(membership, member, owned, changes);
    }

    private void maybeComputeTargetAssignment(ConsumerMembership membership, ConsumerGroupRecords changes) {
        if (membership.groupEpoch() > membership.targetAssignmentEpoch()) {
            membership.computeTargetAssignment(settings, topics);
            changes.targetAssignment(membership);
        }
    }

    private void reconcile(ConsumerMembership membership, ConsumerMember member, Map<Uuid, Set<Integer>> owned,
                           ConsumerGroupRecords changes) {
        Reconciliation.Next next = Reconciliation.next(member, membership.targetAssignmentEpoch(),
                membership.targetOf(member.memberId()), owned, membership.owners());
        if (next.memberEpoch() == member.memberEpoch() && next.state() == member.state()
                && next.assigned().equals(member.assigned()) && next.pendingRevocation().equals(member.pendingRevocation())) {
            return;
        }
        // A classic member revokes by rejoining, which its rejoin deadline bounds.
        boolean startsRevoking = next.state() == MemberState.UNREVOKED_PARTITIONS && member.state() != MemberState.UNREVOKED_PARTITIONS
                && !member.usesClassicProtocol();
        membership.apply(member, next);
        if (startsRevoking) {
            member.revocationDeadline(time.milliseconds() + member.rebalanceTimeoutMs());
            wakeBy.accept(member.revocationDeadlineMs());
        } else if (next.state() != MemberState.UNREVOKED_PARTITIONS) {
            member.revocationDeadline(Long.MAX_VALUE);
        }
        changes.currentAssignment(member);
    }

    // ---- leaving and fencing

    private HeartbeatResult leave(Group group, ConsumerMembership membership, ConsumerHeartbeat request, ConsumerGroupRecords changes) {
        Optional<ConsumerMember> found = membership.member(request.memberId());
        if (request.instanceId() != null) {
            Optional<ConsumerMember> staticMember = membership.staticMember(request.instanceId());
            if (staticMember.isEmpty()) {
                return HeartbeatResult.error(Errors.UNKNOWN_MEMBER_ID, "Instance id " + request.instanceId() + " is unknown.");
            }
            if (!staticMember.get().memberId().equals(request.memberId())) {
                return HeartbeatResult.error(Errors.FENCED_INSTANCE_ID, "Static member " + request.instanceId()
                        + " is now member " + staticMember.get().memberId() + ".");
            }
            found = staticMember;
        }
        if (found.isEmpty()) {
            return HeartbeatResult.error(Errors.UNKNOWN_MEMBER_ID, "Member " + request.memberId() + " is not a member of group "
                    + group.groupId() + ".");
        }
        ConsumerMember member = found.get();
        if (request.memberEpoch() == ConsumerMember.LEFT_STATIC_EPOCH) {
            log.info("group {}: static member {} ({}) leaves for now and keeps its partitions", group.groupId(),
                    member.instanceId(), member.memberId());
            membership.leaveTemporarily(member);
            changes.currentAssignment(member);
        } else {
            removeMembers(group, membership, List.of(member), "leaves", changes);
        }
        return new HeartbeatResult(Errors.NONE, null, member.memberId(), request.memberEpoch(), 0, null);
    }

    /**
     * Members leave or are fenced. If only classic members remain and the policy allows it, the group becomes a
     * classic group of them; otherwise they are removed ({@link #remove}).
     */
    void removeMembers(Group group, ConsumerMembership membership, Collection<ConsumerMember> leaving, String why,
                       ConsumerGroupRecords changes) {
        if (conversion.mayDowngrade(membership, leaving)) {
            leaving.forEach(member -> log.info("group {}: member {} {}, the last to use the consumer protocol", group.groupId(),
                    member.memberId(), why));
            conversion.downgrade(group, membership, leaving, changes, true);
        } else {
            remove(group, membership, leaving, why, changes);
        }
    }

    /** False if the policy forbids all migration: then no classic member joins a consumer group with members. */
    boolean admitsClassicMembers(Group group) {
        return conversion.admitsClassicMembers(group.groupId());
    }

    /** True if a classic member that replaces the static {@code replaced} turns the group classic ({@link #downgradeOnReplacement}). */
    boolean mayDowngradeReplacing(ConsumerMembership membership, ConsumerMember replaced) {
        return conversion.mayDowngradeReplacing(membership, replaced);
    }

    /**
     * A classic member took over the static member that was the group's last to use the consumer protocol: the group
     * becomes a classic group of its members. As in Kafka, it rebalances only if the target assignment is stale (the
     * newcomer subscribes to other topics, or the subscribed topics changed: then the group epoch is bumped, and written,
     * first, and the classic generations go on from it); otherwise the newcomer first moves towards the target of the
     * member it replaced, and every member keeps its target as its classic assignment.
     *
     * @param owned what the newcomer says it owns
     */
    void downgradeOnReplacement(Group group, ConsumerMembership membership, ConsumerMember newcomer, boolean resubscribed,
                                Map<Uuid, Set<Integer>> owned, ConsumerGroupRecords changes) {
        if (membership.refreshSubscriptionHash(topics) || resubscribed) {
            membership.bumpGroupEpoch();
            changes.groupEpoch(membership);
        }
        boolean stale = membership.groupEpoch() > membership.targetAssignmentEpoch();
        if (!stale) {
            reconcile(membership, newcomer, owned, changes);
        }
        conversion.downgrade(group, membership, List.of(), changes, stale);
    }

    /** Removes members: their partitions are free, and the others get them with the next group epoch. */
    private void remove(Group group, ConsumerMembership membership, Collection<ConsumerMember> leaving, String why,
                        ConsumerGroupRecords changes) {
        for (ConsumerMember member : leaving) {
            log.info("group {}: member {} {} and is removed", group.groupId(), member.memberId(), why);
            membership.remove(member);
            changes.memberRemoved(member.memberId());
        }
        membership.refreshSubscriptionHash(topics);
        membership.bumpGroupEpoch();
        changes.groupEpoch(membership);
        maybeComputeTargetAssignment(membership, changes);
    }

    /**
     * Gives {@code member} a session from {@code now} (the group's consumer session timeout, or a classic member's own
     * from its JoinGroup), and makes sure its end is checked.
     */
    void startSession(Group group, ConsumerMember member, long now) {
        member.sessionDeadline(now + sessionTimeoutMs(group, member));
        wakeBy.accept(member.sessionDeadlineMs());
    }

    private int sessionTimeoutMs(Group group, ConsumerMember member) {
        return member.usesClassicProtocol() ? member.classicMetadata().sessionTimeoutMs()
                : settings.sessionTimeoutMs(groupConfigs.apply(group.groupId()));
    }

    /** A classic member was told to rejoin: it must within its rebalance timeout (a deadline already set stays). */
    void awaitRejoin(ConsumerMember member, long now) {
        member.rejoinBy(now + member.rebalanceTimeoutMs());
        wakeBy.accept(member.nextDeadlineMs());
    }

    /** A classic member was answered its JoinGroup: it must send its SyncGroup within its rebalance timeout. */
    void awaitSync(ConsumerMember member, long now) {
        member.rejoined(now + member.rebalanceTimeoutMs());
        wakeBy.accept(member.nextDeadlineMs());
    }

    /**
     * The empty consumer {@code group} becomes a classic group (a JoinGroup came): its records' tombstones are appended,
     * unawaited (the classic group's writes follow them, and its members are answered once those are replicated).
     *
     * @return NONE, or the error to answer if nothing could be appended: the group stays the consumer group its log holds
     */
    Errors dropEmpty(Group group) {
        try {
            append(group, new ConsumerGroupRecords(group.groupId(), time.milliseconds()).groupRemoved(group.consumer()));
        } catch (RuntimeException e) {
            log.warn("could not delete the records of empty consumer group {}: {}; it stays a consumer group", group.groupId(),
                    e.toString());
            return OffsetStore.clientError(Errors.forException(e));
        }
        log.info("empty consumer group {} becomes a classic group", group.groupId());
        group.consumer(null);
        return Errors.NONE;
    }

    /** Groups were loaded from the log: their members' sessions start at the next check, now. */
    void loaded() {
        wakeBy.accept(time.milliseconds());
    }

    /**
     * Fences members whose session ran out or who did not revoke within their rebalance timeout, and starts a
     * new group epoch when subscribed topics changed (created, deleted, more partitions) with no heartbeat
     * noticing. Members loaded from the log get their first session here.
     *
     * @return the earliest deadline still ahead, or {@link Long#MAX_VALUE} if none
     */
    public long checkDeadlines() {
        long now = time.milliseconds();
        long next = Long.MAX_VALUE;
        for (Group group : groups.all()) {
            synchronized (group) {
                ConsumerMembership membership = group.consumer();
                if (membership == null || group.is(GroupState.DEAD)) {
                    continue;
                }
                ConsumerGroupRecords changes = new ConsumerGroupRecords(group.groupId(), now);
                List<ConsumerMember> expired = new ArrayList<>();
                for (ConsumerMember member : membership.members()) {
                    String missed = member.missedDeadline(now);
                    if (member.sessionDeadlineMs() == Long.MAX_VALUE) {
                        member.sessionDeadline(now + sessionTimeoutMs(group, member));
                    } else if (missed != null) {
                        log.info("group {}: member {} {}", group.groupId(), member.memberId(), missed);
                        expired.add(member);
                    }
                }
                if (!expired.isEmpty()) {
                    removeMembers(group, membership, expired, "is fenced", changes);
                }
                membership = group.consumer(); // null if the group became classic
                if (membership != null && !membership.isEmpty() && membership.refreshSubscriptionHash(topics)) {
                    membership.bumpGroupEpoch();
                    changes.groupEpoch(membership);
                    maybeComputeTargetAssignment(membership, changes);
                }
                write(group, changes);
                if (membership != null) {
                    for (ConsumerMember member : membership.members()) {
                        next = Math.min(next, member.nextDeadlineMs());
                    }
                }
            }
        }
        return next;
    }

    /**
     * Appends the group's changes (called under the group's monitor, so a group's writes are appended in order).
     *
     * @return completes once they are replicated (or with the error that stopped them); for no changes, once the
     *         group's latest earlier write is
     */
    CompletableFuture<Errors> write(Group group, ConsumerGroupRecords changes) {
        try {
            return append(group, changes);
        } catch (RuntimeException e) {
            log.warn("could not store the changes of consumer group {}: {}; it goes back to what its log holds", group.groupId(),
                    e.toString());
            revert(group);
            return CompletableFuture.completedFuture(Errors.forException(e));
        }
    }

    /**
     * {@link #write} but for a refusal.
     *
     * @throws RuntimeException (a kafka-clients exception) if nothing could be appended
     */
    private CompletableFuture<Errors> append(Group group, ConsumerGroupRecords changes) {
        String groupId = group.groupId();
        if (changes.isEmpty()) {
            return pendingWrites.getOrDefault(groupId, CompletableFuture.completedFuture(Errors.NONE));
        }
        CompletableFuture<Errors> written = store.appendGroupRecords(groupId, changes.records());
        pendingWrites.put(groupId, written);
        written.whenComplete((error, failure) -> pendingWrites.remove(groupId, written));
        return written;
    }

    /**
     * Nothing of a change was appended: the group in memory is ahead of its log, so it becomes what the log holds
     * again (as Kafka reverts to its last committed state), a consumer group or a classic one: members of a downgrade
     * that was not stored are members of the consumer group again (told to rejoin it), those of an upgrade that was not
     * stored members of their classic group in its generation. Its members get new sessions at the next check.
     */
    private void revert(Group group) {
        if (partitions.errorFor(group.groupId()) != Errors.NONE) {
            return; // leadership moved: the group is dropped here and rebuilt from the log by the next coordinator
        }
        OffsetStore.Loaded stored = store.load(store.partitionFor(group.groupId()));
        for (Member member : group.members()) {
            member.completeJoin(JoinResult.error(Errors.REBALANCE_IN_PROGRESS, member.memberId()));
            member.completeSync(SyncResult.error(Errors.REBALANCE_IN_PROGRESS));
        }
        group.forgetClassicGroup(time.milliseconds());
        group.consumer(stored.consumerGroups().get(group.groupId()));
        GroupMetadataValue classic = stored.classicGroups().get(group.groupId());
        if (group.consumer() == null && classic != null) {
            classicRebalance.load(group, classic);
        }
        loaded();
    }

    // ---- offset commits and descriptions

    /**
     * Whether {@code memberId} at {@code memberEpoch} may commit offsets of a consumer group (OffsetCommit v9+):
     * outsiders (epoch -1) only while the group is empty; a member at its epoch or an earlier one (KIP-1251: a
     * commit sent before the answer that moved it on arrived), each partition checked by
     * {@link #partitionCommitError}; a classic member with its generation, which is its member epoch (else
     * ILLEGAL_GENERATION, as Kafka answers classic members).
     */
    static Errors commitError(ConsumerMembership membership, String memberId, int memberEpoch) {
        if (memberEpoch < 0 && membership.isEmpty()) {
            return Errors.NONE;
        }
        Optional<ConsumerMember> member = membership.member(memberId == null ? "" : memberId);
        if (member.isEmpty()) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (member.get().usesClassicProtocol()) {
            return memberEpoch == member.get().memberEpoch() ? Errors.NONE : Errors.ILLEGAL_GENERATION;
        }
        return memberEpoch < 0 || memberEpoch > member.get().memberEpoch() ? Errors.STALE_MEMBER_EPOCH : Errors.NONE;
    }

    /**
     * KIP-1251's rule for one partition of a member's commit that passed {@link #commitError}: the member owns
     * the partition and got it at {@code memberEpoch} or earlier; otherwise STALE_MEMBER_EPOCH.
     */
    static Errors partitionCommitError(ConsumerMembership membership, String memberId, int memberEpoch, TopicPartition partition) {
        if (memberEpoch < 0 && membership.isEmpty()) {
            return Errors.NONE;
        }
        ConsumerMember member = membership.member(memberId).orElseThrow();
        if (member.usesClassicProtocol()) {
            return Errors.NONE; // its generation was checked, as Kafka checks a classic member's commit
        }
        int assignedAt = membership.subscribedTopicId(partition.topic())
                .map(topicId -> member.assignmentEpoch(topicId, partition.partition())).orElse(-1);
        return assignedAt >= 0 && assignedAt <= memberEpoch ? Errors.NONE : Errors.STALE_MEMBER_EPOCH;
    }

    /** A consumer group as ConsumerGroupDescribe reports it. */
    public record Description(String groupId, ConsumerGroupState state, int groupEpoch, int assignmentEpoch, String assignorName,
                              List<DescribedMember> members) {
    }

    /** One member, with what it owns and what it is heading for; {@code classic} if it speaks the classic protocol. */
    public record DescribedMember(String memberId, String instanceId, String rackId, int memberEpoch, String clientId,
                                  String clientHost, List<String> subscribedTopicNames, String subscribedTopicRegex,
                                  Map<Uuid, Set<Integer>> assignment, Map<Uuid, Set<Integer>> targetAssignment, boolean classic) {
    }

    /**
     * The consumer group, or GROUP_ID_NOT_FOUND as the error of a group that does not exist or is classic.
     *
     * @throws org.apache.kafka.common.errors.NotCoordinatorException and the other errors of {@link CoordinatedPartitions#require}
     */
    public Optional<Description> describe(String groupId) {
        partitions.require(groupId);
        Optional<Group> found = groups.get(groupId);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Group group = found.get();
        synchronized (group) {
            ConsumerMembership membership = group.consumer();
            if (membership == null || group.is(GroupState.DEAD)) {
                return Optional.empty();
            }
            List<DescribedMember> members = membership.members().stream().map(m -> new DescribedMember(m.memberId(),
                    m.instanceId(), m.rackId(), m.memberEpoch(), m.clientId(), m.clientHost(), m.subscribedTopicNames(),
                    m.subscribedTopicRegex(), m.assigned(), membership.targetOf(m.memberId()), m.usesClassicProtocol())).toList();
            return Optional.of(new Description(groupId, membership.state(), membership.groupEpoch(),
                    membership.targetAssignmentEpoch(), membership.assignor(settings).name(), members));
        }
    }

    /** Whether a group {@code groupId} of either type lives here (ConsumerGroupDescribe tells a classic group from none). */
    public boolean exists(String groupId) {
        partitions.require(groupId);
        return groups.get(groupId).filter(group -> {
            synchronized (group) {
                return !group.is(GroupState.DEAD);
            }
        }).isPresent();
    }

    public SubscribableTopics topics() {
        return topics;
    }
}

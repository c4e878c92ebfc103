package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.group.LeaveResult.MemberLeft;
import io.tributary.broker.group.consumer.ConsumerGroupRecords;
import io.tributary.broker.group.consumer.ConsumerMember;
import io.tributary.broker.group.consumer.ConsumerMembership;
import io.tributary.broker.group.consumer.MemberState;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.GroupMaxSizeReachedException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Classic members (JoinGroup, SyncGroup, Heartbeat, LeaveGroup) inside a consumer group, as Kafka 4.x serves them
 * during an online migration. A JoinGroup is a full heartbeat of the consumer protocol: its embedded subscription is
 * the member's subscription and the partitions it still owns, and it is answered at once with the member epoch as the
 * generation and no leader (nobody assigns: the server-side assignor does); the SyncGroup that follows gets the
 * partitions the member may own now. A member that must take part in a rebalance (the group epoch moved on, it has
 * partitions to give up, or partitions it waited for are free) is told REBALANCE_IN_PROGRESS and rejoins. Its own
 * session timeout applies, and it is fenced if it does not rejoin, or sync after joining, within its rebalance
 * timeout. Answers that change the group come once the change is replicated, as the consumer protocol's do. No
 * classic member gets in while the migration policy is {@code disabled} (INCONSISTENT_GROUP_PROTOCOL, as Kafka 4.4). A
 * static member that restarts with the classic protocol in place of the group's last consumer-protocol member turns
 * the group classic (Kafka's second downgrade rule), rebalancing only if it subscribes to other topics (or the
 * subscribed topics changed).
 * Callers hold the group's monitor.
 */
final class ClassicMembersOfConsumerGroups {
    private static final Logger log = LoggerFactory.getLogger(ClassicMembersOfConsumerGroups.class);

    private final ConsumerGroupCoordinator consumerGroups;
    private final Time time;

    ClassicMembersOfConsumerGroups(ConsumerGroupCoordinator consumerGroups, Time time) {
        this.consumerGroups = consumerGroups;
        this.time = time;
    }

    CompletableFuture<JoinResult> join(Group group, JoinRequest request) {
        ConsumerMembership membership = group.consumer();
        if (!consumerGroups.admitsClassicMembers(group)) {
            return done(JoinResult.error(Errors.INCONSISTENT_GROUP_PROTOCOL, request.memberId()));
        }
        boolean unknown = request.memberId().isEmpty();
        String memberId = unknown ? Uuid.randomUuid().toString() : request.memberId();
        try {
            consumerGroups.throwIfFull(membership, memberId, request.groupInstanceId());
        } catch (GroupMaxSizeReachedException e) {
            log.info("group {}: member {} is refused: {}", group.groupId(), memberId, e.getMessage());
            return done(JoinResult.error(Errors.GROUP_MAX_SIZE_REACHED, request.memberId()));
        }
        List<String> protocolNames = request.protocols().stream().map(Protocol::name).toList();
        if (!membership.supportsClassicProtocols(request.protocolType(), protocolNames)) {
            return done(JoinResult.error(Errors.INCONSISTENT_GROUP_PROTOCOL, request.memberId()));
        }
        if (unknown && request.groupInstanceId() == null && request.requireKnownMemberId()) {
            return done(JoinResult.error(Errors.MEMBER_ID_REQUIRED, memberId));
        }
        EmbeddedConsumerProtocol.Subscription subscription;
        try {
            subscription = EmbeddedConsumerProtocol.subscription(request.protocols().get(0).metadata(), consumerGroups.topics());
        } catch (RuntimeException e) {
            log.info("group {}: member {} joins with an unreadable subscription: {}", group.groupId(), memberId, e.toString());
            return done(JoinResult.error(Errors.INCONSISTENT_GROUP_PROTOCOL, memberId));
        }
        boolean isStatic = request.groupInstanceId() != null;
        Optional<ConsumerMember> existing = isStatic ? membership.staticMember(request.groupInstanceId()) : membership.member(memberId);
        if (isStatic && !unknown && existing.map(m -> !m.memberId().equals(memberId)).orElse(true)) {
            // Kafka's checks of a static member that gives its member id: that instance must be this member
            return done(JoinResult.error(existing.isEmpty() ? Errors.UNKNOWN_MEMBER_ID : Errors.FENCED_INSTANCE_ID, memberId));
        }
        // Kafka's second downgrade rule: the static member this one replaces was the last to use the consumer protocol
        boolean replacesLastConsumerProtocolMember = isStatic && existing.isPresent()
                && consumerGroups.mayDowngradeReplacing(membership, existing.get());
        ConsumerGroupRecords changes = new ConsumerGroupRecords(group.groupId(), time.milliseconds());
        boolean joining = existing.isEmpty();
        ConsumerMember member;
        if (joining) {
            member = new ConsumerMember(memberId);
            member.instanceId(request.groupInstanceId());
            membership.add(member);
            log.info("group {}: member {} joins the consumer group with the classic protocol", group.groupId(), memberId);
        } else {
            // a static member that restarted under a new member id takes over its old incarnation
            member = existing.get().memberId().equals(memberId) ? existing.get()
                    : consumerGroups.takeOver(membership, existing.get(), memberId, changes);
        }
        boolean resubscribed = update(member, request, subscription, joining, changes);
        if (replacesLastConsumerProtocolMember) {
            consumerGroups.downgradeOnReplacement(group, membership, member, resubscribed, subscription.owned(), changes);
        } else {
            long now = time.milliseconds();
            consumerGroups.startSession(group, member, now);
            consumerGroups.moveTowardsTarget(membership, member, joining || resubscribed, subscription.owned(), changes);
            consumerGroups.awaitSync(member, now);
        }
        // as Kafka answers, also when the group became classic: a replacing member left unreconciled (the classic group
        // rebalances) is at epoch 0, so its SyncGroup is ILLEGAL_GENERATION and it rejoins
        JoinResult joined = new JoinResult(Errors.NONE, memberId, member.memberEpoch(), ConsumerProtocol.PROTOCOL_TYPE,
                member.classicProtocolName(), "", List.of());
        return consumerGroups.write(group, changes).thenApply(error -> error == Errors.NONE ? joined
                : JoinResult.error(OffsetStore.clientError(error), memberId));
    }

    /**
     * Takes what a JoinGroup says of the member: its subscription, rack, timeouts, client and protocols; the member's
     * record is written if anything changed. @return true if it subscribes to other topics now (a new group epoch)
     */
    private static boolean update(ConsumerMember member, JoinRequest request, EmbeddedConsumerProtocol.Subscription subscription,
                                  boolean joining, ConsumerGroupRecords changes) {
        boolean resubscribed = !member.subscribesTo(subscription.topics()) || member.subscribedTopicRegex() != null;
        var classic = GroupConversion.classicMetadata(request.sessionTimeoutMs(), request.protocols());
        boolean changed = joining || resubscribed || !classic.equals(member.classicMetadata())
                || member.rebalanceTimeoutMs() != request.rebalanceTimeoutMs();
        member.subscribedTopicNames(subscription.topics());
        member.subscribedTopicRegex(null);
        if (subscription.rackId() != null) {
            member.rackId(subscription.rackId());
        }
        member.rebalanceTimeoutMs(request.rebalanceTimeoutMs());
        member.client(request.clientId(), request.clientHost());
        member.classicMetadata(classic);
        if (changed) {
            changes.memberSubscription(member);
        }
        return resubscribed;
    }

    CompletableFuture<SyncResult> sync(Group group, SyncRequest request) {
        ConsumerMembership membership = group.consumer();
        Optional<ConsumerMember> found = membership.member(request.memberId());
        Errors error = memberError(membership, found, request.memberId(), request.groupInstanceId(), request.generationId());
        if (error != Errors.NONE) {
            return done(SyncResult.error(error));
        }
        ConsumerMember member = found.get();
        if (request.protocolType() != null && !ConsumerProtocol.PROTOCOL_TYPE.equals(request.protocolType())
                || request.protocolName() != null && !request.protocolName().equals(member.classicProtocolName())) {
            return done(SyncResult.error(Errors.INCONSISTENT_GROUP_PROTOCOL));
        }
        long now = time.milliseconds();
        if (membership.groupEpoch() > member.memberEpoch() && member.state() != MemberState.UNREVOKED_PARTITIONS) {
            consumerGroups.awaitRejoin(member, now);
            return done(SyncResult.error(Errors.REBALANCE_IN_PROGRESS));
        }
        member.synced();
        consumerGroups.startSession(group, member, now);
        SyncResult synced = new SyncResult(Errors.NONE, request.protocolType(), request.protocolName(),
                EmbeddedConsumerProtocol.assignment(member.assigned(), consumerGroups.topics(),
                        member.classicMetadata().supportedProtocols().get(0).metadata()));
        return consumerGroups.write(group, new ConsumerGroupRecords(group.groupId(), now))
                .thenApply(written -> written == Errors.NONE ? synced : SyncResult.error(OffsetStore.clientError(written)));
    }

    /**
     * NONE, or REBALANCE_IN_PROGRESS when the member is to rejoin: the group epoch moved past its own, it has
     * partitions to give up, or partitions it waited for are free now.
     */
    Errors heartbeat(Group group, String memberId, String groupInstanceId, int generationId) {
        ConsumerMembership membership = group.consumer();
        Optional<ConsumerMember> found = membership.member(memberId);
        Errors error = memberError(membership, found, memberId, groupInstanceId, generationId);
        if (error != Errors.NONE) {
            return error;
        }
        ConsumerMember member = found.get();
        long now = time.milliseconds();
        consumerGroups.startSession(group, member, now);
        if (member.memberEpoch() < membership.groupEpoch() || member.state() == MemberState.UNREVOKED_PARTITIONS
                || member.state() == MemberState.UNRELEASED_PARTITIONS && !membership.waitsForUnreleasedPartitions(member)) {
            consumerGroups.awaitRejoin(member, now);
            return Errors.REBALANCE_IN_PROGRESS;
        }
        return Errors.NONE;
    }

    /** Kafka's checks of a classic member's SyncGroup and Heartbeat in a consumer group. */
    private static Errors memberError(ConsumerMembership membership, Optional<ConsumerMember> found, String memberId,
                                      String groupInstanceId, int generationId) {
        if (groupInstanceId != null) {
            Optional<ConsumerMember> instance = membership.staticMember(groupInstanceId);
            if (instance.isEmpty()) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            if (!instance.get().memberId().equals(memberId)) {
                return Errors.FENCED_INSTANCE_ID;
            }
        }
        if (found.isEmpty() || !found.get().usesClassicProtocol()) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        return generationId == found.get().memberEpoch() ? Errors.NONE : Errors.ILLEGAL_GENERATION;
    }

    /** LeaveGroup: the members that are known leave together (which may turn the group classic again). */
    CompletableFuture<LeaveResult> leave(Group group, List<MemberIdentity> leaving) {
        ConsumerMembership membership = group.consumer();
        List<MemberLeft> results = new ArrayList<>();
        Set<ConsumerMember> left = new LinkedHashSet<>();
        for (MemberIdentity identity : leaving) {
            Optional<ConsumerMember> member = identity.groupInstanceId() == null ? membership.member(identity.memberId())
                    : membership.staticMember(identity.groupInstanceId());
            Errors error = Errors.NONE;
            if (member.isEmpty()) {
                error = Errors.UNKNOWN_MEMBER_ID;
            } else if (identity.groupInstanceId() != null && identity.memberId() != null && !identity.memberId().isEmpty()
                    && !identity.memberId().equals(member.get().memberId())) {
                error = Errors.FENCED_INSTANCE_ID;
            } else {
                left.add(member.get());
            }
            results.add(new MemberLeft(identity.memberId(), identity.groupInstanceId(), error));
        }
        if (left.isEmpty()) {
            return done(new LeaveResult(results));
        }
        ConsumerGroupRecords changes = new ConsumerGroupRecords(group.groupId(), time.milliseconds());
        consumerGroups.removeMembers(group, membership, left, "left the group", changes);
        return consumerGroups.write(group, changes).thenApply(error -> error == Errors.NONE ? new LeaveResult(results)
                : new LeaveResult(results.stream().map(r -> r.error() == Errors.NONE
                        ? new MemberLeft(r.memberId(), r.groupInstanceId(), OffsetStore.clientError(error)) : r).toList()));
    }

    /**
     * A classic member joins an empty consumer group: it becomes a classic group, and its consumer group records go.
     *
     * @return NONE, or the error to answer if the records could not be deleted (the group stays a consumer group)
     */
    Errors convertEmpty(Group group) {
        return consumerGroups.dropEmpty(group);
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }
}

package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;
import io.tributary.broker.group.JoinResult.JoinedMember;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rebalances of the classic protocol: a change of membership starts one (PreparingRebalance), which waits for every
 * member to rejoin (or for the initial delay, or the rebalance timeout), then starts the next generation and answers
 * every waiting JoinGroup, the leader with all members; the leader's assignment completes it once stored. The classic
 * coordinator runs them, and so does the downgrade of a consumer group, whose classic members rebalance as a classic
 * group. As Kafka, it stores the group's record (see {@link ClassicGroupRecords}) with each generation's assignment and
 * when the group is left empty, so that a new coordinator serves the same generation and members. Every deadline it sets
 * is announced to {@code deadlineSet}. Callers hold the group's monitor.
 */
final class ClassicRebalance {
    private static final Logger log = LoggerFactory.getLogger(ClassicRebalance.class);

    private final GroupConfig config;
    private final Time time;
    private final LongConsumer deadlineSet;
    private final OffsetStore store;

    ClassicRebalance(GroupConfig config, Time time, LongConsumer deadlineSet, OffsetStore store) {
        this.config = config;
        this.time = time;
        this.deadlineSet = deadlineSet;
        this.store = store;
    }

    /**
     * Kafka's rule of {@code group.max.size} for a JoinGroup of {@code memberId} ("" if unknown): an empty group takes
     * anyone; during a rebalance, a member that already rejoined, or anyone while fewer than the limit have rejoined (so
     * the members over it that rejoin last are the ones left out); otherwise a member, or anyone while the group is
     * below the limit.
     */
    boolean acceptsJoiningMember(Group group, String memberId) {
        return switch (group.state()) {
            case EMPTY, DEAD -> true;
            case PREPARING_REBALANCE -> group.member(memberId).map(Member::isAwaitingJoin).orElse(false)
                    || group.awaitingJoinCount() < config.maxSize();
            case COMPLETING_REBALANCE, STABLE -> group.member(memberId).isPresent() || group.members().size() < config.maxSize();
        };
    }

    /** True if a classic group of {@code members} stays within {@code group.max.size}. */
    boolean fits(int members) {
        return members <= config.maxSize();
    }

    /** The member's session starts again now. */
    void touch(Member member) {
        touch(member, time.milliseconds());
    }

    void touch(Member member, long nowMs) {
        deadlineSet.accept(member.touch(nowMs));
    }

    /** A membership changed: start a rebalance, or see whether the one in progress can finish. */
    void membershipChanged(Group group) {
        switch (group.state()) {
            case EMPTY, STABLE, COMPLETING_REBALANCE -> prepare(group);
            case PREPARING_REBALANCE -> maybeCompleteJoin(group);
            case DEAD -> { }
        }
    }

    /** Starts a rebalance: members are told (on their next heartbeat, or their pending SyncGroup) to rejoin. */
    void prepare(Group group) {
        long now = time.milliseconds();
        if (group.is(GroupState.COMPLETING_REBALANCE)) {
            for (Member member : group.members()) {
                member.clearAssignment();
                member.completeSync(SyncResult.error(Errors.REBALANCE_IN_PROGRESS));
            }
        }
        boolean fromEmpty = group.is(GroupState.EMPTY);
        group.transitionTo(GroupState.PREPARING_REBALANCE, now);
        if (fromEmpty && config.initialRebalanceDelayMs() > 0) {
            group.joinDeadline().startInitialDelay(now, config.initialRebalanceDelayMs(), group.rebalanceTimeoutMs());
        } else {
            group.joinDeadline().startRebalance(now, group.rebalanceTimeoutMs());
        }
        deadlineSet.accept(group.joinDeadline().deadlineMs());
        log.debug("group {} is rebalancing (generation {})", group.groupId(), group.generationId());
        maybeCompleteJoin(group);
    }

    void maybeCompleteJoin(Group group) {
        if (group.is(GroupState.PREPARING_REBALANCE) && !group.joinDeadline().inInitialDelay() && group.allMembersJoined()) {
            completeJoin(group);
        }
    }

    /**
     * Ends the join phase: members that did not rejoin in time are dropped, the next generation
     * starts, and every waiting member gets its JoinGroup answer (the leader with all members).
     */
    void completeJoin(Group group) {
        long now = time.milliseconds();
        group.joinDeadline().clear();
        for (Member member : group.members()) {
            if (!member.isAwaitingJoin()) {
                log.info("group {}: member {} did not rejoin in time and is removed", group.groupId(), member.memberId());
                group.remove(member);
            }
        }
        if (!group.hasMembers()) {
            group.nextGeneration(null);
            group.transitionTo(GroupState.EMPTY, now);
            // unawaited, as Kafka: if it is lost, a new coordinator has the generation before, whose members time out
            store(group).thenAccept(error -> {
                if (error != Errors.NONE) {
                    log.warn("group {}: the empty generation {} could not be stored: {}", group.groupId(), group.generationId(), error);
                }
            });
            return;
        }
        group.nextGeneration(group.selectProtocol());
        group.transitionTo(GroupState.COMPLETING_REBALANCE, now);
        log.info("group {}: generation {} with {} member(s), protocol {}", group.groupId(), group.generationId(),
                group.members().size(), group.protocolName());
        for (Member member : group.members()) {
            touch(member, now);
            member.completeJoin(currentGeneration(group, member));
        }
    }

    /**
     * The leader's SyncGroup: the generation's {@code assignments} (by member id, a missing one is empty) are stored, and
     * once they are replicated the group is Stable and every member waiting for its SyncGroup answer gets its
     * assignment. If the write fails, they get its error instead and the group rebalances again, as in Kafka. Nothing
     * happens at the write's end if the group has moved on meanwhile.
     */
    void completeRebalance(Group group, Map<String, byte[]> assignments) {
        int generation = group.generationId();
        store.storeClassicGroup(group, assignments).thenAccept(error -> {
            synchronized (group) {
                if (!group.is(GroupState.COMPLETING_REBALANCE) || group.generationId() != generation) {
                    return;
                }
                if (error != Errors.NONE) {
                    log.warn("group {}: the assignment of generation {} could not be stored: {}; it rebalances", group.groupId(),
                            generation, error);
                    group.members().forEach(member -> member.completeSync(SyncResult.error(error)));
                    prepare(group);
                    return;
                }
                long now = time.milliseconds();
                group.members().forEach(member -> member.assign(assignments.get(member.memberId())));
                group.transitionTo(GroupState.STABLE, now);
                for (Member member : group.members()) {
                    touch(member, now); // as Kafka: a member's session starts again with its SyncGroup answer
                    member.completeSync(assignmentOf(group, member));
                }
            }
        });
    }

    /** Stores the group as it stands, each member with its current assignment. */
    CompletableFuture<Errors> store(Group group) {
        return store.storeClassicGroup(group, ClassicGroupRecords.currentAssignments(group));
    }

    /**
     * A group {@code stored} in its offsets partition, loaded as Kafka loads it: Stable with its generation and members
     * (or Empty), whose sessions start now; a group larger than {@code group.max.size} (which may have been lowered)
     * rebalances, so that the members over the limit are left out.
     */
    void load(Group group, GroupMetadataValue stored) {
        long now = time.milliseconds();
        ClassicGroupRecords.restore(group, stored, now);
        group.members().forEach(member -> touch(member, now));
        if (!fits(group.members().size())) {
            log.info("group {} was loaded with {} members, more than group.max.size {}: it rebalances", group.groupId(),
                    group.members().size(), config.maxSize());
            prepare(group);
        }
    }

    /** The SyncGroup answer of the current generation for {@code member}. */
    static SyncResult assignmentOf(Group group, Member member) {
        return new SyncResult(Errors.NONE, group.protocolType(), group.protocolName(), member.assignment());
    }

    /** The JoinGroup answer of the current generation for {@code member}: the leader also gets every member. */
    static JoinResult currentGeneration(Group group, Member member) {
        return new JoinResult(Errors.NONE, member.memberId(), group.generationId(), group.protocolType(),
                group.protocolName(), group.leaderId(),
                group.isLeader(member.memberId()) ? joinedMembers(group) : List.of());
    }

    private static List<JoinedMember> joinedMembers(Group group) {
        List<JoinedMember> members = new ArrayList<>();
        for (Member member : group.members()) {
            members.add(new JoinedMember(member.memberId(), member.groupInstanceId(), member.metadata(group.protocolName())));
        }
        return members;
    }
}

package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import io.tributary.broker.group.JoinResult.JoinedMember;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The join phase of the classic protocol: a change of membership starts a rebalance (PreparingRebalance), which
 * waits for every member to rejoin (or for the initial delay, or the rebalance timeout), then starts the next
 * generation and answers every waiting JoinGroup, the leader with all members. The classic coordinator runs it, and
 * so does the downgrade of a consumer group, whose classic members rebalance as a classic group. Every deadline it
 * sets is announced to {@code deadlineSet}. Callers hold the group's monitor.
 */
final class ClassicRebalance {
    private static final Logger log = LoggerFactory.getLogger(ClassicRebalance.class);

    private final GroupConfig config;
    private final Time time;
    private final LongConsumer deadlineSet;

    ClassicRebalance(GroupConfig config, Time time, LongConsumer deadlineSet) {
        this.config = config;
        this.time = time;
        this.deadlineSet = deadlineSet;
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

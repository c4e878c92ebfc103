package io.tributary.broker.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LeaderElectionTest {
    private static final List<Integer> REPLICAS = List.of(1, 2, 3);
    private static final int CONTROLLER_EPOCH = 7;

    /** The zxid that wrote every stored state here; registrations before it are older, after it newer. */
    private static final long STATE_ZXID = 100;
    private static final long REGISTERED_BEFORE = 50;
    private static final long REGISTERED_AFTER = 150;

    private static Map<Integer, Long> registeredBefore(Integer... ids) {
        Map<Integer, Long> registrations = new HashMap<>();
        for (int id : ids) {
            registrations.put(id, REGISTERED_BEFORE);
        }
        return registrations;
    }

    private static LeaderElection.Brokers live(Integer... ids) {
        return new LeaderElection.Brokers(registeredBefore(ids), Set.of(), false);
    }

    /** Brokers 1, 2 and 3 alive, {@code restarted} registered again after the state was written. */
    private static LeaderElection.Brokers restarted(Integer... restarted) {
        Map<Integer, Long> registrations = registeredBefore(1, 2, 3);
        for (int id : restarted) {
            registrations.put(id, REGISTERED_AFTER);
        }
        return new LeaderElection.Brokers(registrations, Set.of(), false);
    }

    /** A stored state elected for the leader's registration before {@link #STATE_ZXID}. */
    private static PartitionState state(int leader, int epoch, Integer... isr) {
        long leaderBrokerEpoch = leader == PartitionState.NO_LEADER ? PartitionState.UNKNOWN_BROKER_EPOCH : REGISTERED_BEFORE;
        return new PartitionState(leader, epoch, leaderBrokerEpoch, List.of(isr), 1, 4, STATE_ZXID);
    }

    private static Optional<PartitionState> decide(PartitionState stored, LeaderElection.Brokers brokers) {
        return LeaderElection.decide(REPLICAS, Optional.of(stored), brokers, false, CONTROLLER_EPOCH);
    }

    @Test
    void aNewPartitionIsLedByItsFirstLiveReplicaWithTheLiveReplicasInSync() {
        PartitionState first = LeaderElection.decide(REPLICAS, Optional.empty(), live(2, 3), false, CONTROLLER_EPOCH).orElseThrow();
        assertThat(first.leader()).isEqualTo(2);
        assertThat(first.leaderEpoch()).isZero();
        assertThat(first.isr()).containsExactly(2, 3);
        assertThat(LeaderElection.decide(REPLICAS, Optional.empty(), live(), false, CONTROLLER_EPOCH)).isEmpty();
    }

    @Test
    void aDeadLeaderIsReplacedByTheNextInSyncReplicaInANewEpoch() {
        PartitionState next = decide(state(1, 4, 1, 2, 3), live(2, 3)).orElseThrow();
        assertThat(next.leader()).isEqualTo(2);
        assertThat(next.leaderEpoch()).isEqualTo(5);
        assertThat(next.isr()).containsExactly(2, 3);
        assertThat(next.controllerEpoch()).isEqualTo(CONTROLLER_EPOCH);
        assertThat(next.zkVersion()).as("compare-and-set against the version read").isEqualTo(4);
        assertThat(next.leaderBrokerEpoch()).as("elected for broker 2's current registration").isEqualTo(REGISTERED_BEFORE);
    }

    @Test
    void withNoInSyncReplicaAliveThePartitionGoesOfflineUnlessUncleanElectionIsAllowed() {
        PartitionState stored = state(1, 4, 1);
        PartitionState offline = decide(stored, live(2, 3)).orElseThrow();
        assertThat(offline.leader()).isEqualTo(PartitionState.NO_LEADER);
        assertThat(offline.isr()).as("kept, so only an ISR member can lead again").containsExactly(1);
        assertThat(decide(offline, live(2, 3))).as("stays offline").isEmpty();

        PartitionState unclean = decide(stored, new LeaderElection.Brokers(registeredBefore(2, 3), Set.of(), true)).orElseThrow();
        assertThat(unclean.leader()).isEqualTo(2);
        assertThat(unclean.isr()).containsExactly(2);
    }

    @Test
    void anOfflinePartitionComesBackWhenAnInSyncReplicaReturns() {
        PartitionState back = decide(state(PartitionState.NO_LEADER, 5, 1), live(1, 2, 3)).orElseThrow();
        assertThat(back.leader()).isEqualTo(1);
        assertThat(back.leaderEpoch()).isEqualTo(6);
    }

    @Test
    void deadFollowersLeaveTheIsrWithoutANewEpoch() {
        PartitionState shrunk = decide(state(1, 4, 1, 2, 3), live(1, 2)).orElseThrow();
        assertThat(shrunk.leader()).isEqualTo(1);
        assertThat(shrunk.leaderEpoch()).isEqualTo(4);
        assertThat(shrunk.isr()).containsExactly(1, 2);
        assertThat(decide(state(1, 4, 1, 2), live(1, 2, 3))).as("a returning follower is added by the leader, not here").isEmpty();
    }

    @Test
    void aShuttingDownLeaderHandsOverWhenItCan() {
        LeaderElection.Brokers oneLeaving = new LeaderElection.Brokers(registeredBefore(1, 2, 3), Set.of(1), false);
        PartitionState moved = decide(state(1, 4, 1, 2, 3), oneLeaving).orElseThrow();
        assertThat(moved.leader()).isEqualTo(2);
        assertThat(moved.isr()).containsExactly(2, 3);
        assertThat(decide(state(1, 4, 1), oneLeaving)).as("nobody in sync to take over").isEmpty();
    }

    @Test
    void aRestartedLeaderGivesUpLeadershipOrLeadsAgainInANewEpoch() {
        PartitionState moved = decide(state(1, 4, 1, 2), restarted(1)).orElseThrow();
        assertThat(moved.leader()).isEqualTo(2);
        assertThat(moved.isr()).as("the restarted broker rejoins once caught up").containsExactly(2);
        PartitionState alone = decide(state(1, 4, 1), restarted(1)).orElseThrow();
        assertThat(alone.leader()).isEqualTo(1);
        assertThat(alone.leaderEpoch()).isEqualTo(5);
        assertThat(alone.leaderBrokerEpoch()).as("for the new registration").isEqualTo(REGISTERED_AFTER);
    }

    @Test
    void aRestartIsReadFromTheRegistrationSoAControllerElectedAfterItSeesItToo() {
        // No memory of earlier looks: the same inputs give the same answer on any controller.
        assertThat(decide(state(1, 4, 1, 2, 3), restarted(1)).orElseThrow().leader()).isEqualTo(2);
        assertThat(decide(state(1, 4, 1, 2, 3), live(1, 2, 3))).as("registered before the state: not restarted").isEmpty();
    }

    @Test
    void aStateWrittenAgainAfterTheLeaderRestartedStillNamesItsEarlierRegistration() {
        // An ISR change written after broker 1 registered again must not make the new process the leader of an
        // epoch its predecessor held.
        PartitionState rewritten = new PartitionState(1, 4, REGISTERED_BEFORE, List.of(1, 2, 3), 1, 5, REGISTERED_AFTER + 10);
        PartitionState next = decide(rewritten, restarted(1)).orElseThrow();
        assertThat(next.leader()).isEqualTo(2);
        assertThat(next.leaderEpoch()).isEqualTo(5);
    }

    @Test
    void aStateOfAnEarlierVersionWithoutABrokerEpochFallsBackToWhenItWasWritten() {
        PartitionState legacy = new PartitionState(1, 4, PartitionState.UNKNOWN_BROKER_EPOCH, List.of(1, 2, 3), 1, 4, STATE_ZXID);
        assertThat(decide(legacy, live(1, 2, 3))).isEmpty();
        PartitionState moved = decide(legacy, restarted(1)).orElseThrow();
        assertThat(moved.leader()).isEqualTo(2);
        assertThat(moved.leaderBrokerEpoch()).isEqualTo(REGISTERED_BEFORE);
    }

    @Test
    void aRestartedFollowerLeavesTheIsr() {
        PartitionState shrunk = decide(state(1, 4, 1, 2, 3), restarted(3)).orElseThrow();
        assertThat(shrunk.leader()).isEqualTo(1);
        assertThat(shrunk.leaderEpoch()).isEqualTo(4);
        assertThat(shrunk.isr()).containsExactly(1, 2);
    }

    @Test
    void anOfflinePartitionIsLedByTheFirstMemberOfItsLastIsrToComeBackRestartedOrNot() {
        PartitionState back = decide(state(PartitionState.NO_LEADER, 5, 2, 3), restarted(1, 2, 3)).orElseThrow();
        assertThat(back.leader()).isEqualTo(2);
        assertThat(back.leaderEpoch()).isEqualTo(6);
    }

    @Test
    void thePreferredReplicaLeadsAgainOnceInSync() {
        LeaderElection.Brokers all = live(1, 2, 3);
        PartitionState back = LeaderElection.decide(REPLICAS, Optional.of(state(2, 5, 2, 3, 1)), all, true, CONTROLLER_EPOCH).orElseThrow();
        assertThat(back.leader()).isEqualTo(1);
        assertThat(back.leaderEpoch()).isEqualTo(6);
        assertThat(LeaderElection.decide(REPLICAS, Optional.of(state(2, 5, 2, 3)), all, true, CONTROLLER_EPOCH))
                .as("not while out of sync").isEmpty();
        assertThat(LeaderElection.decide(REPLICAS, Optional.of(state(2, 5, 2, 3, 1)), all, false, CONTROLLER_EPOCH))
                .as("only when a preferred election is due").isEmpty();
    }

    @Test
    void brokersNoLongerReplicasLeaveTheIsrAndDoNotLead() {
        // A completed reassignment removed broker 4 (still in the ISR) and broker 5, the leader.
        assertThat(decide(state(1, 3, 1, 2, 4), live(1, 2, 3, 4)).orElseThrow().isr()).containsExactly(1, 2);
        PartitionState moved = decide(state(5, 3, 5, 2), live(1, 2, 3, 5)).orElseThrow();
        assertThat(moved.leader()).isEqualTo(2);
        assertThat(moved.leaderEpoch()).isEqualTo(4);
        assertThat(moved.isr()).containsExactly(2);
    }

    @Test
    void aPreferredElectionNeedsThePreferredReplicaInSync() {
        assertThat(LeaderElection.preferred(REPLICAS, state(2, 3, 2, 3), live(1, 2, 3), CONTROLLER_EPOCH)).isEmpty();
        PartitionState elected = LeaderElection.preferred(REPLICAS, state(2, 3, 1, 2, 3), live(1, 2, 3), CONTROLLER_EPOCH).orElseThrow();
        assertThat(elected.leader()).isEqualTo(1);
        assertThat(elected.leaderEpoch()).isEqualTo(4);
        assertThat(LeaderElection.preferred(REPLICAS, state(1, 3, 1, 2), live(1, 2, 3), CONTROLLER_EPOCH)).isEmpty();
    }

    @Test
    void aReplicaSetShrinksOnlyAfterItsLeaderAndIsrFit() {
        // Leader 1 stays (it is among the new replicas): only the ISR loses broker 3, at the same epoch.
        PartitionState shrunk = Reassignments.fitTo(List.of(1, 2), state(1, 3, 1, 2, 3), live(1, 2, 3), CONTROLLER_EPOCH).orElseThrow();
        assertThat(shrunk.leader()).isEqualTo(1);
        assertThat(shrunk.leaderEpoch()).isEqualTo(3);
        assertThat(shrunk.isr()).containsExactly(1, 2);
        // Leader 1 leaves: the first new replica in the ISR leads, in a new epoch.
        PartitionState moved = Reassignments.fitTo(List.of(3, 2), state(1, 3, 1, 2, 3), live(1, 2, 3), CONTROLLER_EPOCH).orElseThrow();
        assertThat(moved.leader()).isEqualTo(3);
        assertThat(moved.leaderEpoch()).isEqualTo(4);
        assertThat(moved.isr()).containsExactly(2, 3);
        assertThat(Reassignments.fitTo(List.of(1, 2), state(1, 3, 1, 2), live(1, 2, 3), CONTROLLER_EPOCH)).isEmpty();
        // Nobody among the new replicas is in sync: refused, nothing changes.
        org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                Reassignments.fitTo(List.of(3), state(1, 3, 1, 2), live(1, 2, 3), CONTROLLER_EPOCH))
                .isInstanceOf(org.apache.kafka.common.errors.EligibleLeadersNotAvailableException.class);
    }
}

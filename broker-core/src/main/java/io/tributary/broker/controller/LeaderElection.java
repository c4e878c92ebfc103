package io.tributary.broker.controller;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * The controller's decision for one partition: given its replicas, its stored state and which
 * brokers are alive, what the state should become (empty: leave it). Pure; no I/O.
 *
 * <p>Rules, in order: a partition without a state gets its first live replica as leader and its
 * live replicas as ISR. A leader that is gone, restarted or shutting down is replaced by the first
 * replica, in assignment order, that is in the ISR and eligible; with none, a shutting-down leader
 * keeps leading until it is gone, a restarted one leads again alone in a new epoch, and a dead one
 * leaves the partition offline (leader -1, ISR kept) unless unclean election is allowed. A
 * surviving leader keeps its epoch while dead, departing and restarted followers are dropped from
 * the ISR, and so are brokers that are no longer replicas (a reassignment removed them). A preferred-replica
 * election moves leadership to the first replica when it is in the ISR.
 *
 * <p>"Restarted" is read from ZooKeeper itself, not remembered, so any controller, including one
 * elected a moment ago, sees the same. A broker's registration is created anew by every process and
 * every ZooKeeper session, and the zxid that created it is its broker epoch (KIP-380). A leader has
 * restarted if its broker epoch is not the one the state was elected for ({@code leaderBrokerEpoch};
 * for states of earlier versions without one: if it registered after the state was written); a
 * follower, if it registered after the state was written. A restarted broker's log may lack what it
 * had acknowledged, and it may not lead under that state (the broker itself refuses to, see
 * {@code ReplicaManager}).
 */
public final class LeaderElection {
    private LeaderElection() {
    }

    /**
     * What the controller knows about the brokers.
     *
     * @param registrations live brokers, each with the zxid that created its current registration
     * @param shuttingDown  brokers in a controlled shutdown
     * @param unclean       may a replica outside the ISR be elected
     */
    public record Brokers(Map<Integer, Long> registrations, Set<Integer> shuttingDown, boolean unclean) {
        public Brokers {
            registrations = Map.copyOf(registrations);
            shuttingDown = Set.copyOf(shuttingDown);
        }

        /** These brokers with unclean election allowed or not (a topic's own setting). */
        public Brokers withUnclean(boolean allowed) {
            return allowed == unclean ? this : new Brokers(registrations, shuttingDown, allowed);
        }

        boolean live(int id) {
            return registrations.containsKey(id);
        }

        boolean eligible(int id) {
            return live(id) && !shuttingDown.contains(id);
        }

        long brokerEpoch(int id) {
            return registrations.getOrDefault(id, PartitionState.UNKNOWN_BROKER_EPOCH);
        }

        /** Did {@code id} register after {@code state} was written? */
        boolean registeredSince(int id, PartitionState state) {
            Long registered = registrations.get(id);
            return registered != null && registered > state.modifiedZxid();
        }

        /** Is the live {@code state.leader()} another registration than the one {@code state} was elected for? */
        boolean leaderRestartedSince(PartitionState state) {
            if (state.leaderBrokerEpoch() == PartitionState.UNKNOWN_BROKER_EPOCH) {
                return registeredSince(state.leader(), state);
            }
            Long registered = registrations.get(state.leader());
            return registered != null && registered != state.leaderBrokerEpoch();
        }
    }

    /** A partition's new state, or empty if it should stay as it is. */
    public static Optional<PartitionState> decide(List<Integer> replicas, Optional<PartitionState> stored, Brokers brokers,
                                                  boolean preferredElection, int controllerEpoch) {
        if (stored.isEmpty()) {
            List<Integer> live = replicas.stream().filter(brokers::eligible).toList();
            return live.isEmpty() ? Optional.empty()
                    : Optional.of(new PartitionState(live.get(0), 0, brokers.brokerEpoch(live.get(0)), live, controllerEpoch, -1,
                            PartitionState.NOT_STORED));
        }
        PartitionState state = stored.get();
        if (!state.hasLeader()) {
            // Offline: whichever member of the last ISR comes back first leads; restarting is how it comes back.
            return electNewLeader(replicas, state, state.isr().stream().filter(brokers::eligible).toList(), id -> false,
                    brokers, controllerEpoch);
        }
        IntPredicate restarted = restarted(state, brokers);
        List<Integer> isrEligible = isrEligible(replicas, state, brokers);
        if (!leaderOk(replicas, state, brokers)) {
            return electNewLeader(replicas, state, isrEligible, restarted, brokers, controllerEpoch);
        }
        if (preferredElection) {
            Optional<PartitionState> moved = preferred(replicas, state, brokers, controllerEpoch);
            if (moved.isPresent()) {
                return moved;
            }
        }
        return isrEligible.equals(state.isr()) ? Optional.empty() : Optional.of(state.withIsr(isrEligible));
    }

    /**
     * A preferred-replica election (ElectLeaders PREFERRED): the first replica leads if it does not yet and is an
     * eligible ISR member; empty otherwise.
     */
    public static Optional<PartitionState> preferred(List<Integer> replicas, PartitionState state, Brokers brokers, int controllerEpoch) {
        int preferred = replicas.get(0);
        List<Integer> isrEligible = isrEligible(replicas, state, brokers);
        if (preferred == state.leader() || !isrEligible.contains(preferred)) {
            return Optional.empty();
        }
        return Optional.of(state.withLeader(preferred, brokers.brokerEpoch(preferred), isrEligible, controllerEpoch));
    }

    /** Does the state's leader still qualify: a replica, live, not shutting down, and not restarted since its election. */
    public static boolean leaderOk(List<Integer> replicas, PartitionState state, Brokers brokers) {
        return state.hasLeader() && replicas.contains(state.leader()) && brokers.eligible(state.leader())
                && !restarted(state, brokers).test(state.leader());
    }

    // A broker a completed reassignment removed is no replica any more: it leaves the ISR and may not lead.
    static List<Integer> isrEligible(List<Integer> replicas, PartitionState state, Brokers brokers) {
        IntPredicate restarted = restarted(state, brokers);
        return state.isr().stream().filter(id -> replicas.contains(id) && brokers.eligible(id) && !restarted.test(id)).toList();
    }

    private static IntPredicate restarted(PartitionState state, Brokers brokers) {
        return id -> id == state.leader() ? brokers.leaderRestartedSince(state) : brokers.registeredSince(id, state);
    }

    private static Optional<PartitionState> electNewLeader(List<Integer> replicas, PartitionState state, List<Integer> isrEligible,
                                                           IntPredicate restarted, Brokers brokers, int controllerEpoch) {
        Optional<Integer> candidate = replicas.stream().filter(isrEligible::contains).findFirst();
        if (candidate.isPresent()) {
            return Optional.of(state.withLeader(candidate.get(), brokers.brokerEpoch(candidate.get()), isrEligible, controllerEpoch));
        }
        boolean leaderAlive = state.hasLeader() && brokers.live(state.leader());
        if (leaderAlive && restarted.test(state.leader())) {
            // Restarted with nobody else in sync: it leads again, in a new epoch, given after its registration.
            return Optional.of(state.withLeader(state.leader(), brokers.brokerEpoch(state.leader()), List.of(state.leader()),
                    controllerEpoch));
        }
        if (leaderAlive && brokers.shuttingDown().contains(state.leader())) {
            return Optional.empty(); // nobody to hand over to: lead until actually gone
        }
        if (brokers.unclean()) {
            Optional<Integer> anyLive = replicas.stream().filter(brokers::eligible).findFirst();
            if (anyLive.isPresent()) {
                return Optional.of(state.withLeader(anyLive.get(), brokers.brokerEpoch(anyLive.get()), List.of(anyLive.get()),
                        controllerEpoch));
            }
        }
        if (!state.hasLeader()) {
            return Optional.empty();
        }
        // Offline: keep the ISR so that one of its members, and only one of them, can lead again.
        List<Integer> lastIsr = state.isr().isEmpty() ? List.of(state.leader()) : state.isr();
        return Optional.of(state.withLeader(PartitionState.NO_LEADER, PartitionState.UNKNOWN_BROKER_EPOCH, new ArrayList<>(lastIsr),
                controllerEpoch));
    }
}

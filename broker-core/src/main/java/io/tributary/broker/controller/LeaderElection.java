package io.tributary.broker.controller;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The controller's decision for one partition: given its replicas, its stored state and which
 * brokers are alive, what the state should become (empty: leave it). Pure; no I/O.
 *
 * <p>Rules, in order: a partition without a state gets its first live replica as leader and its
 * live replicas as ISR. A leader that is gone, restarted ("bounced": its log may be behind what it
 * acknowledged) or shutting down is replaced by the first replica, in assignment order, that is in
 * the ISR and eligible; with none, a shutting-down leader keeps leading until it is gone, and a
 * dead one leaves the partition offline (leader -1, ISR kept) unless unclean election is allowed.
 * A surviving leader keeps its epoch while dead or departing followers are dropped from the ISR.
 * A preferred-replica election moves leadership to the first replica when it is in the ISR.
 */
public final class LeaderElection {
    private LeaderElection() {
    }

    /**
     * What the controller knows about the brokers.
     *
     * @param live         registered brokers
     * @param shuttingDown brokers in a controlled shutdown
     * @param bounced      brokers that restarted since the controller last looked
     * @param unclean      may a replica outside the ISR be elected
     */
    public record Brokers(Set<Integer> live, Set<Integer> shuttingDown, Set<Integer> bounced, boolean unclean) {
        boolean eligible(int id) {
            return live.contains(id) && !shuttingDown.contains(id);
        }
    }

    /** A partition's new state, or empty if it should stay as it is. */
    public static Optional<PartitionState> decide(List<Integer> replicas, Optional<PartitionState> stored, Brokers brokers,
                                                  boolean preferredElection, int controllerEpoch) {
        if (stored.isEmpty()) {
            List<Integer> live = replicas.stream().filter(brokers::eligible).toList();
            return live.isEmpty() ? Optional.empty()
                    : Optional.of(new PartitionState(live.get(0), 0, live, controllerEpoch, -1));
        }
        PartitionState state = stored.get();
        List<Integer> isrEligible = state.isr().stream()
                .filter(id -> brokers.eligible(id) && !brokers.bounced().contains(id))
                .toList();
        boolean leaderOk = state.hasLeader() && brokers.eligible(state.leader()) && !brokers.bounced().contains(state.leader());
        if (!leaderOk) {
            return electNewLeader(replicas, state, isrEligible, brokers, controllerEpoch);
        }
        int preferred = replicas.get(0);
        if (preferredElection && preferred != state.leader() && isrEligible.contains(preferred)) {
            return Optional.of(state.withLeader(preferred, isrEligible, controllerEpoch));
        }
        return isrEligible.equals(state.isr()) ? Optional.empty() : Optional.of(state.withIsr(isrEligible));
    }

    private static Optional<PartitionState> electNewLeader(List<Integer> replicas, PartitionState state, List<Integer> isrEligible,
                                                           Brokers brokers, int controllerEpoch) {
        Optional<Integer> candidate = replicas.stream().filter(isrEligible::contains).findFirst();
        if (candidate.isPresent()) {
            return Optional.of(state.withLeader(candidate.get(), isrEligible, controllerEpoch));
        }
        boolean leaderAlive = state.hasLeader() && brokers.live().contains(state.leader());
        if (leaderAlive && brokers.shuttingDown().contains(state.leader()) && !brokers.bounced().contains(state.leader())) {
            return Optional.empty(); // nobody to hand over to: lead until actually gone
        }
        if (leaderAlive && brokers.bounced().contains(state.leader())) {
            // Restarted with nobody else in sync: it leads again, in a new epoch.
            return Optional.of(state.withLeader(state.leader(), List.of(state.leader()), controllerEpoch));
        }
        if (brokers.unclean()) {
            Optional<Integer> anyLive = replicas.stream().filter(brokers::eligible).findFirst();
            if (anyLive.isPresent()) {
                return Optional.of(state.withLeader(anyLive.get(), List.of(anyLive.get()), controllerEpoch));
            }
        }
        if (!state.hasLeader()) {
            return Optional.empty();
        }
        // Offline: keep the ISR so that one of its members, and only one of them, can lead again.
        List<Integer> lastIsr = state.isr().isEmpty() ? List.of(state.leader()) : state.isr();
        return Optional.of(state.withLeader(PartitionState.NO_LEADER, new ArrayList<>(lastIsr), controllerEpoch));
    }
}

package io.tributary.broker.controller;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import io.tributary.broker.cluster.TopicAssignment;
import io.tributary.broker.cluster.TopicAssignment.Reassignment;
import io.tributary.broker.cluster.TopicStore;
import io.tributary.broker.cluster.ZkClient;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ControllerMovedException;
import org.apache.kafka.common.errors.EligibleLeadersNotAvailableException;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.NoReassignmentInProgressException;
import org.apache.kafka.common.errors.ReassignmentInProgressException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.requests.ApiError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's partition reassignments (KIP-455 over Kafka's ZooKeeper layout). A reassignment lives in the
 * topic's assignment node only: the full replica list (target first, then the original replicas leaving) with
 * {@code adding_replicas} and {@code removing_replicas}, written in one compare-and-set, so a controller that dies at
 * any point leaves either the old assignment or the reassignment, and the next controller carries on from ZooKeeper.
 *
 * <p>The new replicas see themselves in the assignment and start following; the leader counts them as followers and
 * adds them to the ISR once caught up, as any follower. When every target replica is in the ISR the controller
 * first fits the partition state to the target (a new leader from the target's ISR members if the leader leaves,
 * in a new epoch; otherwise the leaving replicas out of the ISR at the same epoch), and only once ZooKeeper holds
 * that state does it write the assignment without the leaving replicas. Those brokers then drop the replica and
 * delete its log. Acknowledged records are safe throughout: the target replicas were all in the ISR, so they hold
 * everything below the high watermark, and leaders are elected only from the ISR. A cancellation, or a new
 * target replacing a reassignment in progress, shrinks the replica set the same way, without waiting for anyone.
 * Runs on the cluster event thread only, as the controller.
 */
final class Reassignments {
    private static final Logger log = LoggerFactory.getLogger(Reassignments.class);
    private static final int ATTEMPTS = 5;

    private final ClusterView view;
    private final PartitionStateStore states;
    private final TopicStore topics;

    Reassignments(ClusterView view, PartitionStateStore states, TopicStore topics) {
        this.view = view;
        this.states = states;
        this.topics = topics;
    }

    /**
     * The state a partition must have before its replica set may become {@code replicas}: a leader and ISR among
     * them. Empty if the stored state fits already.
     *
     * @throws EligibleLeadersNotAvailableException if none of {@code replicas} is an eligible member of the ISR
     */
    static Optional<PartitionState> fitTo(List<Integer> replicas, PartitionState state, LeaderElection.Brokers brokers,
                                          int controllerEpoch) {
        List<Integer> isr = state.isr().stream().filter(replicas::contains).toList();
        if (state.hasLeader() && LeaderElection.leaderOk(replicas, state, brokers)) {
            return isr.equals(state.isr()) ? Optional.empty() : Optional.of(state.withIsr(isr));
        }
        if (!state.hasLeader()) {
            if (isr.isEmpty()) {
                throw new EligibleLeadersNotAvailableException("No member of the last ISR " + state.isr() + " is among " + replicas);
            }
            return isr.equals(state.isr()) ? Optional.empty() : Optional.of(state.withIsr(isr));
        }
        List<Integer> eligible = LeaderElection.isrEligible(replicas, state, brokers);
        int leader = replicas.stream().filter(eligible::contains).findFirst().orElseThrow(() ->
                new EligibleLeadersNotAvailableException("No replica of " + replicas + " is an eligible member of the ISR " + state.isr()));
        return Optional.of(state.withLeader(leader, brokers.brokerEpoch(leader), eligible, controllerEpoch));
    }

    /** Completes every reassignment whose target replicas are all in sync. */
    void progress(ControllerElection.ControllerEpoch controller, LeaderElection.Brokers brokers) {
        for (String topic : view.topics()) {
            Optional<TopicAssignment> assignment = view.assignment(topic);
            if (assignment.isEmpty() || assignment.get().reassignments().isEmpty()) {
                continue;
            }
            List<Integer> completable = new ArrayList<>();
            for (int partition : assignment.get().reassignments().keySet()) {
                List<Integer> target = assignment.get().targetReplicas(partition);
                TopicPartition tp = new TopicPartition(topic, partition);
                Optional<PartitionState> state = view.partitionState(tp);
                if (state.isEmpty() || !state.get().hasLeader() || !state.get().isr().containsAll(target)) {
                    continue; // the new replicas are catching up
                }
                try {
                    Optional<PartitionState> fitted = fitTo(target, state.get(), brokers, controller.epoch());
                    if (fitted.isPresent()) {
                        writeState(tp, fitted.get(), controller);
                    } else {
                        completable.add(partition);
                    }
                } catch (EligibleLeadersNotAvailableException e) {
                    log.debug("{}: reassignment waits: {}", tp, e.getMessage());
                }
            }
            if (!completable.isEmpty()) {
                complete(topic, completable, controller, brokers);
            }
        }
    }

    /** Writes the assignment without the leaving replicas, for the partitions whose stored state fits the target. */
    private void complete(String topic, List<Integer> partitions, ControllerElection.ControllerEpoch controller,
                          LeaderElection.Brokers brokers) {
        Optional<TopicStore.VersionedAssignment> stored = topics.versionedAssignment(topic);
        if (stored.isEmpty()) {
            return;
        }
        TopicAssignment updated = stored.get().assignment();
        List<Integer> done = new ArrayList<>();
        for (int partition : partitions) {
            if (!updated.reassignments().containsKey(partition)) {
                continue;
            }
            List<Integer> target = updated.targetReplicas(partition);
            Optional<PartitionState> state = states.read(new TopicPartition(topic, partition));
            if (state.isPresent() && state.get().isr().containsAll(target) && fitsNow(target, state.get(), brokers, controller)) {
                updated = updated.withPartition(partition, target, null);
                done.add(partition);
            }
        }
        if (!done.isEmpty() && replace(updated, stored.get().version(), controller)) {
            done.forEach(partition -> log.info("{}-{}: reassignment completed, replicas {}", topic, partition,
                    stored.get().assignment().targetReplicas(partition)));
        }
    }

    private static boolean fitsNow(List<Integer> target, PartitionState state, LeaderElection.Brokers brokers,
                                   ControllerElection.ControllerEpoch controller) {
        try {
            return fitTo(target, state, brokers, controller.epoch()).isEmpty();
        } catch (EligibleLeadersNotAvailableException e) {
            return false;
        }
    }

    /**
     * AlterPartitionReassignments: for each partition a target replica list, or empty to cancel its reassignment.
     *
     * @return each partition's outcome
     */
    Map<TopicPartition, ApiError> alter(Map<TopicPartition, Optional<List<Integer>>> requested,
                                        ControllerElection.ControllerEpoch controller, LeaderElection.Brokers brokers) {
        Map<TopicPartition, ApiError> results = new LinkedHashMap<>();
        Map<String, Map<Integer, Optional<List<Integer>>>> byTopic = new TreeMap<>();
        requested.forEach((tp, target) -> byTopic.computeIfAbsent(tp.topic(), t -> new TreeMap<>()).put(tp.partition(), target));
        byTopic.forEach((topic, partitions) -> results.putAll(alterTopic(topic, partitions, controller, brokers)));
        return results;
    }

    private Map<TopicPartition, ApiError> alterTopic(String topic, Map<Integer, Optional<List<Integer>>> partitions,
                                                     ControllerElection.ControllerEpoch controller, LeaderElection.Brokers brokers) {
        for (int attempt = 1; ; attempt++) {
            Map<TopicPartition, ApiError> results = new LinkedHashMap<>();
            Optional<TopicStore.VersionedAssignment> stored = topics.versionedAssignment(topic);
            TopicAssignment updated = stored.map(TopicStore.VersionedAssignment::assignment).orElse(null);
            boolean changed = false;
            for (Map.Entry<Integer, Optional<List<Integer>>> entry : partitions.entrySet()) {
                TopicPartition tp = new TopicPartition(topic, entry.getKey());
                try {
                    if (updated == null || !updated.replicas().containsKey(entry.getKey())) {
                        throw new UnknownTopicOrPartitionException("Unknown partition " + tp);
                    }
                    TopicAssignment next = reassigned(updated, entry.getKey(), entry.getValue(), brokers);
                    if (!next.equals(updated)) {
                        fitBeforeShrinking(tp, next.replicas().get(entry.getKey()), controller, brokers);
                        updated = next;
                        changed = true;
                    }
                    results.put(tp, ApiError.NONE);
                } catch (ControllerMovedException e) {
                    throw e;
                } catch (RuntimeException e) {
                    results.put(tp, ApiError.fromThrowable(e));
                }
            }
            if (!changed || replace(updated, stored.get().version(), controller)) {
                return results;
            }
            if (attempt == ATTEMPTS) {
                ApiError busy = ApiError.fromThrowable(new ReassignmentInProgressException(
                        "The assignment of " + topic + " kept changing; try again"));
                results.replaceAll((tp, error) -> error.isSuccess() ? busy : error);
                return results;
            }
        }
    }

    /** The assignment after one partition's request: a new target (replacing one in progress), or a cancellation. */
    private TopicAssignment reassigned(TopicAssignment current, int partition, Optional<List<Integer>> target,
                                       LeaderElection.Brokers brokers) {
        List<Integer> original = current.originalReplicas(partition);
        if (target.isEmpty()) {
            if (!current.reassignments().containsKey(partition)) {
                throw new NoReassignmentInProgressException("No reassignment of " + current.name() + "-" + partition + " is in progress");
            }
            return current.withPartition(partition, original, null);
        }
        List<Integer> replicas = target.get();
        if (replicas.isEmpty() || new HashSet<>(replicas).size() != replicas.size()) {
            throw new InvalidReplicaAssignmentException("The target replicas " + replicas + " must be distinct and not empty");
        }
        List<Integer> unknown = replicas.stream().filter(id -> !brokers.live(id)).toList();
        if (!unknown.isEmpty()) {
            throw new InvalidReplicaAssignmentException("Replica assignment has brokers that are not alive: " + unknown);
        }
        Map.Entry<List<Integer>, Reassignment> moving = Reassignment.moving(original, replicas);
        return current.withPartition(partition, moving.getKey(), moving.getValue());
    }

    /** Before brokers leave a partition's replica list at once (a cancellation), its leader and ISR must be among the rest. */
    private void fitBeforeShrinking(TopicPartition tp, List<Integer> replicas, ControllerElection.ControllerEpoch controller,
                                    LeaderElection.Brokers brokers) {
        Optional<PartitionState> state = states.read(tp);
        if (state.isEmpty()) {
            return;
        }
        Optional<PartitionState> fitted = fitTo(replicas, state.get(), brokers, controller.epoch());
        if (fitted.isPresent() && !writeState(tp, fitted.get(), controller)) {
            throw new ReassignmentInProgressException("The state of " + tp + " changed meanwhile; try again");
        }
    }

    private boolean writeState(TopicPartition tp, PartitionState state, ControllerElection.ControllerEpoch controller) {
        boolean written = states.updateAsController(tp, state, controller).isPresent();
        if (written) {
            log.info("{}: for its reassignment: leader {} epoch {} isr {}", tp, state.leader(), state.leaderEpoch(), state.isr());
        }
        return written;
    }

    private boolean replace(TopicAssignment assignment, int version, ControllerElection.ControllerEpoch controller) {
        try {
            return topics.replaceAssignment(assignment, version, controller.fence());
        } catch (ZkClient.FenceFailedException e) {
            throw new ControllerMovedException("controller epoch " + controller.epoch() + " was superseded");
        }
    }

    /**
     * ListPartitionReassignments: the reassignments in progress, read from ZooKeeper now (not from the watch's cache),
     * so a client sees its own AlterPartitionReassignments at once.
     */
    Map<TopicPartition, TopicAssignment> inProgress() {
        Map<TopicPartition, TopicAssignment> found = new LinkedHashMap<>();
        for (String topic : topics.topicNames()) {
            topics.versionedAssignment(topic).map(TopicStore.VersionedAssignment::assignment)
                    .ifPresent(assignment -> assignment.reassignments().keySet()
                            .forEach(partition -> found.put(new TopicPartition(topic, partition), assignment)));
        }
        return found;
    }
}

package io.tributary.broker.controller;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.cluster.TopicAssignment;
import io.tributary.broker.cluster.TopicStore;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.replica.ReplicationConfig;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ControllerMovedException;
import org.apache.kafka.common.errors.NotControllerException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller: every broker runs one, and the one that wins {@link ControllerElection} acts.
 * On every cluster change (and every {@value #TICK_MS} ms) the active controller walks all
 * partitions and writes the states {@link LeaderElection} asks for — first states of new
 * partitions, new leaders when a leader dies, restarts (see {@link LeaderElection}) or shuts down, ISR clean-up, and
 * preferred-replica elections every {@code leader.imbalance.check.interval.seconds} when
 * {@code auto.leader.rebalance.enable}, and the steps of partition reassignments ({@link Reassignments}). The
 * admin APIs that only the controller serves (AlterPartitionReassignments, ElectLeaders) run here too, on the same
 * thread. Brokers learn the result through their ZooKeeper watches.
 * Runs on the cluster event thread only.
 */
public final class Controller implements AutoCloseable {
    static final long TICK_MS = 500;
    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    private final ClusterView view;
    private final PartitionStateStore states;
    private final Reassignments reassignments;
    private final ControllerElection election;
    private final ReplicationConfig config;
    private final Time time;
    private final ScheduledExecutorService ticker;
    private long lastPreferredElectionMs;
    private volatile boolean closed;
    private volatile boolean started;

    private Controller(ClusterView view, ZkClient zk, ReplicationConfig config, Time time) {
        this.view = view;
        this.states = new PartitionStateStore(zk);
        this.reassignments = new Reassignments(view, states, new TopicStore(zk));
        this.election = new ControllerElection(zk, config.brokerId(), time);
        this.config = config;
        this.time = time;
        this.lastPreferredElectionMs = time.milliseconds();
        this.ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tributary-controller-tick");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** A controller that takes no part in the election until {@link #start}; its admin operations answer NOT_CONTROLLER. */
    public static Controller create(ClusterView view, ZkClient zk, ReplicationConfig config, Time time) {
        return new Controller(view, zk, config, time);
    }

    /**
     * Takes part in the election from now on.
     *
     * @param earlierProcessGone an earlier process of this broker is certainly gone (it hosted the embedded ZooKeeper
     *                           server): its {@code /controller} node, if any, is deleted instead of waited out
     */
    public void start(boolean earlierProcessGone) {
        started = true;
        if (earlierProcessGone) {
            view.submit(election::deleteEarlierProcessesNode);
        }
        view.addListener(path -> onChange());
        ticker.scheduleWithFixedDelay(() -> view.submit(this::onChange), 0, TICK_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * AlterPartitionReassignments, if this broker is the controller: for each partition a target replica list, or
     * empty to cancel its reassignment (see {@link Reassignments}).
     *
     * @return each partition's outcome; fails with NotControllerException on any other broker
     */
    public CompletableFuture<Map<TopicPartition, ApiError>> alterReassignments(Map<TopicPartition, Optional<List<Integer>>> targets) {
        return asController((controller, brokers) -> reassignments.alter(targets, controller, brokers));
    }

    /** ListPartitionReassignments: each partition being reassigned, with its topic's assignment (read from ZooKeeper now). */
    public Map<TopicPartition, TopicAssignment> reassignmentsInProgress() {
        return reassignments.inProgress();
    }

    /**
     * ElectLeaders, if this broker is the controller: a preferred-replica or an unclean election of each partition
     * ({@code null}: of every partition).
     *
     * @return each partition's outcome (ELECTION_NOT_NEEDED where the leader qualifies already)
     */
    public CompletableFuture<Map<TopicPartition, ApiError>> electLeaders(ElectionType type, Set<TopicPartition> partitions) {
        return asController((controller, brokers) -> {
            Map<TopicPartition, ApiError> results = new LinkedHashMap<>();
            Set<TopicPartition> wanted = partitions != null ? partitions : allPartitions();
            for (TopicPartition tp : wanted) {
                results.put(tp, elect(type, tp, controller, brokers));
            }
            return results;
        });
    }

    private Set<TopicPartition> allPartitions() {
        Set<TopicPartition> all = new LinkedHashSet<>();
        for (String topic : view.topics()) {
            view.replicas(topic).keySet().forEach(partition -> all.add(new TopicPartition(topic, partition)));
        }
        return all;
    }

    private ApiError elect(ElectionType type, TopicPartition tp, ControllerElection.ControllerEpoch controller,
                           LeaderElection.Brokers brokers) {
        List<Integer> replicas = view.replicas(tp.topic()).get(tp.partition());
        Optional<PartitionState> stored = replicas == null ? Optional.empty() : states.read(tp);
        if (stored.isEmpty()) {
            return new ApiError(Errors.UNKNOWN_TOPIC_OR_PARTITION, "Unknown partition " + tp);
        }
        PartitionState state = stored.get();
        Optional<PartitionState> elected;
        if (type == ElectionType.PREFERRED) {
            if (state.leader() == replicas.get(0)) {
                return new ApiError(Errors.ELECTION_NOT_NEEDED, "Leader election not needed for topic partition");
            }
            elected = LeaderElection.preferred(replicas, state, brokers, controller.epoch());
            if (elected.isEmpty()) {
                return new ApiError(Errors.PREFERRED_LEADER_NOT_AVAILABLE, "The preferred leader " + replicas.get(0) + " of " + tp
                        + " is not an eligible member of the ISR " + state.isr());
            }
        } else {
            if (LeaderElection.leaderOk(replicas, state, brokers)) {
                return new ApiError(Errors.ELECTION_NOT_NEEDED, "Leader election not needed for topic partition");
            }
            // An unclean election still prefers the ISR: decide() elects from it first, and outside it only if allowed.
            elected = LeaderElection.decide(replicas, stored, brokers.withUnclean(true), false, controller.epoch())
                    .filter(PartitionState::hasLeader);
            if (elected.isEmpty()) {
                return new ApiError(Errors.ELIGIBLE_LEADERS_NOT_AVAILABLE, "No live replica of " + tp + " can lead");
            }
        }
        if (states.updateAsController(tp, elected.get(), controller).isEmpty()) {
            return new ApiError(Errors.NOT_CONTROLLER, "The state of " + tp + " changed meanwhile; try again");
        }
        log.info("{}: {} election: leader {} epoch {} isr {}", tp, type, elected.get().leader(), elected.get().leaderEpoch(),
                elected.get().isr());
        return ApiError.NONE;
    }

    /** Runs {@code operation} on the cluster event thread if this broker is the controller. */
    private <T> CompletableFuture<T> asController(
            java.util.function.BiFunction<ControllerElection.ControllerEpoch, LeaderElection.Brokers, T> operation) {
        CompletableFuture<T> result = new CompletableFuture<>();
        if (!started || closed) {
            result.completeExceptionally(new NotControllerException("broker " + config.brokerId() + " is not the controller"));
            return result;
        }
        view.submit(() -> {
            try {
                Optional<ControllerElection.ControllerEpoch> controller = election.maybeElect();
                if (controller.isEmpty()) {
                    throw new NotControllerException("broker " + config.brokerId() + " is not the controller");
                }
                result.complete(operation.apply(controller.get(), brokers()));
            } catch (ControllerMovedException e) {
                election.deposed();
                result.completeExceptionally(new NotControllerException(e.getMessage()));
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    private LeaderElection.Brokers brokers() {
        Map<Integer, Long> registrations = new HashMap<>();
        view.liveBrokers().values().forEach(broker -> registrations.put(broker.id(), broker.registrationZxid()));
        return new LeaderElection.Brokers(registrations, view.shuttingDown(), config.uncleanLeaderElection());
    }

    private void onChange() {
        if (closed) {
            return;
        }
        election.maybeElect().ifPresent(this::reconcile);
    }

    private void reconcile(ControllerElection.ControllerEpoch controller) {
        long now = time.milliseconds();
        boolean preferred = config.autoLeaderRebalance() && now - lastPreferredElectionMs >= config.leaderImbalanceCheckMs();
        LeaderElection.Brokers brokers = brokers();
        try {
            for (String topic : view.topics()) {
                LeaderElection.Brokers forTopic = brokers.withUnclean(uncleanElection(topic));
                for (Map.Entry<Integer, List<Integer>> partition : view.replicas(topic).entrySet()) {
                    TopicPartition tp = new TopicPartition(topic, partition.getKey());
                    Optional<PartitionState> stored = view.partitionState(tp);
                    LeaderElection.decide(partition.getValue(), stored, forTopic, preferred, controller.epoch())
                            .ifPresent(decided -> write(tp, stored, decided, controller));
                }
            }
            reassignments.progress(controller, brokers);
        } catch (ControllerMovedException e) {
            election.deposed();
            return;
        }
        if (preferred) {
            lastPreferredElectionMs = now;
        }
    }

    /** unclean.leader.election.enable of {@code topic}: its override, else the broker's setting. */
    private boolean uncleanElection(String topic) {
        return view.topicOverride(topic, LogConfig.UNCLEAN_LEADER_ELECTION_ENABLE).map(Boolean::parseBoolean)
                .orElse(config.uncleanLeaderElection());
    }

    /** @throws ControllerMovedException if another controller was elected since {@code controller}: nothing was written */
    private void write(TopicPartition partition, Optional<PartitionState> stored, PartitionState decided,
                       ControllerElection.ControllerEpoch controller) {
        try {
            boolean written = stored.isEmpty() ? states.createIfAbsentAsController(partition, decided, controller)
                    : states.updateAsController(partition, decided, controller).isPresent();
            if (written) {
                log.info("{}: leader {} epoch {} isr {}", partition, decided.leader(), decided.leaderEpoch(), decided.isr());
            }
        } catch (ControllerMovedException e) {
            throw e;
        } catch (RuntimeException e) {
            log.warn("could not write the state of {}: {}", partition, e.getMessage());
        }
    }

    /**
     * Stops acting. The role itself goes with this broker's ZooKeeper session, which the server
     * closes last, so another broker takes over at once.
     */
    @Override
    public void close() {
        closed = true;
        ticker.shutdownNow();
    }
}

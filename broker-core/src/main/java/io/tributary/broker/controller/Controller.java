package io.tributary.broker.controller;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.replica.ReplicationConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ControllerMovedException;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller: every broker runs one, and the one that wins {@link ControllerElection} acts.
 * On every cluster change (and every {@value #TICK_MS} ms) the active controller walks all
 * partitions and writes the states {@link LeaderElection} asks for — first states of new
 * partitions, new leaders when a leader dies, restarts (see {@link LeaderElection}) or shuts down, ISR clean-up, and
 * preferred-replica elections every {@code leader.imbalance.check.interval.seconds} when
 * {@code auto.leader.rebalance.enable}. Brokers learn the result through their ZooKeeper watches.
 * Runs on the cluster event thread only.
 */
public final class Controller implements AutoCloseable {
    static final long TICK_MS = 500;
    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    private final ClusterView view;
    private final PartitionStateStore states;
    private final ControllerElection election;
    private final ReplicationConfig config;
    private final Time time;
    private final ScheduledExecutorService ticker;
    private long lastPreferredElectionMs;
    private volatile boolean closed;

    private Controller(ClusterView view, ZkClient zk, ReplicationConfig config, Time time) {
        this.view = view;
        this.states = new PartitionStateStore(zk);
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

    /** Takes part in the election from now on. */
    public static Controller start(ClusterView view, ZkClient zk, ReplicationConfig config, Time time) {
        Controller controller = new Controller(view, zk, config, time);
        view.addListener(path -> controller.onChange());
        controller.ticker.scheduleWithFixedDelay(() -> view.submit(controller::onChange), 0, TICK_MS, TimeUnit.MILLISECONDS);
        return controller;
    }

    private void onChange() {
        if (closed) {
            return;
        }
        election.maybeElect().ifPresent(this::reconcile);
    }

    private void reconcile(ControllerElection.ControllerEpoch controller) {
        Map<Integer, Long> registrations = new HashMap<>();
        view.liveBrokers().values().forEach(broker -> registrations.put(broker.id(), broker.registrationZxid()));
        long now = time.milliseconds();
        boolean preferred = config.autoLeaderRebalance() && now - lastPreferredElectionMs >= config.leaderImbalanceCheckMs();
        LeaderElection.Brokers brokers = new LeaderElection.Brokers(registrations, view.shuttingDown(), config.uncleanLeaderElection());
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

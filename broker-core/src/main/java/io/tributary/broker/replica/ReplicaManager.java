package io.tributary.broker.replica;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.cluster.BrokerRegistry;
import io.tributary.broker.cluster.TopicListener;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.cluster.TopicManager.TopicState;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.controller.ClusterView;
import io.tributary.broker.controller.LeaderElection;
import io.tributary.broker.controller.PartitionState;
import io.tributary.broker.controller.PartitionStateStore;
import io.tributary.broker.log.AppendOrigin;
import io.tributary.broker.log.IdempotentAppender;
import io.tributary.broker.log.LogAppendInfo;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.log.VerificationGuard;
import io.tributary.broker.log.ProducerStateManager;
import io.tributary.broker.log.remote.LeaderView;
import io.tributary.broker.log.remote.RemoteStorage;
import io.tributary.broker.metrics.BrokerTopicStats;
import io.tributary.broker.metrics.IsrChanges;
import io.tributary.broker.purgatory.Purgatory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.errors.LogDirNotFoundException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replicas this broker holds: applies each partition's state from ZooKeeper (lead, follow, or
 * drop), appends as leader, records follower fetches, keeps acks=-1 produces waiting until the ISR
 * has the records, checks the ISRs for laggards every half {@code replica.lag.time.max.ms}, and
 * checkpoints the high watermarks ({@link HighWatermarkCheckpoints}); listeners hear of every
 * leadership gained or lost. Fetches waiting in the fetch purgatory are woken when a log end or
 * high watermark moves. It moves replicas between this broker's log dirs (AlterReplicaLogDirs, {@link LogDirMoves}),
 * and describes their logs (DescribeLogDirs).
 * Thread-safe; state changes are serialised.
 */
public final class ReplicaManager implements TopicListener, LeaderView, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ReplicaManager.class);
    private static final long NO_DEADLINE = Long.MAX_VALUE;

    private final ReplicationConfig config;
    private final TopicManager topics;
    private final LogManager logs;
    private final IdempotentAppender appender;
    private final Purgatory<TopicPartition> fetchWaiters;
    private final Purgatory<TopicPartition> produceWaiters = new Purgatory<>("produce");
    private final ClusterView view;
    private final PartitionStateStore states;
    private final Time time;
    private final ReplicaFetchers fetchers;
    private final ZooKeeperIsrWriter isrWriter;
    private final Map<TopicPartition, Partition> partitions = new ConcurrentHashMap<>();
    private final List<LeadershipListener> leadershipListeners = new CopyOnWriteArrayList<>();
    private final HighWatermarkCheckpoints highWatermarks;
    private final ScheduledExecutorService background;
    /** Runs resignations alone, so that neither the ISR checks nor the checkpoints can hold them up. */
    private final ScheduledExecutorService resignations;
    /**
     * Serialise reading a partition's state from ZooKeeper and applying it (a state read later is applied later), one
     * stripe per group of partitions. This object's lock is taken only to apply what was read, never while ZooKeeper
     * is asked, so a read waiting for an unreachable ZooKeeper holds up neither other partitions nor a resignation.
     */
    private final Object[] stateReads = new Object[64];
    private final Object resignationLock = new Object();
    /**
     * Since the ZooKeeper connection was suspended: when the server may expire the session ({@link Time#nanoseconds});
     * written under {@code resignationLock}.
     */
    private volatile long sessionMayExpireAtNanos = NO_DEADLINE;
    private ScheduledFuture<?> pendingResignation; // guarded by resignationLock
    private final BrokerTopicStats topicStats = new BrokerTopicStats();
    private final IsrChanges isrChanges = new IsrChanges();
    private final ReplicationThrottle leaderThrottle;
    private final ReplicationThrottle followerThrottle;
    private final ReplicationThrottle alterLogDirsThrottle;
    private final LogDirMoves logDirMoves;

    /** Hears, on the thread that applied the change, of each partition this broker starts or stops leading. */
    public interface LeadershipListener {
        /** This broker leads {@code partition} at a new epoch. */
        void becameLeader(TopicPartition partition, int leaderEpoch);

        /** This broker no longer leads {@code partition}: it follows, the partition has no leader, or the replica is gone. */
        void resigned(TopicPartition partition);
    }

    /**
     * A leader's log and what a reader may see of it: up to the high watermark, and for read_committed up to the
     * last stable offset (the high watermark or, if lower, the first offset of the oldest open transaction).
     */
    public record LeaderRead(PartitionLog log, long highWatermark, long lastStableOffset, int leaderEpoch) {
    }

    public ReplicaManager(ReplicationConfig config, TopicManager topics, LogManager logs, IdempotentAppender appender,
                          Purgatory<TopicPartition> fetchWaiters, ClusterView view, PartitionStateStore states,
                          HighWatermarkCheckpoints highWatermarks, Time time,
                          Optional<RemoteStorage> remoteStorage) {
        this.config = config;
        this.topics = topics;
        this.logs = logs;
        this.appender = appender;
        this.fetchWaiters = fetchWaiters;
        this.view = view;
        this.states = states;
        this.highWatermarks = highWatermarks;
        this.time = time;
        Arrays.setAll(stateReads, i -> new Object());
        this.leaderThrottle = new ReplicationThrottle("leader", ReplicationThrottle.UNTHROTTLED, time);
        this.followerThrottle = new ReplicationThrottle("follower", ReplicationThrottle.UNTHROTTLED, time);
        this.alterLogDirsThrottle = new ReplicationThrottle("alter-log-dirs", ReplicationThrottle.UNTHROTTLED, time);
        this.logDirMoves = new LogDirMoves(config.fetchMaxBytes(), alterLogDirsThrottle, logs::replaceCurrentWithFuture);
        this.fetchers = new ReplicaFetchers(config, view::broker, followerThrottle, remoteStorage);
        this.isrWriter = new ZooKeeperIsrWriter(states);
        this.background = Executors.newSingleThreadScheduledExecutor(daemon("tributary-replica-background"));
        this.resignations = Executors.newSingleThreadScheduledExecutor(daemon("tributary-replica-resignations"));
        long interval = Math.max(1, config.replicaLagTimeMaxMs() / 2);
        background.scheduleWithFixedDelay(this::shrinkIsrs, interval, interval, TimeUnit.MILLISECONDS);
        long checkpointInterval = config.highWatermarkCheckpointIntervalMs();
        background.scheduleWithFixedDelay(this::checkpointHighWatermarks, checkpointInterval, checkpointInterval, TimeUnit.MILLISECONDS);
    }

    static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * {@code listener} hears of every partition this broker starts or stops leading from now on,
     * and at once of those it leads already.
     */
    public synchronized void addLeadershipListener(LeadershipListener listener) {
        leadershipListeners.add(listener);
        partitions.forEach((tp, partition) -> {
            if (partition.isLeader()) {
                listener.becameLeader(tp, partition.leaderEpoch());
            }
        });
    }

    /**
     * Reacts to a ZooKeeper change: a partition state path re-applies that partition; a change of this broker's
     * own registration (made, or gone with an expired session) re-applies every partition, since it decides
     * which states this broker may lead under.
     */
    public void onClusterChange(String path) {
        TopicPartition partition = PartitionState.partitionOf(path);
        if (partition != null) {
            apply(partition);
        } else if (path.equals(BrokerRegistry.brokerPath(config.brokerId()))) {
            partitions.keySet().forEach(this::apply);
        }
    }

    /**
     * Follows this broker's ZooKeeper connection (Curator's connection states). Once the server may have expired this
     * broker's session, the controller may have elected other leaders, and no watch can say so while ZooKeeper is out
     * of reach: every leadership another broker could be elected to (another member in the ISR, or unclean election
     * on) ends, so this broker acknowledges nothing more as a zombie, acks=1 included, and its groups move. That point
     * comes {@link ZkClient#sessionMayExpireAfterSuspensionMs} after the connection is SUSPENDED (Curator's LOST comes
     * later): the resignation is scheduled then, and until it has run appends to those partitions are refused past
     * the deadline ({@link #appendAsLeader}). A LOST session resigns at once. A partition whose ISR is this broker
     * alone keeps its leader (without unclean election nobody else may lead it), so a broker on its own goes on
     * serving while ZooKeeper is away. When the connection is back (RECONNECTED) a pending resignation is called off,
     * and every partition's state is applied again (on the cluster event thread, after the changes the watches
     * deliver): in the same session it leads again what it led; with a new session only once it has registered anew
     * and the controller has elected for that registration ({@link #mayLeadUnder}).
     *
     * @param sessionMayExpireAfterMs for SUSPENDED: how soon the server may expire the session
     */
    public void zooKeeperConnectionChanged(ConnectionState state, long sessionMayExpireAfterMs) {
        switch (state) {
            case SUSPENDED -> scheduleResignation(sessionMayExpireAfterMs);
            case LOST -> {
                sessionLostNow();
                resignWhereOthersMayLead("is lost");
            }
            case RECONNECTED -> {
                callOffResignation();
                view.submit(() -> partitions.keySet().forEach(this::apply));
            }
            default -> {
            }
        }
    }

    // Not under this object's lock, which apply() may hold while it waits for ZooKeeper: the deadline must be set
    // at once, since appends check it.
    private void scheduleResignation(long delayMs) {
        synchronized (resignationLock) {
            long deadline = time.nanoseconds() + TimeUnit.MILLISECONDS.toNanos(delayMs);
            sessionMayExpireAtNanos = deadline;
            if (pendingResignation != null) {
                pendingResignation.cancel(false);
            }
            try {
                pendingResignation = resignations.schedule(() -> resignIfStillDue(deadline), delayMs, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                return; // closed: the broker is shutting down
            }
        }
        log.warn("ZooKeeper connection suspended: the leaderships other brokers could take end in {} ms unless it is back "
                + "by then (the server may expire the session from then on)", delayMs);
    }

    private void sessionLostNow() {
        synchronized (resignationLock) {
            long now = time.nanoseconds();
            if (sessionMayExpireAtNanos == NO_DEADLINE || now - sessionMayExpireAtNanos < 0) {
                sessionMayExpireAtNanos = now;
            }
        }
    }

    private void callOffResignation() {
        synchronized (resignationLock) {
            sessionMayExpireAtNanos = NO_DEADLINE;
            if (pendingResignation != null) {
                pendingResignation.cancel(false);
                pendingResignation = null;
            }
        }
    }

    /** The scheduled resignation, unless the connection came back (or was suspended anew) while it waited. */
    private void resignIfStillDue(long deadline) {
        if (sessionMayExpireAtNanos == deadline) {
            resignWhereOthersMayLead("may have expired");
        }
    }

    /** Whether the server may have expired this broker's session: the connection is lost, or suspended for too long. */
    private boolean sessionMayHaveExpired() {
        long deadline = sessionMayExpireAtNanos;
        return deadline != NO_DEADLINE && time.nanoseconds() - deadline >= 0;
    }

    /**
     * Past the session deadline nothing is acknowledged any more whatever locks are held ({@link #appendAsLeader},
     * {@link #replicationStatus}): first the waiting acks=-1 produces are answered, taking no lock, then the
     * leaderships end under this object's lock, which is never held while ZooKeeper is asked ({@link #apply}).
     */
    private void resignWhereOthersMayLead(String sessionState) {
        partitions.keySet().forEach(produceWaiters::checkAndComplete);
        endLeadershipsWhereOthersMayLead(sessionState);
    }

    private synchronized void endLeadershipsWhereOthersMayLead(String sessionState) {
        if (!sessionMayHaveExpired()) {
            return; // the connection came back (its RECONNECTED applies every state again) or was suspended anew
        }
        partitions.forEach((tp, partition) -> {
            if (partition.isLeader() && anotherMayBeElected(partition)) {
                log.warn("{}: resigning: the ZooKeeper session under which this broker led at epoch {} {}", tp,
                        partition.leaderEpoch(), sessionState);
                partition.makeNone();
                leadershipListeners.forEach(listener -> listener.resigned(tp));
                produceWaiters.checkAndComplete(tp);
                fetchWaiters.checkAndComplete(tp);
            }
        });
    }

    /** unclean.leader.election.enable is the topic's own where it has one (the controller elects by it). */
    private boolean anotherMayBeElected(Partition partition) {
        return partition.othersInSync() || partition.log().config().uncleanLeaderElectionEnable();
    }

    @Override
    public void topicChanged(TopicState topic) {
        writeFirstStatesIfMissing(topic);
        topic.assignment().replicas().keySet().forEach(index -> apply(new TopicPartition(topic.name(), index)));
    }

    /**
     * The first state of each new partition, written by whoever created it (the controller would
     * write the same, a moment later): the first live replica leads at epoch 0, the live replicas
     * are in sync. One ZooKeeper transaction for all of them.
     */
    private void writeFirstStatesIfMissing(TopicState topic) {
        try {
            Map<Integer, Long> live = new HashMap<>();
            view.liveBrokers().values().forEach(broker -> live.put(broker.id(), broker.registrationZxid()));
            live.putIfAbsent(config.brokerId(), PartitionState.UNKNOWN_BROKER_EPOCH);
            LeaderElection.Brokers brokers = new LeaderElection.Brokers(live, Set.of(), false);
            Map<TopicPartition, PartitionState> firstStates = new LinkedHashMap<>();
            topic.assignment().replicas().forEach((index, replicas) -> {
                TopicPartition partition = new TopicPartition(topic.name(), index);
                if (states.read(partition).isEmpty()) {
                    LeaderElection.decide(replicas, Optional.empty(), brokers, false, 0)
                            .ifPresent(state -> firstStates.put(partition, state));
                }
            });
            states.createAllIfAbsent(topic.name(), firstStates);
        } catch (RuntimeException e) {
            log.warn("could not write the first states of {}: {}", topic.name(), e.getMessage());
        }
    }

    @Override
    public void topicDeleted(TopicState topic) {
        topic.assignment().replicas().keySet().forEach(index -> drop(new TopicPartition(topic.name(), index)));
    }

    /** Applies the partition's current state in ZooKeeper to this broker's replica. */
    public void apply(TopicPartition tp) {
        synchronized (stateReads[Utils.toPositive(tp.hashCode()) % stateReads.length]) {
            Optional<PartitionState> state = Optional.empty();
            if (isReplicaHere(tp)) {
                try {
                    state = states.read(tp);
                } catch (RuntimeException e) {
                    log.warn("could not read the state of {}: {}", tp, e.getMessage());
                    return;
                }
            }
            apply(tp, state);
        }
    }

    private boolean isReplicaHere(TopicPartition tp) {
        List<Integer> replicas = assignedReplicas(tp);
        return replicas != null && replicas.contains(config.brokerId());
    }

    private List<Integer> assignedReplicas(TopicPartition tp) {
        return topics.topic(tp.topic()).map(t -> t.assignment().replicas().get(tp.partition())).orElse(null);
    }

    /** Applies a state just read (empty: none, or not read because the replica was not here then). */
    private synchronized void apply(TopicPartition tp, Optional<PartitionState> state) {
        List<Integer> replicas = assignedReplicas(tp);
        if (replicas == null || !replicas.contains(config.brokerId())) {
            drop(tp);
            return;
        }
        Optional<PartitionLog> partitionLog = topics.log(tp);
        if (partitionLog.isEmpty() || state.isEmpty()) {
            return;
        }
        Partition partition = partitions.get(tp);
        if (partition == null) {
            partition = new Partition(tp, partitionLog.get(), appender, isrWriter, isrChanges, this::mayJoinIsr,
                    () -> highWatermarkMoved(tp), config.brokerId(), highWatermarks.highWatermark(tp), time);
            partitions.put(tp, partition);
            Partition created = partition;
            logs.futureLog(tp).ifPresent(future -> startMove(created, future)); // a move the broker stopped in the middle of
        }
        PartitionState current = state.get();
        boolean wasLeader = partition.isLeader();
        if (current.leader() == config.brokerId() && !mayLeadUnder(current)) {
            // Elected for an earlier process of this broker, or before its session expired: the log may lack what
            // that leader acknowledged. The controller sees the newer registration and elects anew.
            log.info("{}: not leading under epoch {}, elected before this broker's current registration", tp,
                    current.leaderEpoch());
            partition.makeNone();
            fetchers.stop(tp);
        } else if (current.leader() == config.brokerId()) {
            if (partition.makeLeader(current, replicas)) {
                fetchers.stop(tp);
                leadershipListeners.forEach(listener -> listener.becameLeader(tp, current.leaderEpoch()));
            }
        } else if (current.hasLeader()) {
            if (partition.makeFollower(current, replicas)) {
                fetchers.follow(partition, current.leader(), current.leaderEpoch());
            }
        } else {
            partition.makeNone();
            fetchers.stop(tp);
        }
        if (wasLeader && !partition.isLeader()) {
            leadershipListeners.forEach(listener -> listener.resigned(tp));
        }
        produceWaiters.checkAndComplete(tp);
        fetchWaiters.checkAndComplete(tp);
    }

    /**
     * Only a registered broker that is not shutting down may be added to an ISR (as KIP-841 has it). One whose session
     * expired while it still fetches — cut off from ZooKeeper only — would otherwise be added back as soon as the
     * controller removed it, and the two would overwrite each other's ISR for as long as the cut lasts.
     */
    private boolean mayJoinIsr(int id) {
        return view.broker(id).isPresent() && !view.shuttingDown().contains(id);
    }

    /**
     * A broker leads only under a state elected for its current registration (the state's leader broker epoch is
     * this process's, in this session; for states of earlier versions: written after that registration). This is
     * the rule that fences restarts and zombies.
     */
    private boolean mayLeadUnder(PartitionState state) {
        OptionalLong own = view.ownBrokerEpoch(config.brokerId());
        if (own.isEmpty()) {
            return false;
        }
        return state.leaderBrokerEpoch() == PartitionState.UNKNOWN_BROKER_EPOCH
                ? state.modifiedZxid() > own.getAsLong()
                : state.leaderBrokerEpoch() == own.getAsLong();
    }

    private synchronized void drop(TopicPartition tp) {
        Partition partition = partitions.remove(tp);
        if (partition != null) {
            boolean wasLeader = partition.isLeader();
            fetchers.stop(tp);
            logDirMoves.remove(partition);
            partition.cancelMove(); // the future log goes with the log
            partition.makeNone();
            appender.reset(partition.log()); // its log is about to be deleted: no more producer-state snapshots of it
            if (wasLeader) {
                leadershipListeners.forEach(listener -> listener.resigned(tp));
            }
            produceWaiters.checkAndComplete(tp);
            fetchWaiters.checkAndComplete(tp);
        }
    }

    /**
     * Appends a producer's batches to a partition this broker leads.
     *
     * @throws NotLeaderOrFollowerException, NotEnoughReplicasException, UnknownTopicOrPartitionException
     *         and the log's validation errors
     */
    public LogAppendInfo appendAsLeader(TopicPartition tp, MemoryRecords records, short acks) {
        return appendAsLeader(tp, records, acks, AppendOrigin.CLIENT);
    }

    /** {@link #appendAsLeader(TopicPartition, MemoryRecords, short)} for the broker's coordinators too (markers). */
    public LogAppendInfo appendAsLeader(TopicPartition tp, MemoryRecords records, short acks, AppendOrigin origin) {
        return appendAsLeader(tp, records, acks, origin, null);
    }

    /**
     * A producer's transactional batches, verified with their coordinator under {@code guard} (see
     * {@link #startVerification}).
     *
     * @throws org.apache.kafka.common.errors.InvalidTxnStateException if the guard does not cover them
     */
    public LogAppendInfo appendVerified(TopicPartition tp, MemoryRecords records, short acks, VerificationGuard guard) {
        return appendAsLeader(tp, records, acks, AppendOrigin.CLIENT, guard);
    }

    private LogAppendInfo appendAsLeader(TopicPartition tp, MemoryRecords records, short acks, AppendOrigin origin,
                                         VerificationGuard guard) {
        Partition partition = local(tp);
        refuseAsPossibleZombie(tp, partition);
        LogAppendInfo info = partition.appendAsLeader(records, acks, origin, guard);
        fetchWaiters.checkAndComplete(tp);
        // An append that took long (a slow disk, a wait for the partition's lock) may end past the deadline: it stays
        // in the log unacknowledged, like a write cut short by a change of leader.
        refuseAsPossibleZombie(tp, partition);
        return info;
    }

    /**
     * Before a transactional produce of {@code producerId} at {@code epoch} to a partition this broker leads: whether (and under which
     * guard) its coordinator must confirm that the partition is in the producer's transaction (KIP-890).
     *
     * @throws NotLeaderOrFollowerException if this broker does not lead it
     */
    public VerificationGuard startVerification(TopicPartition tp, long producerId, short epoch, boolean bumpsEpoch) {
        Partition partition = local(tp);
        if (!partition.isLeader()) {
            throw new NotLeaderOrFollowerException("broker " + config.brokerId() + " does not lead " + tp);
        }
        return partition.startVerification(producerId, epoch, bumpsEpoch);
    }

    /** Past the session deadline, before the resignation has run (its thread may be late or waiting for a lock). */
    private void refuseAsPossibleZombie(TopicPartition tp, Partition partition) {
        if (sessionMayHaveExpired() && anotherMayBeElected(partition)) {
            throw new NotLeaderOrFollowerException("broker " + config.brokerId() + " may have lost its ZooKeeper session "
                    + "and no longer leads " + tp);
        }
    }

    /** What clients produced and consumed, per topic (the produce and fetch handlers record it). */
    public BrokerTopicStats topicStats() {
        return topicStats;
    }

    /** The ISR shrinks and expansions this broker stored as leader. */
    public IsrChanges isrChanges() {
        return isrChanges;
    }

    /** Completes when every partition's high watermark reaches its required offset, or with the partition's error. */
    public CompletableFuture<Map<TopicPartition, Errors>> awaitReplication(Map<TopicPartition, Long> requiredOffsets, long timeoutMs) {
        DelayedProduce delayed = new DelayedProduce(timeoutMs, requiredOffsets, this::replicationStatus);
        produceWaiters.tryCompleteElseWatch(delayed, requiredOffsets.keySet());
        return delayed.result();
    }

    private Errors replicationStatus(TopicPartition tp, long requiredOffset) {
        Partition partition = partitions.get(tp);
        // The session check first: it takes no lock, so a resignation held up by a stuck append still answers.
        if (partition == null || sessionMayHaveExpired() && anotherMayBeElected(partition) || !partition.isLeader()) {
            return Errors.NOT_LEADER_OR_FOLLOWER;
        }
        if (partition.highWatermark() < requiredOffset) {
            return null;
        }
        return partition.isrSize() < partition.minInSyncReplicas() ? Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND : Errors.NONE;
    }

    /**
     * For consumers: the leader's log up to its high watermark, if this broker leads at {@code clientEpoch}. The
     * last stable offset is computed only when {@code readCommitted} (otherwise it is the high watermark).
     */
    public LeaderRead leaderRead(TopicPartition tp, int clientEpoch, boolean readCommitted) {
        Partition partition = local(tp);
        long highWatermark = partition.leaderHighWatermark(clientEpoch);
        long lastStable = readCommitted ? partition.lastStableOffset(highWatermark) : highWatermark;
        return new LeaderRead(partition.log(), highWatermark, lastStable, partition.leaderEpoch());
    }

    /**
     * The producers a partition this broker leads remembers (DescribeProducers).
     *
     * @throws NotLeaderOrFollowerException if this broker does not lead it
     */
    public List<ProducerStateManager.ProducerView> activeProducers(TopicPartition tp) {
        Partition partition = local(tp);
        if (!partition.isLeader()) {
            throw new NotLeaderOrFollowerException("broker " + config.brokerId() + " does not lead " + tp);
        }
        return partition.activeProducers();
    }

    /**
     * For a follower's fetch: records its position, then returns the whole log (followers read to the log end). An ISR
     * change the fetch causes is written in the background: the fetch never waits for ZooKeeper.
     */
    public LeaderRead followerRead(TopicPartition tp, int replicaId, long fetchOffset, int clientEpoch) {
        Partition partition = local(tp);
        if (partition.recordFollowerFetch(replicaId, fetchOffset, clientEpoch)) {
            highWatermarkMoved(tp);
        }
        return new LeaderRead(partition.log(), partition.highWatermark(), partition.highWatermark(), partition.leaderEpoch());
    }

    /** The leader side's replication throttle ({@code leader.replication.throttled.rate}). */
    public ReplicationThrottle leaderThrottle() {
        return leaderThrottle;
    }

    /** The follower side's replication throttle ({@code follower.replication.throttled.rate}). */
    public ReplicationThrottle followerThrottle() {
        return followerThrottle;
    }

    /**
     * Should a follower's fetch of {@code tp} get no records now: this leader's replica is throttled, the follower is
     * outside the ISR, and the throttled bytes sent lately are above {@code leader.replication.throttled.rate}.
     */
    public boolean leaderThrottled(TopicPartition tp, int replicaId) {
        Partition partition = partitions.get(tp);
        return partition != null && partition.throttledAsLeaderFor(replicaId) && leaderThrottle.exceeded();
    }

    /** Counts bytes sent to a follower against the leader's throttle, if its replica is a throttled one. */
    public void recordLeaderReplication(TopicPartition tp, int replicaId, long bytes) {
        Partition partition = partitions.get(tp);
        if (bytes > 0 && partition != null && partition.throttledAsLeaderFor(replicaId)) {
            leaderThrottle.record(bytes);
        }
    }

    /** The throttle of moves between log dirs ({@code replica.alter.log.dirs.io.max.bytes.per.second}). */
    public ReplicationThrottle alterLogDirsThrottle() {
        return alterLogDirsThrottle;
    }

    /**
     * AlterReplicaLogDirs of one replica, as Kafka answers it: moves it to the log dir {@code logDir} (an absolute path,
     * one of {@code log.dirs}), which another move of it in progress gives way to; a move back to where it is cancels
     * the move in progress. A replica not here yet is created there later, and REPLICA_NOT_AVAILABLE tells the caller to
     * ask again (kafka-reassign-partitions does, until the reassignment has brought it here).
     *
     * @return NONE once the move is under way (or not needed), else the error: INVALID_TOPIC_EXCEPTION (a folder name
     *         too long), LOG_DIR_NOT_FOUND, KAFKA_STORAGE_ERROR (the dir is offline), REPLICA_NOT_AVAILABLE,
     *         UNKNOWN_TOPIC_OR_PARTITION
     */
    public synchronized Errors alterReplicaLogDir(TopicPartition tp, String logDir) {
        try {
            Path destination = logs.moveDestination(tp, logDir);
            Partition partition = partitions.get(tp);
            if (partition == null) {
                logs.preferLogDir(tp, destination);
                local(tp); // throws: this broker holds no replica of it (yet), or there is no such partition
            }
            Optional<Path> movingTo = logs.futureLogDirOf(tp);
            if (movingTo.isPresent() && !movingTo.get().equals(destination)) {
                cancelMove(partition);
            }
            if (!logs.logDirOf(tp).orElseThrow().equals(destination) && logs.futureLogDirOf(tp).isEmpty()) {
                startMove(partition, logs.createFuture(tp, destination));
            }
            return Errors.NONE;
        } catch (NotLeaderOrFollowerException e) {
            log.info("not moving {} to {}: no replica here", tp, logDir);
            return Errors.REPLICA_NOT_AVAILABLE; // Kafka's answer here, which the tools wait out
        } catch (InvalidTopicException | LogDirNotFoundException | KafkaStorageException | UnknownTopicOrPartitionException e) {
            log.warn("not moving {} to {}: {}", tp, logDir, e.getMessage());
            return Errors.forException(e);
        }
    }

    private void startMove(Partition partition, PartitionLog future) {
        partition.startMove(future);
        logDirMoves.add(partition);
    }

    private void cancelMove(Partition partition) {
        logDirMoves.remove(partition);
        partition.cancelMove();
        logs.deleteFuture(partition.topicPartition());
        log.info("{}: move to another log dir cancelled", partition.topicPartition());
    }

    /** This broker's log dirs ({@code log.dirs}), absolute. */
    public List<Path> logDirs() {
        return logs.logDirs();
    }

    /** Whether one of {@link #logDirs()} can take data now; one that cannot is offline. */
    public boolean isLogDirOnline(Path logDir) {
        return logs.isOnline(logDir);
    }

    /**
     * The logs of this broker's replicas, for DescribeLogDirs: each replica's log with how far its end is behind the high
     * watermark, and each future log of a move between log dirs with how far its end is behind the log's.
     */
    public List<ReplicaLog> replicaLogs() {
        List<ReplicaLog> replicaLogs = new ArrayList<>();
        for (PartitionLog current : logs.logs()) {
            TopicPartition tp = current.topicPartition();
            logs.logDirOf(tp).ifPresent(dir ->
                    replicaLogs.add(new ReplicaLog(tp, dir, current.size(), logEndOffsetLag(tp), false)));
        }
        for (PartitionLog future : logs.futureLogs()) {
            TopicPartition tp = future.topicPartition();
            Optional<Path> dir = logs.futureLogDirOf(tp);
            Optional<PartitionLog> current = logs.log(tp);
            if (dir.isPresent() && current.isPresent()) {
                long lag = Math.max(0, current.get().logEndOffset() - future.logEndOffset());
                replicaLogs.add(new ReplicaLog(tp, dir.get(), future.size(), lag, true));
            }
        }
        return replicaLogs;
    }

    /**
     * One log of a local replica in one log dir: its size in bytes, how far its end lags (a log: behind the high
     * watermark; a future log: behind the log it copies), and whether it is the future log of a move.
     */
    public record ReplicaLog(TopicPartition partition, Path logDir, long size, long offsetLag, boolean future) {
    }

    /** OffsetForLeaderEpoch: where {@code requestedEpoch} ends in this leader's log. */
    public LeaderEpochCache.EpochEnd endOffsetFor(TopicPartition tp, int currentLeaderEpoch, int requestedEpoch) {
        return local(tp).endOffsetFor(currentLeaderEpoch, requestedEpoch);
    }

    /** DeleteRecords on a partition this broker leads; see {@link Partition#deleteRecordsBefore}. */
    public long deleteRecordsBefore(TopicPartition tp, long offset) {
        return local(tp).deleteRecordsBefore(offset);
    }

    /**
     * The last stable offset of a local replica's log, for the cleaner: its high watermark, or the first offset of
     * its oldest open transaction if lower; its log start while this broker does not replicate it (nothing is cleaned).
     */
    public long lastStableOffset(PartitionLog log) {
        Partition partition = partitions.get(log.topicPartition());
        if (partition == null || partition.log() != log) {
            return log.logStartOffset();
        }
        return partition.lastStableOffset(partition.highWatermark());
    }

    /** The last stable offset of a partition this broker leads; -1 if it does not lead it. */
    @Override
    public long lastStableOffset(TopicPartition tp) {
        Partition partition = partitions.get(tp);
        return partition != null && partition.isLeader() ? partition.lastStableOffset(partition.highWatermark()) : -1;
    }

    @Override
    public NavigableMap<Integer, Long> leaderEpochs(TopicPartition tp) {
        Partition partition = partitions.get(tp);
        return partition == null ? new TreeMap<>() : new TreeMap<>(partition.epochs().entries());
    }

    /** The first offset of a local replica's log. */
    public long logStartOffset(TopicPartition tp) {
        return local(tp).log().logStartOffset();
    }

    /** How far a local replica's log end is behind its high watermark (a follower's own), 0 if not at all or unknown. */
    private long logEndOffsetLag(TopicPartition tp) {
        Partition partition = partitions.get(tp);
        return partition == null ? 0 : Math.max(0, partition.highWatermark() - partition.log().logEndOffset());
    }

    /** The leader's current epoch for {@code tp}, or -1 if this broker does not lead it. */
    public int leaderEpoch(TopicPartition tp) {
        Partition partition = partitions.get(tp);
        return partition != null && partition.isLeader() ? partition.leaderEpoch() : -1;
    }

    private Partition local(TopicPartition tp) {
        Partition partition = partitions.get(tp);
        if (partition != null) {
            return partition;
        }
        boolean exists = topics.topic(tp.topic()).map(t -> t.assignment().replicas().containsKey(tp.partition())).orElse(false);
        if (exists) {
            throw new NotLeaderOrFollowerException("broker " + config.brokerId() + " does not lead " + tp);
        }
        throw new UnknownTopicOrPartitionException("unknown partition " + tp);
    }

    private void highWatermarkMoved(TopicPartition tp) {
        produceWaiters.checkAndComplete(tp);
        fetchWaiters.checkAndComplete(tp);
    }

    /** Proposes the shrinks; they are written in the background, and a high watermark they move wakes the waiters. */
    private void shrinkIsrs() {
        for (Partition partition : partitions.values()) {
            try {
                partition.maybeShrinkIsr(config.replicaLagTimeMaxMs());
            } catch (RuntimeException e) {
                log.warn("ISR check of {} failed", partition.topicPartition(), e);
            }
        }
    }

    private void checkpointHighWatermarks() {
        highWatermarks.write(partitions.values());
    }

    /** Stops the fetchers and the ISR checks, answers every waiting produce, and checkpoints the high watermarks. */
    @Override
    public void close() {
        logDirMoves.close();
        background.shutdownNow();
        resignations.shutdownNow();
        isrWriter.close();
        fetchers.close();
        produceWaiters.close();
        checkpointHighWatermarks();
    }
}

package io.tributary.broker.replica;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.IntPredicate;
import java.util.function.UnaryOperator;
import io.tributary.broker.log.AppendOrigin;
import io.tributary.broker.log.IdempotentAppender;
import io.tributary.broker.log.ProducerStateManager;
import io.tributary.broker.log.VerificationGuard;
import io.tributary.broker.controller.PartitionState;
import io.tributary.broker.log.LogAppendInfo;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.log.remote.RemoteAuxState;
import io.tributary.broker.metrics.IsrChanges;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedLeaderEpochException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.OffsetMovedToTieredStorageException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.common.errors.UnknownLeaderEpochException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.Records;
import org.apache.kafka.common.requests.DeleteRecordsRequest;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker's replica of one partition: leader or follower, at which leader epoch, with which
 * ISR, and the high watermark.
 *
 * <p>As leader it tracks each follower's log end (the offset it last fetched from) and when it was
 * last caught up; the high watermark is the smallest log end over the maximal ISR, so it only
 * counts what every replica the controller may elect has. A follower not caught up for
 * {@code replica.lag.time.max.ms} is dropped from the ISR, and one that reaches the high watermark
 * is added back; both changes are written to ZooKeeper (compare-and-set) by the {@link IsrWriter}, asynchronously,
 * at most one at a time, and the outcome is applied when the write completes (as Kafka's AlterPartition manager
 * does). A removal counts once stored, an addition as soon as it may have been stored (KIP-497).
 *
 * <p>Moving to another log dir of this broker (KIP-113), the replica keeps a future log there a copy of its log and
 * then takes it as its log ({@link #copyToFuture}, {@link #completeMove}), serving throughout.
 *
 * <p>Threading: state changes, appends, ISR decisions and the steps of a move hold this object's lock; no thread that
 * fetches, appends or checks the ISR waits for ZooKeeper. The outcome of an ISR write is applied on the writer's
 * thread. The high watermark, the maximal ISR and the log are published through volatiles for lock-free reads.
 */
public final class Partition {
    private static final Logger log = LoggerFactory.getLogger(Partition.class);

    private final TopicPartition topicPartition;
    /** The log; replaced (under this lock) when a move to another log dir completes, read without it. */
    private volatile PartitionLog partitionLog;
    private volatile LeaderEpochCache epochs;
    /**
     * The future log a move of this replica to another log dir fills (KIP-113), or null. It holds the log's records
     * from some offset up to its own end (its start never above the log's): copies append the log's records to it, and
     * every truncation of the log cuts it too.
     */
    private PartitionLog futureLog;
    /** How often the log was truncated: records read from it outside this lock may be gone if this changed meanwhile. */
    private long truncations;
    private final IdempotentAppender appender;
    private final IsrWriter isrWriter;
    private final IsrChanges isrChanges;
    private final IntPredicate mayJoinIsr;
    private final Runnable highWatermarkMovedByIsrWrite;
    private final int localId;
    private final Time time;
    private final Map<Integer, FollowerState> followers = new HashMap<>();
    private Role role = Role.NONE;
    private PartitionState state;
    private List<Integer> replicas = List.of();
    /**
     * The ISR the high watermark counts: the stored one plus any member whose addition may have been stored (a write
     * that reached ZooKeeper but whose answer was lost). KIP-497's maximal ISR: never smaller than what the
     * controller may elect from.
     */
    private volatile List<Integer> maximalIsr = List.of();
    /** The ISR proposal being written to ZooKeeper, or null: one at a time. */
    private IsrProposal isrWriteInFlight;
    private volatile long highWatermark;

    enum Role { NONE, LEADER, FOLLOWER }

    /** Writes an ISR change to ZooKeeper (compare-and-set on the version the proposal was read at). */
    public interface IsrWriter {
        /**
         * Starts the write and returns at once, never waiting for ZooKeeper. The future completes with the outcome,
         * or exceptionally if ZooKeeper could not be asked (the write may or may not have been stored).
         */
        CompletableFuture<IsrWrite> write(TopicPartition partition, PartitionState proposed);
    }

    /**
     * What came of an ISR write.
     *
     * @param written whether the proposal was stored
     * @param stored  the state stored now: the proposal with its new version, or, when someone else (the controller)
     *                changed the state first, what ZooKeeper holds instead (empty if the state is gone)
     */
    public record IsrWrite(boolean written, Optional<PartitionState> stored) {
        public static IsrWrite stored(PartitionState state) {
            return new IsrWrite(true, Optional.of(state));
        }

        public static IsrWrite lost(Optional<PartitionState> storedInstead) {
            return new IsrWrite(false, storedInstead);
        }
    }

    /** What the leader knows of one follower. */
    private static final class FollowerState {
        long logEndOffset = -1;
        long lastCaughtUpMs;
        long lastFetchLeaderLogEndOffset;
        long lastFetchMs;

        FollowerState(long nowMs) {
            this.lastCaughtUpMs = nowMs;
        }
    }

    /**
     * @param mayJoinIsr            false for brokers that must not be added to an ISR (those shutting down)
     * @param highWatermarkMovedByIsrWrite called, on the writer's thread, when the outcome of an ISR write moved the
     *                              high watermark (acks=-1 produces and fetches may complete)
     * @param checkpointedHighWatermark the high watermark last checkpointed for this partition (0 if none)
     */
    Partition(TopicPartition topicPartition, PartitionLog partitionLog, IdempotentAppender appender, IsrWriter isrWriter,
              IsrChanges isrChanges, IntPredicate mayJoinIsr, Runnable highWatermarkMovedByIsrWrite, int localId, long checkpointedHighWatermark,
              Time time) {
        this.topicPartition = topicPartition;
        this.partitionLog = partitionLog;
        this.epochs = LeaderEpochCache.load(partitionLog);
        this.appender = appender;
        this.isrWriter = isrWriter;
        this.isrChanges = isrChanges;
        this.mayJoinIsr = mayJoinIsr;
        this.highWatermarkMovedByIsrWrite = highWatermarkMovedByIsrWrite;
        this.localId = localId;
        this.time = time;
        this.highWatermark = Math.max(partitionLog.logStartOffset(), Math.min(checkpointedHighWatermark, partitionLog.logEndOffset()));
    }

    public TopicPartition topicPartition() {
        return topicPartition;
    }

    PartitionLog log() {
        return partitionLog;
    }

    LeaderEpochCache epochs() {
        return epochs;
    }

    public long highWatermark() {
        return highWatermark;
    }

    synchronized boolean isLeader() {
        return role == Role.LEADER;
    }

    synchronized int leaderEpoch() {
        return state == null ? -1 : state.leaderEpoch();
    }

    synchronized int isrSize() {
        return state == null ? 0 : state.isr().size();
    }

    /** The partition state this replica acts on, or null before it was given one. */
    synchronized PartitionState state() {
        return state;
    }

    /**
     * Could the controller elect another replica in this leader's place from the ISR: does the maximal ISR hold a
     * broker besides this one? Takes no lock.
     */
    boolean othersInSync() {
        return maximalIsr.stream().anyMatch(id -> id != localId);
    }

    /** The topic's min.insync.replicas (its override, else the broker default), as the log's config has it now. */
    int minInSyncReplicas() {
        return partitionLog.config().minInSyncReplicas();
    }

    /**
     * Becomes (or stays) leader at the state's epoch.
     *
     * @return true if this is a new leadership (a new epoch), false for an ISR-only update
     */
    synchronized boolean makeLeader(PartitionState newState, List<Integer> assignedReplicas) {
        boolean newEpoch = role != Role.LEADER || state == null || newState.leaderEpoch() != state.leaderEpoch();
        if (!newEpoch && olderThanHeld(newState)) {
            return false; // a watch delivering a state this leader has already replaced by its own ISR write
        }
        replicas = List.copyOf(assignedReplicas);
        state = newState;
        // While a proposal is being written, its additions may be stored at any moment: they keep counting.
        maximalIsr = !newEpoch && isrWriteInFlight != null ? union(newState.isr(), maximalIsr) : newState.isr();
        if (!newEpoch) {
            // An ISR change at this epoch, usually the controller's (a dead follower removed): it counts at once.
            followReplicaChanges();
            maybeIncrementHighWatermark();
            return false;
        }
        role = Role.LEADER;
        epochs.assign(newState.leaderEpoch(), partitionLog.logEndOffset());
        long now = time.milliseconds();
        followers.clear();
        for (int replica : replicas) {
            if (replica != localId) {
                followers.put(replica, new FollowerState(now));
            }
        }
        highWatermark = Math.min(highWatermark, partitionLog.logEndOffset());
        log.info("{}: leader at epoch {}, isr {}, log end {}, high watermark {}", topicPartition, newState.leaderEpoch(),
                newState.isr(), partitionLog.logEndOffset(), highWatermark);
        maybeIncrementHighWatermark();
        return true;
    }

    /**
     * A reassignment changed the replicas under this leadership: new ones become followers (not in sync), and those
     * gone are forgotten once they are out of the maximal ISR (until then their position still holds the high
     * watermark back, as it must).
     */
    private void followReplicaChanges() {
        long now = time.milliseconds();
        for (int replica : replicas) {
            if (replica != localId) {
                followers.computeIfAbsent(replica, id -> new FollowerState(now));
            }
        }
        followers.keySet().removeIf(id -> !replicas.contains(id) && !maximalIsr.contains(id));
    }

    /**
     * Becomes (or stays) a follower of the state's leader.
     *
     * @return true if the leader or epoch changed (fetching must restart, with truncation)
     */
    synchronized boolean makeFollower(PartitionState newState, List<Integer> assignedReplicas) {
        boolean changed = role != Role.FOLLOWER || state == null || newState.leaderEpoch() != state.leaderEpoch()
                || newState.leader() != state.leader();
        if (!changed && olderThanHeld(newState)) {
            return false;
        }
        replicas = List.copyOf(assignedReplicas);
        state = newState;
        maximalIsr = newState.isr();
        if (changed) {
            role = Role.FOLLOWER;
            followers.clear();
            log.info("{}: follower of {} at epoch {}, log end {}", topicPartition, newState.leader(), newState.leaderEpoch(),
                    partitionLog.logEndOffset());
        }
        return changed;
    }

    /**
     * Leader side: is this leader's replica throttled ({@code leader.replication.throttled.replicas}) and
     * {@code replicaId} outside the ISR, so that its fetches count against (and wait for) the leader's throttle?
     */
    boolean throttledAsLeaderFor(int replicaId) {
        if (!ReplicationThrottle.names(partitionLog.config().leaderReplicationThrottledReplicas(), topicPartition.partition(), localId)) {
            return false;
        }
        synchronized (this) {
            return !maximalIsr.contains(replicaId);
        }
    }

    /** Follower side: is this replica throttled ({@code follower.replication.throttled.replicas}) and outside the ISR? */
    boolean throttledAsFollower() {
        if (!ReplicationThrottle.names(partitionLog.config().followerReplicationThrottledReplicas(), topicPartition.partition(), localId)) {
            return false;
        }
        synchronized (this) {
            return state == null || !state.isr().contains(localId);
        }
    }

    synchronized void makeNone() {
        role = Role.NONE;
        followers.clear();
    }

    /**
     * Appends a producer's batches at the current leader epoch.
     *
     * @throws NotLeaderOrFollowerException if this replica does not lead
     * @throws NotEnoughReplicasException    for acks=-1 with an ISR smaller than the topic's min.insync.replicas
     */
    synchronized LogAppendInfo appendAsLeader(MemoryRecords records, short acks, AppendOrigin origin, VerificationGuard guard) {
        requireLeader();
        int minInsyncReplicas = minInSyncReplicas();
        if (acks == -1 && state.isr().size() < minInsyncReplicas) {
            throw new NotEnoughReplicasException("The ISR of " + topicPartition + " is " + state.isr()
                    + ", fewer than min.insync.replicas=" + minInsyncReplicas);
        }
        LogAppendInfo info = appender.append(partitionLog, records, state.leaderEpoch(), origin, guard);
        maybeIncrementHighWatermark();
        return info;
    }

    VerificationGuard startVerification(long producerId, short epoch, boolean bumpsEpoch) {
        return appender.startVerification(partitionLog, producerId, epoch, bumpsEpoch);
    }

    /** The last stable offset under {@code highWatermark}: the first offset of the oldest open transaction, if lower. */
    long lastStableOffset(long highWatermark) {
        long unstable = appender.firstUnstableOffset(partitionLog);
        return unstable < 0 ? highWatermark : Math.min(unstable, highWatermark);
    }

    List<ProducerStateManager.ProducerView> activeProducers() {
        return appender.activeProducers(partitionLog);
    }

    /**
     * Appends batches fetched from the leader and follows its log start (retention, DeleteRecords) as far as this
     * log reaches; ignored unless this replica still follows at {@code fetchEpoch}.
     */
    synchronized void appendAsFollower(MemoryRecords records, long leaderHighWatermark, long leaderLogStartOffset,
                                       int fetchEpoch) {
        if (!followsAt(fetchEpoch)) {
            return;
        }
        if (records.sizeInBytes() > 0) {
            if (restartAtFirstBatchIfItSpansTheStart(partitionLog, records.firstBatch())) {
                epochs.clear();
                logCut();
            }
            for (MutableRecordBatch batch : records.batches()) {
                epochs.assign(batch.partitionLeaderEpoch(), batch.baseOffset());
            }
            appender.appendAsFollower(partitionLog, records);
        }
        long start = Math.min(leaderLogStartOffset, partitionLog.logEndOffset());
        if (start > partitionLog.logStartOffset()) {
            partitionLog.advanceLogStartOffset(start);
        }
        highWatermark = Math.max(highWatermark, Math.min(leaderHighWatermark, partitionLog.logEndOffset()));
    }

    /**
     * An empty log restarted at the leader's log start receives the whole batch holding that offset when
     * DeleteRecords cut inside it: the log restarts at the batch's base offset to take it, as Kafka does. The
     * log start then moves up to the leader's again. The same holds for the future log of a move, which copies the log.
     *
     * @return whether {@code target} was restarted
     */
    private boolean restartAtFirstBatchIfItSpansTheStart(PartitionLog target, RecordBatch first) {
        long end = target.logEndOffset();
        if (first == null || target.localLogStartOffset() != end || first.baseOffset() >= end || first.lastOffset() < end) {
            return false;
        }
        log.info("{}: the log {} starts inside the batch at {}; restarting it empty there", topicPartition, target.dir(),
                first.baseOffset());
        target.truncateFullyAndStartAt(first.baseOffset());
        appender.reset(target);
        return true;
    }

    synchronized boolean followsAt(int epoch) {
        return role == Role.FOLLOWER && state.leaderEpoch() == epoch;
    }

    /**
     * Cuts the log back to {@code offset} (a follower diverging from its leader), with epochs and
     * producer state; ignored unless this replica still follows at {@code fetchEpoch}.
     */
    synchronized void truncateTo(long offset, int fetchEpoch) {
        if (!followsAt(fetchEpoch) || offset >= partitionLog.logEndOffset()) {
            return;
        }
        log.info("{}: truncating from {} to {}", topicPartition, partitionLog.logEndOffset(), offset);
        partitionLog.truncateTo(offset);
        epochs.truncateFromEnd(partitionLog.logEndOffset());
        appender.reset(partitionLog);
        logCut();
        highWatermark = Math.min(highWatermark, partitionLog.logEndOffset());
    }

    /**
     * Empties the log and restarts it at {@code offset}, the leader's log start, which is beyond this
     * replica's log end (the leader deleted what this replica would fetch next); ignored unless this
     * replica still follows at {@code fetchEpoch}.
     */
    synchronized void truncateFullyAndStartAt(long offset, int fetchEpoch) {
        truncateFullyAndStartAt(RemoteAuxState.nothingAt(offset), fetchEpoch);
    }

    /**
     * {@link #truncateFullyAndStartAt(long, int)} at {@code start}'s offset, beyond the leader's local log start, taking
     * the producer state and leader epochs of the remote segment copy below it.
     */
    synchronized void truncateFullyAndStartAt(RemoteAuxState start, int fetchEpoch) {
        long offset = start.startOffset();
        if (!followsAt(fetchEpoch) || offset <= partitionLog.logEndOffset()) {
            return;
        }
        log.info("{}: log end {} is below the leader's log start {}; emptying the log to restart there ({} producer state, "
                + "{} leader epochs below)", topicPartition, partitionLog.logEndOffset(), offset,
                start.producerSnapshot().isPresent() ? "with the remote copy's" : "no", start.leaderEpochs().size());
        partitionLog.truncateFullyAndStartAt(offset);
        epochs.clear();
        start.leaderEpochs().forEach(epochs::assign);
        appender.restartAt(partitionLog, offset, start.producerSnapshot());
        logCut();
        highWatermark = offset;
    }

    /** The log was truncated or emptied: the future log keeps only what the log still has at the same offsets. */
    private void logCut() {
        truncations++;
        if (futureLog != null && futureLog.logEndOffset() > partitionLog.logEndOffset()) {
            futureLog.truncateTo(partitionLog.logEndOffset());
            appender.reset(futureLog);
        }
    }

    /** Starts a move of this replica to another log dir: {@code future}, empty or loaded at start-up, is filled from now on. */
    synchronized void startMove(PartitionLog future) {
        if (futureLog != null) {
            throw new IllegalStateException(topicPartition + " is moving to " + futureLog.dir() + " already");
        }
        futureLog = future;
    }

    /** The future log of the move of this replica to another log dir in progress. */
    synchronized Optional<PartitionLog> futureLog() {
        return Optional.ofNullable(futureLog);
    }

    /** Ends the move to another log dir in progress before it completed; deleting its future log is the caller's job. */
    synchronized void cancelMove() {
        if (futureLog != null) {
            appender.reset(futureLog);
            futureLog = null;
        }
    }

    /**
     * What a round of copying for a move to another log dir did: the bytes it copied, and whether the future log then
     * reached the end the log had when the round read it.
     */
    record FutureCopy(long bytes, boolean caughtUp) {
        static final FutureCopy NO_MOVE = new FutureCopy(-1, false);
        static final FutureCopy STALE = new FutureCopy(0, false);
    }

    /**
     * One round of the move to another log dir: copies up to {@code maxBytes} of whole batches of the log, from where
     * the future log ends, onto it (as a follower appends, producer state and aborted-transaction indexes included). The
     * log is read outside this replica's lock, unless the caller holds it; what was read is appended only if the log was
     * not truncated meanwhile. The future log's start follows the log's; a future log that ends below the log's local
     * start (retention, DeleteRecords; on a tiered log from the first round, since the part below stays in remote
     * storage) starts over there, with the producer state below it.
     *
     * @return what the round did; {@link FutureCopy#NO_MOVE} if no move is in progress
     */
    FutureCopy copyToFuture(int maxBytes) {
        PartitionLog current;
        PartitionLog future;
        long truncationsBefore;
        synchronized (this) {
            if (futureLog == null) {
                return FutureCopy.NO_MOVE;
            }
            current = partitionLog;
            future = futureLog;
            truncationsBefore = truncations;
        }
        long end = current.logEndOffset();
        MemoryRecords records;
        try {
            records = wholeBatches(current.read(future.logEndOffset(), maxBytes, end, true).records());
        } catch (OffsetOutOfRangeException | OffsetMovedToTieredStorageException e) {
            records = MemoryRecords.EMPTY; // the log, or its local part, starts beyond the future log's end now
        }
        synchronized (this) {
            if (future != futureLog || current != partitionLog || truncationsBefore != truncations) {
                return FutureCopy.STALE; // what was read may be gone from the log
            }
            long localStart = current.localLogStartOffset();
            if (future.logEndOffset() < localStart) {
                // On a tiered log the part below the local start stays in remote storage, where the move leaves it.
                future.truncateFullyAndStartAt(localStart);
                appender.startCopyAt(current, future, localStart);
                return FutureCopy.STALE;
            }
            if (records.sizeInBytes() > 0) {
                restartAtFirstBatchIfItSpansTheStart(future, records.firstBatch());
                appender.appendAsFollower(future, records);
            }
            long start = Math.min(current.logStartOffset(), future.logEndOffset());
            if (start > future.logStartOffset()) {
                future.advanceLogStartOffset(start);
            }
            return new FutureCopy(records.sizeInBytes(), future.logEndOffset() >= end);
        }
    }

    /** Copies of the whole batches of a slice of a log, which may end inside one. */
    private static MemoryRecords wholeBatches(Records slice) {
        ByteBuffer buffer = ByteBuffer.allocate(slice.sizeInBytes());
        for (RecordBatch batch : slice.batches()) {
            batch.writeTo(buffer);
        }
        return MemoryRecords.readableRecords(buffer.flip());
    }

    /**
     * Completes the move to another log dir if the future log, after one more round of copying under this replica's
     * lock (so that nothing is appended meanwhile), holds the whole log: {@code replaceCurrentWithFuture} swaps the two
     * on disk, then the future log, with the log's leader epochs and producer state, becomes this replica's log. Appends,
     * reads and fetches go on throughout; from then on they use the new log.
     *
     * @return whether the move completed
     */
    synchronized boolean completeMove(int maxBytes, Runnable replaceCurrentWithFuture) {
        if (copyToFuture(maxBytes) == FutureCopy.NO_MOVE || futureLog.logEndOffset() != partitionLog.logEndOffset()) {
            return false;
        }
        LeaderEpochCache futureEpochs = epochs.copyTo(futureLog);
        replaceCurrentWithFuture.run();
        appender.transfer(partitionLog, futureLog);
        partitionLog = futureLog;
        epochs = futureEpochs;
        futureLog = null;
        return true;
    }

    /**
     * Records a follower's fetch position; may propose to add it to the ISR and advance the high watermark. The ISR
     * write is only started ({@link #startIsrWrite}): the fetch is answered without waiting for ZooKeeper.
     *
     * @return true if the high watermark moved
     */
    boolean recordFollowerFetch(int replicaId, long fetchOffset, int clientEpoch) {
        FetchRecorded recorded = recordFetchPosition(replicaId, fetchOffset, clientEpoch);
        startIsrWrite(recorded.isrProposal());
        return recorded.highWatermarkMoved();
    }

    /** What a follower's fetch changed: the high watermark, and the ISR change to write (null: none). */
    private record FetchRecorded(boolean highWatermarkMoved, IsrProposal isrProposal) {
    }

    private synchronized FetchRecorded recordFetchPosition(int replicaId, long fetchOffset, int clientEpoch) {
        requireLeader();
        checkEpoch(clientEpoch);
        FollowerState follower = followers.get(replicaId);
        if (follower == null) {
            throw new NotLeaderOrFollowerException("broker " + replicaId + " is not a replica of " + topicPartition);
        }
        long leaderEnd = partitionLog.logEndOffset();
        if (fetchOffset > leaderEnd) {
            // The follower holds records this leader never wrote (they diverged): its position must not count for
            // the high watermark. It finds the divergence again through OffsetForLeaderEpoch and truncates.
            throw new OffsetOutOfRangeException("broker " + replicaId + " fetches " + topicPartition + " from " + fetchOffset
                    + ", beyond the leader's log end " + leaderEnd);
        }
        long now = time.milliseconds();
        if (fetchOffset == leaderEnd) {
            follower.lastCaughtUpMs = now;
        } else if (fetchOffset >= follower.lastFetchLeaderLogEndOffset) {
            follower.lastCaughtUpMs = Math.max(follower.lastCaughtUpMs, follower.lastFetchMs);
        }
        follower.logEndOffset = fetchOffset;
        follower.lastFetchLeaderLogEndOffset = leaderEnd;
        follower.lastFetchMs = now;
        IsrProposal proposal = null;
        if (!state.isr().contains(replicaId) && fetchOffset >= highWatermark && mayJoinIsr.test(replicaId)
                && fetchOffset >= epochs.endOffsetFor(state.leaderEpoch() - 1, leaderEnd).endOffset()) {
            proposal = proposeIsr(isr -> {
                List<Integer> grown = new ArrayList<>(isr);
                if (!grown.contains(replicaId)) {
                    grown.add(replicaId);
                }
                return grown;
            }, "broker " + replicaId + " caught up", 0);
        }
        return new FetchRecorded(maybeIncrementHighWatermark(), proposal);
    }

    /**
     * Proposes to drop followers that have not caught up for {@code lagTimeMaxMs} from the ISR. The shrink counts once
     * stored: the high watermark it may move is reported through {@code highWatermarkMovedByIsrWrite}.
     */
    void maybeShrinkIsr(long lagTimeMaxMs) {
        startIsrWrite(proposeShrink(lagTimeMaxMs));
    }

    private synchronized IsrProposal proposeShrink(long lagTimeMaxMs) {
        if (role != Role.LEADER) {
            return null;
        }
        long now = time.milliseconds();
        UnaryOperator<List<Integer>> withoutLaggards = isr -> isr.stream().filter(id -> {
            FollowerState follower = followers.get(id);
            return id == localId || follower != null && now - follower.lastCaughtUpMs <= lagTimeMaxMs;
        }).toList();
        List<Integer> lagging = new ArrayList<>(maximalIsr);
        lagging.removeAll(withoutLaggards.apply(maximalIsr));
        if (lagging.isEmpty()) {
            return null;
        }
        return proposeIsr(withoutLaggards, "out of sync for more than " + lagTimeMaxMs + " ms: " + lagging, 0);
    }

    /** An ISR change made under the lock, to be written by compare-and-set outside it. */
    private record IsrProposal(PartitionState proposed, UnaryOperator<List<Integer>> change, String why, int attempt) {
    }

    /**
     * Applies {@code change} to the maximal ISR and proposes the result, unless nothing would change or another
     * proposal of this partition is being written (the next fetch or ISR check proposes again on top of its outcome).
     * Members the change adds count for the high watermark from now on, since the write may be stored as soon as it
     * is sent (KIP-497); members it removes count until it is stored.
     */
    private IsrProposal proposeIsr(UnaryOperator<List<Integer>> change, String why, int attempt) {
        if (isrWriteInFlight != null) {
            return null;
        }
        List<Integer> newIsr = change.apply(maximalIsr);
        if (newIsr.equals(state.isr()) && maximalIsr.equals(state.isr())) {
            return null;
        }
        maximalIsr = union(maximalIsr, newIsr);
        isrWriteInFlight = new IsrProposal(state.withIsr(newIsr), change, why, attempt);
        return isrWriteInFlight;
    }

    /**
     * Hands a proposal to the {@link IsrWriter}, holding no lock (called after the decision, outside it); the outcome
     * is applied when the write completes ({@link #isrWriteCompleted}).
     */
    private void startIsrWrite(IsrProposal proposal) {
        if (proposal == null) {
            return;
        }
        CompletableFuture<IsrWrite> write;
        try {
            write = isrWriter.write(topicPartition, proposal.proposed());
        } catch (RuntimeException e) {
            write = CompletableFuture.failedFuture(e);
        }
        write.whenComplete((result, failure) -> isrWriteCompleted(proposal, result, failure));
    }

    /**
     * Applies the outcome of a compare-and-set under the lock: only a stored ISR counts. When the controller changed
     * the state first at this same leadership (it removed a dead follower, say), the stored state is adopted at once
     * and the change, if still needed, tried once more on top of it; the watch that reports the controller's write may
     * come much later. A state of another leader or epoch, or a leadership that ended meanwhile, is left to the watch
     * ({@code ReplicaManager.apply}): the outcome is stale and ignored. A write whose outcome is unknown (ZooKeeper
     * unreachable) leaves the stored ISR as it was, and the maximal ISR with the members it would add: it may have
     * been stored. The next change starts from that maximal ISR, so the next write settles the question.
     */
    private void isrWriteCompleted(IsrProposal proposal, IsrWrite result, Throwable failure) {
        IsrProposal retry;
        boolean moved;
        synchronized (this) {
            isrWriteInFlight = null;
            retry = isrWritten(proposal, result, failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure);
            moved = maybeIncrementHighWatermark();
        }
        if (moved) {
            highWatermarkMovedByIsrWrite.run();
        }
        startIsrWrite(retry);
    }

    /** @return the retry of a proposal that lost a race with the controller, or null */
    private IsrProposal isrWritten(IsrProposal proposal, IsrWrite result, Throwable failure) {
        List<Integer> newIsr = proposal.proposed().isr();
        if (role != Role.LEADER || !sameLeadership(proposal.proposed())) {
            log.info("{}: ISR change to {} outlived its leadership; the new state decides", topicPartition, newIsr);
            return null;
        }
        if (failure != null) {
            log.warn("{}: could not write ISR {} ({}): {}", topicPartition, newIsr, proposal.why(), failure.getMessage());
            return null;
        }
        if (result.written()) {
            isrChanges.stored(state.isr(), newIsr);
            adoptIfNewer(result.stored().orElseThrow());
            log.info("{}: ISR now {} ({})", topicPartition, newIsr, proposal.why());
            return null;
        }
        Optional<PartitionState> stored = result.stored().filter(this::sameLeadership);
        if (stored.isEmpty()) {
            log.info("{}: ISR change to {} lost to a new leadership; waiting for the new state", topicPartition, newIsr);
            return null;
        }
        adoptIfNewer(stored.get());
        log.info("{}: ISR change to {} lost a race with the controller; adopted the stored ISR {}", topicPartition, newIsr,
                state.isr());
        return proposal.attempt() == 0 ? proposeIsr(proposal.change(), proposal.why(), 1) : null;
    }

    /** Is {@code candidate} an earlier version of the stored state than the one held? */
    private boolean olderThanHeld(PartitionState candidate) {
        return state != null && candidate.zkVersion() < state.zkVersion();
    }

    private static List<Integer> union(List<Integer> isr, List<Integer> more) {
        List<Integer> union = new ArrayList<>(isr);
        more.stream().filter(id -> !union.contains(id)).forEach(union::add);
        return List.copyOf(union);
    }

    /** Takes a stored state of this leadership, unless the watch has already delivered a newer one. */
    private void adoptIfNewer(PartitionState stored) {
        if (stored.zkVersion() >= state.zkVersion()) {
            state = stored;
            maximalIsr = stored.isr();
        }
    }

    /** Is {@code stored} a state of this leadership: this broker, elected at the same epoch for the same registration? */
    private boolean sameLeadership(PartitionState stored) {
        return stored.leader() == localId && stored.leaderEpoch() == state.leaderEpoch()
                && stored.leaderBrokerEpoch() == state.leaderBrokerEpoch();
    }

    private boolean maybeIncrementHighWatermark() {
        long candidate = partitionLog.logEndOffset();
        for (int id : maximalIsr) {
            if (id == localId) {
                continue;
            }
            FollowerState follower = followers.get(id);
            candidate = Math.min(candidate, follower == null ? -1 : follower.logEndOffset);
        }
        if (candidate > highWatermark) {
            highWatermark = candidate;
            return true;
        }
        return false;
    }

    /**
     * DeleteRecords as the leader: makes {@code offset} the log start; {@link DeleteRecordsRequest#HIGH_WATERMARK}
     * stands for the high watermark. Followers follow through their fetches.
     *
     * @return the log start offset after the call
     * @throws NotLeaderOrFollowerException if this replica does not lead
     * @throws PolicyViolationException     if the topic is compacted only: its records go by key, not by offset
     * @throws OffsetOutOfRangeException    if {@code offset} is negative or beyond the high watermark
     */
    synchronized long deleteRecordsBefore(long offset) {
        requireLeader();
        if (Topic.isInternal(topicPartition.topic())) {
            throw new InvalidTopicException("Records of the internal topic " + topicPartition.topic() + " cannot be deleted");
        }
        if (!partitionLog.config().deleteRetentionEnabled()) {
            throw new PolicyViolationException("Records of " + topicPartition
                    + " cannot be deleted: its cleanup.policy does not include delete");
        }
        long target = offset == DeleteRecordsRequest.HIGH_WATERMARK ? highWatermark : offset;
        if (target < 0 || target > highWatermark) {
            throw new OffsetOutOfRangeException("Cannot delete the records of " + topicPartition + " below offset "
                    + offset + ": the high watermark is " + highWatermark);
        }
        return partitionLog.advanceLogStartOffset(target);
    }

    /** The leader's high watermark, checking that this replica leads at the epoch a client names. */
    synchronized long leaderHighWatermark(int clientEpoch) {
        requireLeader();
        checkEpoch(clientEpoch);
        return highWatermark;
    }

    private void requireLeader() {
        if (role != Role.LEADER) {
            throw new NotLeaderOrFollowerException("broker " + localId + " does not lead " + topicPartition);
        }
    }

    private void checkEpoch(int clientEpoch) {
        if (clientEpoch == RecordBatch.NO_PARTITION_LEADER_EPOCH || clientEpoch == state.leaderEpoch()) {
            return;
        }
        if (clientEpoch < state.leaderEpoch()) {
            throw new FencedLeaderEpochException("epoch " + clientEpoch + " of " + topicPartition + " is older than " + state.leaderEpoch());
        }
        throw new UnknownLeaderEpochException("epoch " + clientEpoch + " of " + topicPartition + " is newer than " + state.leaderEpoch());
    }

    /** Where {@code requestedEpoch} ends in this (leader's) log, for OffsetForLeaderEpoch. */
    synchronized LeaderEpochCache.EpochEnd endOffsetFor(int currentLeaderEpoch, int requestedEpoch) {
        requireLeader();
        checkEpoch(currentLeaderEpoch);
        return epochs.endOffsetFor(requestedEpoch, partitionLog.logEndOffset());
    }
}

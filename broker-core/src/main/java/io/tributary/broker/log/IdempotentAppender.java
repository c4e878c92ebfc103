package io.tributary.broker.log;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import io.tributary.broker.log.ProducerStateManager.BatchMetadata;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends as leader, enforcing idempotent producers' sequences: check, append and state update
 * happen under one lock per partition, and an exact retry of a recent batch is answered with the
 * offsets it got the first time instead of being appended again. Followers keep the same state
 * from what they replicate, so a new leader recognises retries of batches its predecessor wrote.
 * Producer state is loaded lazily per partition, under that partition's own lock (a long replay of one
 * log holds up that partition only), snapshotted by {@link #snapshotAll()} and rid of producers idle for
 * producer.id.expiration.ms by {@link #removeExpiredProducers()}. Thread-safe.
 */
public final class IdempotentAppender {
    private static final Logger log = LoggerFactory.getLogger(IdempotentAppender.class);
    public static final long DEFAULT_PRODUCER_ID_EXPIRATION_MS = 24L * 60 * 60 * 1000;

    // Keyed by log instance: a topic deleted and created again gets a new log and fresh state.
    private final Map<PartitionLog, LazyState> states = Collections.synchronizedMap(new WeakHashMap<>());
    private final Time time;
    private final long producerIdExpirationMs;

    /** One partition's producer state, loaded on first use under this holder's lock, not the map's. */
    private static final class LazyState {
        private ProducerStateManager state;

        synchronized ProducerStateManager get(PartitionLog partitionLog, long nowMs) {
            if (state == null) {
                state = ProducerStateManager.load(partitionLog, nowMs);
            }
            return state;
        }

        /** The state if it has been loaded, else null. */
        synchronized ProducerStateManager ifLoaded() {
            return state;
        }
    }

    /** Kafka's defaults: the system clock, and producer ids expire after a day without writes. */
    public IdempotentAppender() {
        this(Time.SYSTEM, DEFAULT_PRODUCER_ID_EXPIRATION_MS);
    }

    public IdempotentAppender(Time time, long producerIdExpirationMs) {
        this.time = time;
        this.producerIdExpirationMs = producerIdExpirationMs;
    }

    private ProducerStateManager stateOf(PartitionLog partitionLog) {
        return states.computeIfAbsent(partitionLog, log -> new LazyState()).get(partitionLog, time.milliseconds());
    }

    /** A producer's append ({@link AppendOrigin#CLIENT}). */
    public LogAppendInfo append(PartitionLog partitionLog, MemoryRecords records, int leaderEpoch) {
        return append(partitionLog, records, leaderEpoch, AppendOrigin.CLIENT);
    }

    /**
     * Appends as leader. A coordinator's batches (markers, transactional offset commits) have no sequences: only
     * their epochs are checked, and they are never taken for retries.
     */
    public LogAppendInfo append(PartitionLog partitionLog, MemoryRecords records, int leaderEpoch, AppendOrigin origin) {
        return append(partitionLog, records, leaderEpoch, origin, null);
    }

    /**
     * {@link #append(PartitionLog, MemoryRecords, int, AppendOrigin)} of a produce whose transactional batches were
     * verified with their coordinator under {@code guard} ({@link #startVerification}); null for an append that is
     * not verified (a coordinator's, or a test's).
     *
     * @throws org.apache.kafka.common.errors.InvalidTxnStateException if a transactional batch would open a transaction
     *         the guard does not cover
     */
    public LogAppendInfo append(PartitionLog partitionLog, MemoryRecords records, int leaderEpoch, AppendOrigin origin,
                                VerificationGuard guard) {
        List<MutableRecordBatch> batches = new ArrayList<>();
        records.batches().forEach(batches::add);
        if (batches.stream().noneMatch(b -> b.producerId() != RecordBatch.NO_PRODUCER_ID)) {
            return partitionLog.appendAsLeader(records, leaderEpoch, origin);
        }
        boolean sequenced = origin == AppendOrigin.CLIENT;
        ProducerStateManager state = stateOf(partitionLog);
        synchronized (state) {
            long now = time.milliseconds();
            if (sequenced && batches.size() == 1) {
                Optional<BatchMetadata> duplicate = state.duplicateOf(batches.get(0));
                if (duplicate.isPresent()) {
                    return new LogAppendInfo(duplicate.get().firstOffset(), duplicate.get().lastOffset(), -1, -1, 0, 0);
                }
            }
            for (MutableRecordBatch batch : batches) {
                if (batch.producerId() != RecordBatch.NO_PRODUCER_ID) {
                    if (sequenced) {
                        state.checkSequence(batch);
                    } else {
                        state.checkEpoch(batch);
                    }
                    if (guard != null) {
                        state.checkVerified(batch, guard);
                    }
                }
            }
            LogAppendInfo info = partitionLog.appendAsLeader(records, leaderEpoch, origin);
            long next = info.firstOffset();
            for (MutableRecordBatch batch : batches) {
                long count = batch.lastOffset() - batch.baseOffset() + 1;
                if (batch.producerId() != RecordBatch.NO_PRODUCER_ID) {
                    indexIfAborted(partitionLog, state.update(batch, next, next + count - 1, now));
                }
                next += count;
            }
            return info;
        }
    }

    /** Appends batches replicated from the leader and records their producers' sequences. */
    public LogAppendInfo appendAsFollower(PartitionLog partitionLog, MemoryRecords records) {
        ProducerStateManager state = stateOf(partitionLog);
        synchronized (state) {
            LogAppendInfo info = partitionLog.appendAsFollower(records);
            long now = time.milliseconds();
            for (MutableRecordBatch batch : records.batches()) {
                if (batch.producerId() != RecordBatch.NO_PRODUCER_ID) {
                    indexIfAborted(partitionLog, state.update(batch, batch.baseOffset(), batch.lastOffset(), now));
                }
            }
            return info;
        }
    }

    private static void indexIfAborted(PartitionLog partitionLog, ProducerStateManager.CompletedTxn completed) {
        if (completed != null && completed.aborted()) {
            partitionLog.indexAbortedTxn(completed.asAborted());
        }
    }

    /**
     * The first offset of the oldest open transaction of {@code partitionLog}, or -1 if none is open; loads the
     * partition's producer state if this is its first use.
     */
    public long firstUnstableOffset(PartitionLog partitionLog) {
        ProducerStateManager state = stateOf(partitionLog);
        synchronized (state) {
            return state.firstUnstableOffset();
        }
    }

    /** The producers {@code partitionLog} remembers (DescribeProducers). */
    public List<ProducerStateManager.ProducerView> activeProducers(PartitionLog partitionLog) {
        ProducerStateManager state = stateOf(partitionLog);
        synchronized (state) {
            return state.activeProducers();
        }
    }

    /** See {@link ProducerStateManager#startVerification}. */
    public VerificationGuard startVerification(PartitionLog partitionLog, long producerId, short epoch, boolean bumpsEpoch) {
        ProducerStateManager state = stateOf(partitionLog);
        synchronized (state) {
            return state.startVerification(producerId, epoch, bumpsEpoch);
        }
    }

    /** What the cleaner must keep of each producer {@code partitionLog} remembers (see {@link ProducerStateManager#lastRecords}). */
    public Map<Long, ProducerStateManager.LastRecord> lastRecords(PartitionLog partitionLog) {
        ProducerStateManager state = stateOf(partitionLog);
        synchronized (state) {
            return state.lastRecords();
        }
    }

    /** The open transactions of {@code partitionLog} by producer id, each with its first offset. */
    public Map<Long, Long> openTransactions(PartitionLog partitionLog) {
        ProducerStateManager state = stateOf(partitionLog);
        synchronized (state) {
            return state.openTransactions();
        }
    }

    /** Forgets the producer state of a truncated log; it is rebuilt from snapshot and log when next needed. */
    public void reset(PartitionLog partitionLog) {
        states.remove(partitionLog);
    }

    /**
     * {@code partitionLog}, just emptied to restart at {@code offset} above its old end (a follower restarting at its
     * leader's local log start), starts with the producer state {@code snapshot} (Kafka's format, from the remote segment
     * copy below {@code offset}): a snapshot at {@code offset} in its folder, which its state loads when next needed.
     * Without one, or if it cannot be written, the state starts empty.
     */
    public void restartAt(PartitionLog partitionLog, long offset, Optional<byte[]> snapshot) {
        states.remove(partitionLog);
        if (snapshot.isPresent()) {
            try {
                ProducerStateManager.writeSnapshotFile(partitionLog.dir(), offset, snapshot.get());
            } catch (IOException e) {
                log.warn("could not give {} the producer state of the remote segment below offset {}: {}", partitionLog.dir(),
                        offset, e.getMessage());
            }
        }
    }

    /**
     * {@code copy}, emptied to hold {@code from}'s records from {@code offset} on (a move between log dirs), starts with
     * what {@code from}'s producer state holds of the batches below {@code offset}, the transactions open there included
     * ({@link ProducerStateManager#writeSnapshotOfCopy}): a snapshot at {@code offset} in its folder, which its state
     * loads when next needed. So the copy knows the producers that wrote only below it (on a tiered log, in the remote
     * part), and indexes a transaction aborted above {@code offset} from where it began below. If that snapshot cannot
     * be written, the copy's state starts empty.
     */
    public void startCopyAt(PartitionLog from, PartitionLog copy, long offset) {
        states.remove(copy);
        ProducerStateManager state = stateOf(from);
        synchronized (state) {
            try {
                state.writeSnapshotOfCopy(copy, offset, from.abortedTxns(offset, offset));
            } catch (IOException | RuntimeException e) {
                log.warn("could not give {} the producer state of {} below offset {}: {}", copy.dir(), from.dir(), offset,
                        e.getMessage());
            }
        }
    }

    /**
     * {@code to}, a copy of the same records in another folder (a move between log dirs), takes over from {@code from}:
     * it gets {@code from}'s producer state, verifications in flight included, which the copy's records make just as
     * true. Called while neither log is appended to.
     */
    public void transfer(PartitionLog from, PartitionLog to) {
        states.remove(to);
        LazyState state = states.remove(from);
        if (state != null) {
            states.put(to, state);
            ProducerStateManager loaded = state.ifLoaded();
            if (loaded != null) {
                loaded.snapshotOnRollOf(to);
            }
        }
    }

    /** Writes a producer-state snapshot of every partition that has idempotent producers. */
    public void snapshotAll() {
        loadedStates().forEach((partitionLog, state) -> {
            synchronized (state) {
                try {
                    state.writeSnapshot(partitionLog, partitionLog.logEndOffset());
                } catch (IOException | RuntimeException e) {
                    log.warn("could not snapshot producer state of {}: {}", partitionLog.topicPartition(), e.getMessage());
                }
            }
        });
    }

    /**
     * Forgets, in every partition, the producers that have not written for producer.id.expiration.ms.
     *
     * @return how many (partition, producer) entries were forgotten
     */
    public int removeExpiredProducers() {
        int[] removed = {0};
        long now = time.milliseconds();
        loadedStates().forEach((partitionLog, state) -> {
            synchronized (state) {
                removed[0] += state.removeExpired(now, producerIdExpirationMs);
            }
        });
        if (removed[0] > 0) {
            log.info("forgot {} producer id(s) idle for more than {} ms", removed[0], producerIdExpirationMs);
        }
        return removed[0];
    }

    private Map<PartitionLog, ProducerStateManager> loadedStates() {
        Map<PartitionLog, ProducerStateManager> loaded = new IdentityHashMap<>();
        synchronized (states) {
            states.forEach((partitionLog, lazy) -> {
                ProducerStateManager state = lazy.ifLoaded();
                if (state != null) {
                    loaded.put(partitionLog, state);
                }
            });
        }
        return loaded;
    }
}

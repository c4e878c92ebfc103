package io.tributary.broker.txn;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import io.tributary.broker.coordinator.CoordinatedPartitions;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction coordinator of the transactional ids whose {@code __transaction_state} partitions this broker
 * leads (Kafka's protocol up to transaction version 2): InitProducerId bumps an id's epoch (fencing older producers
 * of it, and aborting a transaction they left open), AddPartitionsToTxn and AddOffsetsToTxn add partitions to the
 * open transaction (for producers of version 2, partition leaders and group coordinators add them when the first
 * write comes), EndTxn writes PrepareCommit or PrepareAbort (one epoch higher for version 2, whose producers go on
 * with the next epoch), then the markers (through {@link MarkerSender}), then CompleteCommit or CompleteAbort. Every
 * state change is in {@code __transaction_state} before it counts, so a new coordinator loading the partition
 * finishes a decided transaction (sends its markers again) and aborts an open one once it times out. Transactions
 * open longer than their timeout are aborted under an epoch two higher, which fences the producer that left them. Thread-safe: each id's changes hold its {@link TransactionMetadata}'s monitor.
 */
public final class TransactionCoordinator {
    private static final Logger log = LoggerFactory.getLogger(TransactionCoordinator.class);
    /** How soon a completion that {@code __transaction_state} refused (its ISR below min.insync.replicas, say) is written again. */
    private static final Executor COMPLETION_RETRY = CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS);

    private final TransactionConfig config;
    private final TransactionStateStore store;
    private final CoordinatedPartitions partitions;
    private final LongSupplier newProducerId;
    private final MarkerSender markers;
    private final Time time;
    private final ConcurrentMap<String, TransactionMetadata> transactions = new ConcurrentHashMap<>();
    /** The leader epoch each loaded state partition was loaded at: the coordinator epoch of its markers. */
    private final ConcurrentMap<Integer, Integer> loadedEpochs = new ConcurrentHashMap<>();

    /** A producer id and epoch, or the error that prevented handing them out. */
    public record ProducerIdAndEpoch(Errors error, long producerId, short producerEpoch) {
        static ProducerIdAndEpoch failed(Errors error) {
            return new ProducerIdAndEpoch(error, RecordBatch.NO_PRODUCER_ID, RecordBatch.NO_PRODUCER_EPOCH);
        }
    }

    TransactionCoordinator(TransactionConfig config, TransactionStateStore store, CoordinatedPartitions partitions,
                           LongSupplier newProducerId, MarkerSender markers, Time time) {
        this.config = config;
        this.store = store;
        this.partitions = partitions;
        this.newProducerId = newProducerId;
        this.markers = markers;
        this.time = time;
    }

    /**
     * InitProducerId with a transactional id.
     *
     * @param expectedProducerId    the producer's current id when it re-initialises (KIP-360), else -1
     * @param expectedProducerEpoch its current epoch then, else -1
     */
    public CompletableFuture<ProducerIdAndEpoch> initProducerId(String transactionalId, int timeoutMs,
                                                                long expectedProducerId, short expectedProducerEpoch) {
        if (transactionalId.isEmpty()) {
            return CompletableFuture.completedFuture(ProducerIdAndEpoch.failed(Errors.INVALID_REQUEST));
        }
        if (timeoutMs <= 0 || timeoutMs > config.maxTimeoutMs()) {
            return CompletableFuture.completedFuture(ProducerIdAndEpoch.failed(Errors.INVALID_TRANSACTION_TIMEOUT));
        }
        Errors notHere = partitions.errorFor(transactionalId);
        if (notHere != Errors.NONE) {
            return CompletableFuture.completedFuture(ProducerIdAndEpoch.failed(notHere));
        }
        TransactionMetadata txn = transactions.computeIfAbsent(transactionalId, id -> new TransactionMetadata(
                new TransactionRecord(id, newProducerId.getAsLong(), RecordBatch.NO_PRODUCER_EPOCH, timeoutMs,
                        TransactionState.EMPTY, Set.of(), time.milliseconds(), -1), coordinatorEpochOf(id)));
        synchronized (txn) {
            if (txn.pendingWrite || txn.state.isPreparing()) {
                return CompletableFuture.completedFuture(ProducerIdAndEpoch.failed(Errors.CONCURRENT_TRANSACTIONS));
            }
            if (expectedProducerId != RecordBatch.NO_PRODUCER_ID
                    && (expectedProducerId != txn.producerId || expectedProducerEpoch != txn.producerEpoch)) {
                return CompletableFuture.completedFuture(ProducerIdAndEpoch.failed(Errors.PRODUCER_FENCED));
            }
            if (txn.state == TransactionState.ONGOING) {
                // A producer of the id left this transaction open: abort it, fencing that producer; the new one retries.
                fenceAndAbort(txn);
                return CompletableFuture.completedFuture(ProducerIdAndEpoch.failed(Errors.CONCURRENT_TRANSACTIONS));
            }
            boolean exhausted = isExhausted(txn.producerEpoch);
            long producerId = exhausted ? newProducerId.getAsLong() : txn.producerId;
            short epoch = exhausted ? 0 : (short) (txn.producerEpoch + 1);
            TransactionRecord next = new TransactionRecord(transactionalId, producerId,
                    exhausted ? txn.producerId : txn.previousProducerId, RecordBatch.NO_PRODUCER_ID, epoch, timeoutMs,
                    TransactionState.EMPTY, Set.of(), time.milliseconds(), -1, txn.clientTransactionVersion);
            return write(txn, next).thenApply(error -> error == Errors.NONE
                    ? new ProducerIdAndEpoch(Errors.NONE, producerId, epoch) : ProducerIdAndEpoch.failed(error));
        }
    }

    /**
     * AddPartitionsToTxn (and AddOffsetsToTxn, with the group's offsets partition): NONE once they are in the
     * transaction, which begins if none is open.
     *
     * @param clientVersion {@link TransactionRecord#EPOCH_BUMPING_VERSION} when a partition leader or group coordinator
     *                      adds the partition for a producer of transaction version 2 (Produce v12+, TxnOffsetCommit
     *                      v5+), else 0
     */
    public CompletableFuture<Errors> addPartitions(String transactionalId, long producerId, short producerEpoch,
                                                   Set<TopicPartition> added, short clientVersion) {
        return underProducer(transactionalId, producerId, producerEpoch, txn -> {
            if (txn.state.isPreparing()) {
                return CompletableFuture.completedFuture(Errors.CONCURRENT_TRANSACTIONS);
            }
            if (txn.state == TransactionState.ONGOING && txn.partitions.containsAll(added)) {
                return CompletableFuture.completedFuture(Errors.NONE);
            }
            Set<TopicPartition> all = new HashSet<>(txn.state == TransactionState.ONGOING ? txn.partitions : Set.of());
            all.addAll(added);
            return write(txn, txn.withPartitions(all, clientVersion, time.milliseconds()));
        });
    }

    /**
     * Runs {@code action} under the id's monitor if the request's producer id and epoch are the id's current ones
     * and no state write is in flight; otherwise completes with the error to answer.
     */
    private CompletableFuture<Errors> underProducer(String transactionalId, long producerId, short producerEpoch,
                                                    Function<TransactionMetadata, CompletableFuture<Errors>> action) {
        Optional<TransactionMetadata> found = lookUp(transactionalId);
        if (found.isEmpty()) {
            return CompletableFuture.completedFuture(missingError(transactionalId));
        }
        TransactionMetadata txn = found.get();
        synchronized (txn) {
            Errors error = checkProducer(txn, producerId, producerEpoch);
            if (error != Errors.NONE) {
                return CompletableFuture.completedFuture(error);
            }
            if (txn.pendingWrite) {
                return CompletableFuture.completedFuture(Errors.CONCURRENT_TRANSACTIONS);
            }
            return action.apply(txn);
        }
    }

    /**
     * The verify-only AddPartitionsToTxn of KIP-890 (v4+, sent by partition leaders before a transactional append):
     * per partition NONE if it is in the producer's open transaction, else why not; nothing changes.
     */
    public Map<TopicPartition, Errors> verifyPartitions(String transactionalId, long producerId, short producerEpoch,
                                                        Set<TopicPartition> asked) {
        Map<TopicPartition, Errors> results = new LinkedHashMap<>();
        Optional<TransactionMetadata> found = lookUp(transactionalId);
        Errors error = found.isEmpty() ? missingError(transactionalId) : Errors.NONE;
        if (found.isPresent()) {
            TransactionMetadata txn = found.get();
            synchronized (txn) {
                error = checkProducer(txn, producerId, producerEpoch);
                for (TopicPartition partition : asked) {
                    results.put(partition, error != Errors.NONE ? error
                            : txn.state == TransactionState.ONGOING && txn.partitions.contains(partition)
                            ? Errors.NONE : Errors.INVALID_TXN_STATE);
                }
                return results;
            }
        }
        for (TopicPartition partition : asked) {
            results.put(partition, error);
        }
        return results;
    }

    /**
     * EndTxn: NONE once the decision is in {@code __transaction_state}; the markers follow. A producer of transaction
     * version 2 ({@code bumpsEpoch}, EndTxn v5+) is answered the producer id and epoch of its next transaction: the
     * decision is written one epoch higher (its markers carry that epoch, which fences the transaction's own late
     * writes), under a new producer id once the epochs of the current one run out.
     */
    public CompletableFuture<ProducerIdAndEpoch> endTransaction(String transactionalId, long producerId, short producerEpoch,
                                                                boolean commit, boolean bumpsEpoch) {
        if (bumpsEpoch) {
            return endBumpingEpoch(transactionalId, producerId, producerEpoch, commit);
        }
        return underProducer(transactionalId, producerId, producerEpoch, txn -> switch (txn.state) {
            case ONGOING -> decide(txn, commit, txn.producerEpoch, RecordBatch.NO_PRODUCER_ID, (short) 0);
            // A retry of an EndTxn whose decision is being carried out or done is answered as it was.
            case PREPARE_COMMIT -> CompletableFuture.completedFuture(commit ? Errors.CONCURRENT_TRANSACTIONS : Errors.INVALID_TXN_STATE);
            case PREPARE_ABORT -> CompletableFuture.completedFuture(commit ? Errors.INVALID_TXN_STATE : Errors.CONCURRENT_TRANSACTIONS);
            case COMPLETE_COMMIT -> CompletableFuture.completedFuture(commit ? Errors.NONE : Errors.INVALID_TXN_STATE);
            case COMPLETE_ABORT -> CompletableFuture.completedFuture(commit ? Errors.INVALID_TXN_STATE : Errors.NONE);
            default -> CompletableFuture.completedFuture(Errors.INVALID_TXN_STATE);
        }).thenApply(error -> new ProducerIdAndEpoch(error, RecordBatch.NO_PRODUCER_ID, RecordBatch.NO_PRODUCER_EPOCH));
    }

    /** EndTxn of transaction version 2, as Kafka decides it ({@link EpochBumpingEnd}). */
    private CompletableFuture<ProducerIdAndEpoch> endBumpingEpoch(String transactionalId, long producerId,
                                                                  short producerEpoch, boolean commit) {
        Optional<TransactionMetadata> found = lookUp(transactionalId);
        if (found.isEmpty()) {
            return CompletableFuture.completedFuture(ProducerIdAndEpoch.failed(missingError(transactionalId)));
        }
        TransactionMetadata txn = found.get();
        synchronized (txn) {
            EpochBumpingEnd.Outcome outcome = EpochBumpingEnd.of(txn, producerId, producerEpoch, commit);
            if (outcome instanceof EpochBumpingEnd.Decide decide) {
                return decideBumpingEpoch(txn, decide.commit());
            }
            return CompletableFuture.completedFuture(outcome instanceof EpochBumpingEnd.Refuse refused
                    ? ProducerIdAndEpoch.failed(refused.error())
                    : new ProducerIdAndEpoch(Errors.NONE, txn.producerId, txn.producerEpoch));
        }
    }

    /**
     * Decides one epoch higher, choosing the next producer id if the epochs run out; answers the producer id and
     * epoch the producer goes on with. Caller holds the monitor.
     */
    private CompletableFuture<ProducerIdAndEpoch> decideBumpingEpoch(TransactionMetadata txn, boolean commit) {
        long nextProducerId = isExhausted(txn.producerEpoch) ? newProducerId.getAsLong() : RecordBatch.NO_PRODUCER_ID;
        short epoch = (short) (txn.producerEpoch + 1);
        return decide(txn, commit, epoch, nextProducerId, TransactionRecord.EPOCH_BUMPING_VERSION).thenApply(error ->
                error != Errors.NONE ? ProducerIdAndEpoch.failed(error)
                        : nextProducerId != RecordBatch.NO_PRODUCER_ID ? new ProducerIdAndEpoch(Errors.NONE, nextProducerId, (short) 0)
                        : new ProducerIdAndEpoch(Errors.NONE, txn.producerId, epoch));
    }

    /** Writes the decision, then sends the markers. Caller holds the monitor. */
    private CompletableFuture<Errors> decide(TransactionMetadata txn, boolean commit, short epoch, long nextProducerId,
                                             short clientVersion) {
        TransactionRecord prepared = txn.decided(commit ? TransactionState.PREPARE_COMMIT : TransactionState.PREPARE_ABORT,
                epoch, nextProducerId, clientVersion, time.milliseconds());
        return write(txn, prepared).thenApply(error -> {
            if (error == Errors.NONE) {
                completeAfterMarkers(txn);
            }
            return error;
        });
    }

    /**
     * Aborts the open transaction under an epoch two higher (the bump that fences its producer, then the bump of
     * transaction version 2, which this coordinator runs at, as Kafka's does): neither a producer of version 1 nor
     * one of version 2 can take the abort for its own EndTxn. Timeouts, and a new producer of the id, do this.
     */
    private void fenceAndAbort(TransactionMetadata txn) {
        short epoch = (short) Math.min(txn.producerEpoch + 2, Short.MAX_VALUE);
        TransactionRecord prepared = txn.decided(TransactionState.PREPARE_ABORT, epoch, RecordBatch.NO_PRODUCER_ID,
                TransactionRecord.EPOCH_BUMPING_VERSION, time.milliseconds());
        write(txn, prepared).thenAccept(error -> {
            if (error == Errors.NONE) {
                completeAfterMarkers(txn);
            } else {
                log.warn("could not abort transaction {}: {}", txn.transactionalId, error);
            }
        });
    }

    /** Whether the epochs of the current producer id are used up: the next bump needs a new producer id. */
    private static boolean isExhausted(short epoch) {
        return epoch >= Short.MAX_VALUE - 1;
    }

    /** Sends the markers of a prepared transaction, then writes its completion. */
    private void completeAfterMarkers(TransactionMetadata txn) {
        TxnMarker marker;
        Set<TopicPartition> targets;
        int partition = store.partitionFor(txn.transactionalId);
        synchronized (txn) {
            if (!txn.state.isPreparing()) {
                return;
            }
            marker = new TxnMarker(txn.producerId, txn.producerEpoch, txn.state == TransactionState.PREPARE_COMMIT,
                    txn.coordinatorEpoch);
            targets = Set.copyOf(txn.partitions);
        }
        markers.send(marker, targets, () -> coordinates(txn, partition)).thenRun(() -> writeCompletion(txn, partition));
    }

    /**
     * Writes the completion of a prepared transaction whose markers are written. A write the state log refuses while
     * this broker still coordinates is tried again, as Kafka's coordinator does: otherwise the transaction would stay
     * prepared, its partitions' last stable offsets held back, until the next leader change of its state partition.
     */
    private void writeCompletion(TransactionMetadata txn, int partition) {
        synchronized (txn) {
            if (!txn.state.isPreparing() || txn.pendingWrite) {
                return;
            }
            write(txn, txn.completed(time.milliseconds())).thenAccept(error -> {
                if (error == Errors.COORDINATOR_NOT_AVAILABLE && coordinates(txn, partition)) {
                    log.debug("could not complete transaction {}: {}; trying again", txn.transactionalId, error);
                    COMPLETION_RETRY.execute(() -> writeCompletion(txn, partition));
                } else if (error != Errors.NONE) {
                    log.warn("could not complete transaction {}: {}; its next coordinator will", txn.transactionalId, error);
                }
            });
        }
    }

    /** Whether this broker still leads the transaction's state partition and holds this metadata of it. */
    private boolean coordinates(TransactionMetadata txn, int partition) {
        return partitions.leads(partition) && transactions.get(txn.transactionalId) == txn;
    }

    /**
     * Writes {@code next} and applies it once the ISR has it. Caller holds the monitor.
     *
     * @return NONE, or NOT_COORDINATOR / COORDINATOR_NOT_AVAILABLE as a client must be told
     */
    private CompletableFuture<Errors> write(TransactionMetadata txn, TransactionRecord next) {
        txn.pendingWrite = true;
        return store.write(next).handle((written, failure) -> {
            Errors error = failure != null ? Errors.forException(failure) : written;
            synchronized (txn) {
                txn.pendingWrite = false;
                if (error == Errors.NONE) {
                    txn.apply(next);
                    return Errors.NONE;
                }
            }
            log.debug("writing the state of transactional id {} failed: {}", txn.transactionalId, error);
            return switch (error) {
                case NOT_LEADER_OR_FOLLOWER, NOT_COORDINATOR, UNKNOWN_TOPIC_OR_PARTITION -> Errors.NOT_COORDINATOR;
                default -> Errors.COORDINATOR_NOT_AVAILABLE;
            };
        });
    }

    private static Errors checkProducer(TransactionMetadata txn, long producerId, short producerEpoch) {
        if (txn.producerId != producerId) {
            return Errors.INVALID_PRODUCER_ID_MAPPING;
        }
        if (txn.producerEpoch != producerEpoch) {
            return Errors.PRODUCER_FENCED;
        }
        return Errors.NONE;
    }

    private Optional<TransactionMetadata> lookUp(String transactionalId) {
        if (partitions.errorFor(transactionalId) != Errors.NONE) {
            return Optional.empty();
        }
        return Optional.ofNullable(transactions.get(transactionalId));
    }

    private Errors missingError(String transactionalId) {
        Errors notHere = partitions.errorFor(transactionalId);
        return notHere != Errors.NONE ? notHere : Errors.INVALID_PRODUCER_ID_MAPPING;
    }

    private int coordinatorEpochOf(String transactionalId) {
        return loadedEpochs.getOrDefault(store.partitionFor(transactionalId), 0);
    }

    /** Aborts, under a bumped epoch, every open transaction older than its timeout. */
    void abortTimedOut() {
        long now = time.milliseconds();
        for (TransactionMetadata txn : transactions.values()) {
            synchronized (txn) {
                if (txn.state == TransactionState.ONGOING && !txn.pendingWrite && now - txn.startMs > txn.timeoutMs) {
                    log.info("aborting transaction of {} (producer {} epoch {}): open for more than {} ms",
                            txn.transactionalId, txn.producerId, txn.producerEpoch, txn.timeoutMs);
                    fenceAndAbort(txn);
                }
            }
        }
    }

    /**
     * Forgets (with a tombstone) every transactional id without an open transaction whose state has not changed for
     * {@code transactional.id.expiration.ms}.
     */
    void expireIdle() {
        long now = time.milliseconds();
        for (TransactionMetadata txn : transactions.values()) {
            synchronized (txn) {
                if (!txn.state.isIdle() || txn.pendingWrite || now - txn.lastUpdateMs < config.idExpirationMs()) {
                    continue;
                }
                txn.pendingWrite = true;
                store.delete(txn.transactionalId).thenAccept(error -> {
                    synchronized (txn) {
                        txn.pendingWrite = false;
                        if (error == Errors.NONE) {
                            txn.state = TransactionState.DEAD;
                            transactions.remove(txn.transactionalId, txn);
                            log.info("transactional id {} expired", txn.transactionalId);
                        }
                    }
                });
            }
        }
    }

    /** Loads the transactional ids of one state partition, and finishes the transactions decided there. */
    void load(int partition, int leaderEpoch) {
        loadedEpochs.put(partition, leaderEpoch);
        Map<String, TransactionRecord> stored = store.load(partition);
        stored.forEach((id, state) -> transactions.put(id, new TransactionMetadata(state, leaderEpoch)));
        log.info("loaded {} transactional ids from {}-{}", stored.size(), TransactionStateStore.TOPIC, partition);
    }

    /** Sends again the markers of every transaction that was decided but not completed in a partition just loaded. */
    void completeDecided(int partition) {
        for (TransactionMetadata txn : transactions.values()) {
            if (store.partitionFor(txn.transactionalId) == partition) {
                completeAfterMarkers(txn);
            }
        }
    }

    void unload(int partition) {
        transactions.values().removeIf(txn -> store.partitionFor(txn.transactionalId) == partition);
        loadedEpochs.remove(partition);
    }

    /** The transactional ids this broker coordinates, with their current state (for ListTransactions/DescribeTransactions). */
    public List<TransactionRecord> all() {
        return transactions.values().stream().map(txn -> {
            synchronized (txn) {
                return txn.current();
            }
        }).toList();
    }

    /** NONE if this broker coordinates {@code transactionalId}, else NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS. */
    public Errors coordinatorError(String transactionalId) {
        return partitions.errorFor(transactionalId);
    }
}

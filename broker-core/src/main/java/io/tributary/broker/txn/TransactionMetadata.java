package io.tributary.broker.txn;

import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * The coordinator's in-memory copy of one transactional id: producer id and epoch, timeout, state and the partitions
 * of the open transaction. It changes only once the state it moves to is in {@code __transaction_state}
 * ({@link #apply}); while such a write is in flight ({@link #pendingWrite}) other requests for the id are answered
 * CONCURRENT_TRANSACTIONS. Guarded by its own monitor.
 */
final class TransactionMetadata {
    final String transactionalId;
    long producerId;
    long previousProducerId;
    long nextProducerId;
    short producerEpoch;
    int timeoutMs;
    TransactionState state;
    Set<TopicPartition> partitions;
    long startMs;
    long lastUpdateMs;
    short clientTransactionVersion;
    boolean pendingWrite;
    /** The leader epoch of the state partition when it was loaded: markers carry it as the coordinator epoch. */
    final int coordinatorEpoch;

    TransactionMetadata(TransactionRecord stored, int coordinatorEpoch) {
        this.transactionalId = stored.transactionalId();
        this.coordinatorEpoch = coordinatorEpoch;
        apply(stored);
    }

    /** The state as {@code __transaction_state} now has it. */
    void apply(TransactionRecord stored) {
        producerId = stored.producerId();
        previousProducerId = stored.previousProducerId();
        nextProducerId = stored.nextProducerId();
        producerEpoch = stored.producerEpoch();
        timeoutMs = stored.timeoutMs();
        state = stored.state();
        partitions = new HashSet<>(stored.partitions());
        startMs = stored.startMs();
        lastUpdateMs = stored.lastUpdateMs();
        clientTransactionVersion = stored.clientTransactionVersion();
    }

    /** The record of partitions added by a producer of {@code clientVersion} (the transaction begins if none is open). */
    TransactionRecord withPartitions(Set<TopicPartition> all, short clientVersion, long nowMs) {
        return new TransactionRecord(transactionalId, producerId, previousProducerId, nextProducerId, producerEpoch,
                timeoutMs, TransactionState.ONGOING, all, nowMs, state == TransactionState.ONGOING ? startMs : nowMs,
                clientVersion);
    }

    /**
     * The record of a decision ({@code PREPARE_COMMIT} or {@code PREPARE_ABORT}) under {@code epoch}; a transaction with
     * no partition (an abort of no transaction, transaction version 2) starts now. {@code nextProducerId}: the id the
     * transaction completes under when the epochs of the current one ran out, else -1.
     */
    TransactionRecord decided(TransactionState decision, short epoch, long nextProducerId, short clientVersion, long nowMs) {
        return new TransactionRecord(transactionalId, producerId, previousProducerId, nextProducerId, epoch, timeoutMs,
                decision, partitions, nowMs, state == TransactionState.ONGOING ? startMs : nowMs, clientVersion);
    }

    /** The record of the completion of the decided transaction: under the next producer id at epoch 0 if one was chosen. */
    TransactionRecord completed(long nowMs) {
        TransactionState complete = state == TransactionState.PREPARE_COMMIT
                ? TransactionState.COMPLETE_COMMIT : TransactionState.COMPLETE_ABORT;
        boolean rotates = nextProducerId != RecordBatch.NO_PRODUCER_ID;
        return new TransactionRecord(transactionalId, rotates ? nextProducerId : producerId,
                rotates ? producerId : previousProducerId, RecordBatch.NO_PRODUCER_ID, rotates ? 0 : producerEpoch,
                timeoutMs, complete, Set.of(), nowMs, startMs, clientTransactionVersion);
    }

    TransactionRecord current() {
        return new TransactionRecord(transactionalId, producerId, previousProducerId, nextProducerId, producerEpoch,
                timeoutMs, state, partitions, lastUpdateMs, startMs, clientTransactionVersion);
    }
}

package io.tributary.broker.txn;

import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * The coordinator's in-memory copy of one transactional id: producer id and epoch, timeout, state and the partitions
 * of the open transaction. It changes only once the state it moves to is in {@code __transaction_state}
 * ({@link #apply}); while such a write is in flight ({@link #pendingWrite}) other requests for the id are answered
 * CONCURRENT_TRANSACTIONS. Guarded by its own monitor.
 */
final class TransactionMetadata {
    final String transactionalId;
    long producerId;
    short producerEpoch;
    int timeoutMs;
    TransactionState state;
    Set<TopicPartition> partitions;
    long startMs;
    long lastUpdateMs;
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
        producerEpoch = stored.producerEpoch();
        timeoutMs = stored.timeoutMs();
        state = stored.state();
        partitions = new HashSet<>(stored.partitions());
        startMs = stored.startMs();
        lastUpdateMs = stored.lastUpdateMs();
    }

    /** The record of a move to {@code newState} with {@code newPartitions}, the rest unchanged. */
    TransactionRecord moveTo(TransactionState newState, Set<TopicPartition> newPartitions, long nowMs) {
        return new TransactionRecord(transactionalId, producerId, producerEpoch, timeoutMs, newState, newPartitions,
                nowMs, newState == TransactionState.ONGOING && state != TransactionState.ONGOING ? nowMs : startMs);
    }

    TransactionRecord current() {
        return new TransactionRecord(transactionalId, producerId, producerEpoch, timeoutMs, state, partitions,
                lastUpdateMs, startMs);
    }
}

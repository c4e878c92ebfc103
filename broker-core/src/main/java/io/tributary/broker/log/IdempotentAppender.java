package io.tributary.broker.log;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import io.tributary.broker.log.ProducerStateManager.BatchMetadata;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends as leader, enforcing idempotent producers' sequences: check, append and state update
 * happen under one lock per partition, and an exact retry of a recent batch is answered with the
 * offsets it got the first time instead of being appended again. Followers keep the same state
 * from what they replicate, so a new leader recognises retries of batches its predecessor wrote.
 * Producer state is loaded lazily per partition and snapshotted by {@link #snapshotAll()}. Thread-safe.
 */
public final class IdempotentAppender {
    private static final Logger log = LoggerFactory.getLogger(IdempotentAppender.class);

    // Keyed by log instance: a topic deleted and created again gets a new log and fresh state.
    private final Map<PartitionLog, ProducerStateManager> states = Collections.synchronizedMap(new WeakHashMap<>());

    public LogAppendInfo append(PartitionLog partitionLog, MemoryRecords records, int leaderEpoch) {
        List<MutableRecordBatch> batches = new ArrayList<>();
        records.batches().forEach(batches::add);
        if (batches.stream().noneMatch(b -> b.producerId() != RecordBatch.NO_PRODUCER_ID)) {
            return partitionLog.appendAsLeader(records, leaderEpoch);
        }
        ProducerStateManager state = states.computeIfAbsent(partitionLog, ProducerStateManager::load);
        synchronized (state) {
            if (batches.size() == 1) {
                Optional<BatchMetadata> duplicate = state.duplicateOf(batches.get(0));
                if (duplicate.isPresent()) {
                    return new LogAppendInfo(duplicate.get().firstOffset(), duplicate.get().lastOffset(), -1, -1, 0, 0);
                }
            }
            for (MutableRecordBatch batch : batches) {
                if (batch.producerId() != RecordBatch.NO_PRODUCER_ID) {
                    state.checkSequence(batch);
                }
            }
            LogAppendInfo info = partitionLog.appendAsLeader(records, leaderEpoch);
            long next = info.firstOffset();
            for (MutableRecordBatch batch : batches) {
                long count = batch.lastOffset() - batch.baseOffset() + 1;
                if (batch.producerId() != RecordBatch.NO_PRODUCER_ID) {
                    state.update(batch, next, next + count - 1);
                }
                next += count;
            }
            return info;
        }
    }

    /** Appends batches replicated from the leader and records their producers' sequences. */
    public LogAppendInfo appendAsFollower(PartitionLog partitionLog, MemoryRecords records) {
        ProducerStateManager state = states.computeIfAbsent(partitionLog, ProducerStateManager::load);
        synchronized (state) {
            LogAppendInfo info = partitionLog.appendAsFollower(records);
            for (MutableRecordBatch batch : records.batches()) {
                if (batch.producerId() != RecordBatch.NO_PRODUCER_ID) {
                    state.update(batch, batch.baseOffset(), batch.lastOffset());
                }
            }
            return info;
        }
    }

    /** Forgets the producer state of a truncated log; it is rebuilt from snapshot and log when next needed. */
    public void reset(PartitionLog partitionLog) {
        states.remove(partitionLog);
    }

    /** Writes a producer-state snapshot of every partition that has idempotent producers. */
    public void snapshotAll() {
        List<Map.Entry<PartitionLog, ProducerStateManager>> entries;
        synchronized (states) {
            entries = new ArrayList<>(states.entrySet());
        }
        for (Map.Entry<PartitionLog, ProducerStateManager> entry : entries) {
            PartitionLog partitionLog = entry.getKey();
            synchronized (entry.getValue()) {
                try {
                    entry.getValue().writeSnapshot(partitionLog.dir(), partitionLog.logEndOffset());
                } catch (IOException | RuntimeException e) {
                    log.warn("could not snapshot producer state of {}: {}", partitionLog.topicPartition(), e.getMessage());
                }
            }
        }
    }
}

package io.tributary.broker.txn;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.coordinator.transaction.generated.TransactionLogKey;
import org.apache.kafka.coordinator.transaction.generated.TransactionLogValue;
import org.apache.kafka.coordinator.transaction.generated.TransactionLogValue.PartitionsSchema;

/**
 * What {@code __transaction_state} holds for one transactional id: the value of its latest record, in Kafka's own
 * layouts (its generated {@code TransactionLogKey} v0 and {@code TransactionLogValue}, each prefixed with its version
 * as a short), so Kafka's tools decode our records. Values are written in version 1 (transaction.version 1 and up:
 * flexible, with the tagged previous and next producer ids and the client's transaction version); version 0, which
 * has none of the three, is read too. A null value (tombstone) removes the id.
 *
 * @param previousProducerId       the producer id before the last rotation (its epochs ran out), so that a retried
 *                                 EndTxn of that producer is recognised; -1 if none
 * @param nextProducerId           the producer id an epoch-bumping EndTxn chose because the current one's epochs ran
 *                                 out: the transaction completes under it, at epoch 0; -1 if none
 * @param clientTransactionVersion 2 if the transaction's producer speaks transaction version 2 (KIP-890: an epoch bump
 *                                 with every EndTxn), else 0
 */
public record TransactionRecord(String transactionalId, long producerId, long previousProducerId, long nextProducerId,
                                short producerEpoch, int timeoutMs, TransactionState state, Set<TopicPartition> partitions,
                                long lastUpdateMs, long startMs, short clientTransactionVersion) {
    private static final short KEY_VERSION = 0;
    private static final short VALUE_VERSION = 1;
    /** The client transaction version of producers that bump their epoch with every transaction (KIP-890 part 2). */
    public static final short EPOCH_BUMPING_VERSION = 2;

    public TransactionRecord {
        partitions = Set.copyOf(partitions);
    }

    /** A state with no producer id rotation and a client of transaction version 0 or 1. */
    public TransactionRecord(String transactionalId, long producerId, short producerEpoch, int timeoutMs,
                             TransactionState state, Set<TopicPartition> partitions, long lastUpdateMs, long startMs) {
        this(transactionalId, producerId, RecordBatch.NO_PRODUCER_ID, RecordBatch.NO_PRODUCER_ID, producerEpoch, timeoutMs,
                state, partitions, lastUpdateMs, startMs, (short) 0);
    }

    /** Whether the transaction's producer moves to a new epoch with every EndTxn (transaction version 2). */
    public boolean bumpsEpoch() {
        return clientTransactionVersion >= EPOCH_BUMPING_VERSION;
    }

    byte[] key() {
        return key(transactionalId);
    }

    static byte[] key(String transactionalId) {
        return MessageUtil.toVersionPrefixedBytes(KEY_VERSION, new TransactionLogKey().setTransactionalId(transactionalId));
    }

    static String readKey(ByteBuffer key) {
        short version = key.getShort();
        if (version != KEY_VERSION) {
            throw new IllegalArgumentException("unknown transaction log key version " + version);
        }
        return new TransactionLogKey(new ByteBufferAccessor(key), version).transactionalId();
    }

    byte[] value() {
        Map<String, Set<Integer>> byTopic = new TreeMap<>();
        partitions.forEach(tp -> byTopic.computeIfAbsent(tp.topic(), t -> new TreeSet<>()).add(tp.partition()));
        List<PartitionsSchema> topics = new ArrayList<>();
        byTopic.forEach((topic, ids) -> topics.add(new PartitionsSchema().setTopic(topic).setPartitionIds(List.copyOf(ids))));
        return MessageUtil.toVersionPrefixedBytes(VALUE_VERSION, new TransactionLogValue()
                .setProducerId(producerId)
                .setPreviousProducerId(previousProducerId)
                .setNextProducerId(nextProducerId)
                .setProducerEpoch(producerEpoch)
                .setTransactionTimeoutMs(timeoutMs)
                .setTransactionStatus(state.id())
                .setTransactionPartitions(topics)
                .setTransactionLastUpdateTimestampMs(lastUpdateMs)
                .setTransactionStartTimestampMs(startMs)
                .setClientTransactionVersion(clientTransactionVersion));
    }

    static TransactionRecord read(String transactionalId, ByteBuffer value) {
        short version = value.getShort();
        if (version < 0 || version > VALUE_VERSION) {
            throw new IllegalArgumentException("unknown transaction log value version " + version);
        }
        TransactionLogValue stored = new TransactionLogValue(new ByteBufferAccessor(value), version);
        Set<TopicPartition> partitions = new HashSet<>();
        if (stored.transactionPartitions() != null) {
            stored.transactionPartitions().forEach(topic -> topic.partitionIds()
                    .forEach(partition -> partitions.add(new TopicPartition(topic.topic(), partition))));
        }
        return new TransactionRecord(transactionalId, stored.producerId(), stored.previousProducerId(),
                stored.nextProducerId(), stored.producerEpoch(), stored.transactionTimeoutMs(),
                TransactionState.fromId(stored.transactionStatus()), partitions, stored.transactionLastUpdateTimestampMs(),
                stored.transactionStartTimestampMs(), stored.clientTransactionVersion());
    }
}

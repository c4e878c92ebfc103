package io.tributary.broker.txn;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.coordinator.InternalTopic;
import io.tributary.broker.log.LogConfig;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transactional ids' state, durable in the compacted internal topic {@code __transaction_state}: one
 * {@link TransactionRecord} per state change, all of an id's records in the partition whose leader coordinates it.
 * Writes are acks=-1 appends through that leader; a partition is loaded when this broker starts to coordinate it.
 */
public final class TransactionStateStore {
    public static final String TOPIC = Topic.TRANSACTION_STATE_TOPIC_NAME;
    private static final Logger log = LoggerFactory.getLogger(TransactionStateStore.class);

    private final InternalTopic topic;
    private final Time time;

    TransactionStateStore(InternalTopic topic, Time time) {
        this.topic = topic;
        this.time = time;
    }

    /** Opens {@code __transaction_state}, created with the {@code transaction.state.log.*} settings on first use. */
    public static TransactionStateStore open(TopicManager topics, TransactionConfig config, InternalTopic.Appender appender,
                                             Time time) {
        Map<String, String> configs = Map.of(
                LogConfig.SEGMENT_BYTES, Integer.toString(config.stateLogSegmentBytes()),
                LogConfig.MIN_IN_SYNC_REPLICAS, Integer.toString(config.stateLogMinIsr()));
        return new TransactionStateStore(InternalTopic.open(topics, TOPIC, config.stateLogPartitions(),
                config.stateLogReplicationFactor(), configs, appender), time);
    }

    public int partitionFor(String transactionalId) {
        return topic.partitionFor(transactionalId);
    }

    public void ensureTopic() {
        topic.ensureExists();
    }

    /**
     * Appends the new state of one transactional id.
     *
     * @return completes once the partition's ISR has it, or with the error that prevented it
     */
    CompletableFuture<Errors> write(TransactionRecord state) {
        MemoryRecords records = MemoryRecords.withRecords(Compression.NONE,
                new SimpleRecord(time.milliseconds(), state.key(), state.value()));
        try {
            return topic.append(state.transactionalId(), records);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(Errors.forException(e));
        }
    }

    /** Appends the tombstone that forgets {@code transactionalId}; completes once the ISR has it. */
    CompletableFuture<Errors> delete(String transactionalId) {
        MemoryRecords records = MemoryRecords.withRecords(Compression.NONE,
                new SimpleRecord(time.milliseconds(), TransactionRecord.key(transactionalId), null));
        try {
            return topic.append(transactionalId, records);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(Errors.forException(e));
        }
    }

    /** The latest state of each transactional id of one partition; ids whose last record is a tombstone are absent. */
    Map<String, TransactionRecord> load(int partition) {
        Map<String, TransactionRecord> states = new HashMap<>();
        topic.replay(partition, batch -> {
            for (Record record : batch) {
                if (!record.hasKey()) {
                    continue;
                }
                try {
                    String id = TransactionRecord.readKey(record.key());
                    if (record.hasValue()) {
                        states.put(id, TransactionRecord.read(id, record.value()));
                    } else {
                        states.remove(id);
                    }
                } catch (RuntimeException e) {
                    log.warn("skipping unreadable record at offset {} of {}-{}: {}", record.offset(), TOPIC, partition,
                            e.toString());
                }
            }
        });
        return states;
    }
}

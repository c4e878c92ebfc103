package io.tributary.broker.group;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.coordinator.InternalTopic;
import io.tributary.broker.group.consumer.ConsumerGroupRecords;
import io.tributary.broker.group.consumer.ConsumerMembership;
import io.tributary.broker.log.AppendOrigin;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.log.ProducerStateManager;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Committed offsets, durable in the compacted internal topic {@code __consumer_offsets}: one
 * record per (group, topic, partition), all of a group's records in partition
 * {@code abs(hash(group)) % partitions}, so the leader of that partition is the group's
 * coordinator. Writes are appends to our own partition logs (in a cluster, through the
 * partition's leader, which refuses when this broker does not lead it, with acks=-1 semantics:
 * min.insync.replicas is checked and the write completes once the ISR has it); a delete is a
 * tombstone. A partition is loaded when this broker starts to coordinate it. Thread-safe as the
 * logs are; callers order the writes of one group.
 */
public final class OffsetStore {
    public static final String TOPIC = Topic.GROUP_METADATA_TOPIC_NAME;
    private static final Logger log = LoggerFactory.getLogger(OffsetStore.class);
    private static final int LEADER_EPOCH = 0;
    private static final String SEGMENT_BYTES = Integer.toString(100 * 1024 * 1024);

    private final InternalTopic topic;
    private final Time time;

    /** @param partitions the logs of partitions 0..n-1 of the offsets topic, all led by this broker, without replicas */
    public OffsetStore(List<PartitionLog> partitions, Time time) {
        this(partitions, (tp, records) -> {
            partitions.get(tp.partition()).appendAsLeader(records, LEADER_EPOCH, AppendOrigin.COORDINATOR);
            return CompletableFuture.completedFuture(Errors.NONE);
        }, time);
    }

    /** Over the logs of partitions 0..n-1 of the offsets topic, writing through {@code appender}. */
    OffsetStore(List<PartitionLog> partitions, InternalTopic.Appender appender, Time time) {
        this(InternalTopic.over(TOPIC, partitions, appender), time);
    }

    private OffsetStore(InternalTopic topic, Time time) {
        this.topic = topic;
        this.time = time;
    }

    /**
     * Opens the offsets topic (see {@link InternalTopic}: created compacted with {@code partitionCount} partitions
     * and {@code replicationFactor} replicas on first use — the first FindCoordinator or commit — as Kafka does).
     */
    public static OffsetStore open(TopicManager topics, int partitionCount, short replicationFactor,
                                   InternalTopic.Appender appender, Time time) {
        return new OffsetStore(InternalTopic.open(topics, TOPIC, partitionCount, replicationFactor,
                Map.of(LogConfig.SEGMENT_BYTES, SEGMENT_BYTES), appender), time);
    }

    /** Creates the offsets topic if it does not exist yet. */
    public void ensureTopic() {
        topic.ensureExists();
    }

    public int partitionCount() {
        return topic.partitionCount();
    }

    /** The offsets-topic partition that holds {@code groupId}'s offsets. */
    public int partitionFor(String groupId) {
        return topic.partitionFor(groupId);
    }

    /**
     * Appends the commits of one group as one batch (not empty).
     *
     * @return completes once the ISR has them (see {@link Appender})
     * @throws RuntimeException the log's errors (kafka-clients exceptions)
     */
    CompletableFuture<Errors> write(String groupId, Map<TopicPartition, CommittedOffset> commits) {
        long now = time.milliseconds();
        List<SimpleRecord> records = new ArrayList<>();
        commits.forEach((partition, offset) -> records.add(new SimpleRecord(now,
                OffsetRecords.key(groupId, partition), OffsetRecords.value(offset))));
        return append(groupId, records);
    }

    /** The tombstones of the group's offsets of {@code removed}, for {@link #appendGroupRecords}. */
    List<SimpleRecord> offsetTombstones(String groupId, Collection<TopicPartition> removed) {
        long now = time.milliseconds();
        List<SimpleRecord> records = new ArrayList<>();
        removed.forEach(partition -> records.add(new SimpleRecord(now, OffsetRecords.key(groupId, partition), null)));
        return records;
    }

    /**
     * Appends records of one group as one batch (a consumer group's changes, a deletion's tombstones); completes once the
     * ISR has them, or with the error that stopped them.
     *
     * @throws RuntimeException if they could not be appended at all (nothing was: too few replicas in sync, leadership
     *         lost)
     */
    CompletableFuture<Errors> appendGroupRecords(String groupId, List<SimpleRecord> records) {
        return append(groupId, records);
    }

    /**
     * Appends the classic group's record, its members with {@code assignments} (by member id; a missing one is empty).
     *
     * @return completes once the ISR has it, with the error to tell the members ({@link #clientError}), never exceptionally
     */
    CompletableFuture<Errors> storeClassicGroup(Group group, Map<String, byte[]> assignments) {
        try {
            return append(group.groupId(), List.of(ClassicGroupRecords.of(group, assignments, time.milliseconds())))
                    .handle((error, failure) -> clientError(failure == null ? error : Errors.forException(failure)));
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(clientError(Errors.forException(e)));
        }
    }

    /**
     * What a client is told when a coordinator's write ended in {@code error}, as Kafka tells it: a lost leadership
     * sends it to the new coordinator (NOT_COORDINATOR); too few replicas or a timeout make it retry
     * (COORDINATOR_NOT_AVAILABLE).
     */
    static Errors clientError(Errors error) {
        return switch (error) {
            case NONE -> Errors.NONE;
            case NOT_LEADER_OR_FOLLOWER, NOT_COORDINATOR -> Errors.NOT_COORDINATOR;
            default -> Errors.COORDINATOR_NOT_AVAILABLE;
        };
    }

    private CompletableFuture<Errors> append(String groupId, List<SimpleRecord> records) {
        return topic.append(groupId, MemoryRecords.withRecords(Compression.NONE, records.toArray(SimpleRecord[]::new)));
    }

    /**
     * Appends the offset commits of a transaction as one transactional batch of {@code producerId}: they count only
     * once the transaction's COMMIT marker follows them in the partition.
     */
    CompletableFuture<Errors> writeTransactional(String groupId, long producerId, short producerEpoch,
                                                 Map<TopicPartition, CommittedOffset> commits) {
        long now = time.milliseconds();
        List<SimpleRecord> records = new ArrayList<>();
        commits.forEach((partition, offset) -> records.add(new SimpleRecord(now,
                OffsetRecords.key(groupId, partition), OffsetRecords.value(offset))));
        // Sequence 0, as Kafka writes them: the coordinator's appends are not sequence-checked.
        return topic.append(groupId, MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, producerEpoch,
                0, records.toArray(SimpleRecord[]::new)));
    }

    /**
     * What one offsets partition holds: the committed offsets by group, and the offset commits of transactions not
     * completed yet, by producer id and group.
     */
    record Loaded(Map<String, Map<TopicPartition, CommittedOffset>> committed,
                  Map<Long, Map<String, Map<TopicPartition, CommittedOffset>>> pending,
                  Map<String, ConsumerMembership> consumerGroups, Map<String, GroupMetadataValue> classicGroups) {
    }

    /**
     * Reads one partition from its start to its end: the latest commit per key wins, a tombstone removes the key, a
     * transaction's commits count at its COMMIT marker (and are dropped at its ABORT marker). Records this broker
     * cannot read are logged and skipped.
     *
     * @return nothing if this broker holds no replica of the partition
     */
    Loaded load(int offsetsPartition) {
        Map<String, Map<TopicPartition, CommittedOffset>> groups = new HashMap<>();
        Map<Long, Map<String, Map<TopicPartition, CommittedOffset>>> pending = new HashMap<>();
        ConsumerGroupRecords.Replay consumerGroups = new ConsumerGroupRecords.Replay();
        ClassicGroupRecords.Replay classicGroups = new ClassicGroupRecords.Replay();
        topic.replay(offsetsPartition, batch -> {
            if (batch.isControlBatch()) {
                Map<String, Map<TopicPartition, CommittedOffset>> completed = pending.remove(batch.producerId());
                // A marker the cleaner emptied ends a transaction none of whose data is left: nothing to apply.
                boolean emptied = !batch.iterator().hasNext();
                if (completed != null && !emptied && ProducerStateManager.markerType(batch) == ControlRecordType.COMMIT) {
                    completed.forEach((group, offsets) -> groups.computeIfAbsent(group, g -> new HashMap<>()).putAll(offsets));
                }
                return;
            }
            Map<String, Map<TopicPartition, CommittedOffset>> target = batch.isTransactional()
                    ? pending.computeIfAbsent(batch.producerId(), id -> new HashMap<>()) : groups;
            for (Record record : batch) {
                if (record.hasKey() && ConsumerGroupRecords.isConsumerGroupKey(record.key())) {
                    replayGroupRecord(consumerGroups::apply, record, offsetsPartition);
                } else if (record.hasKey() && ClassicGroupRecords.isClassicGroupKey(record.key())) {
                    replayGroupRecord(classicGroups::apply, record, offsetsPartition);
                } else {
                    apply(target, record, offsetsPartition);
                }
            }
        });
        groups.values().removeIf(Map::isEmpty);
        return new Loaded(groups, pending, consumerGroups.groups(), classicGroups.groups());
    }

    /** Gives a group record's key and value (null for a tombstone) to {@code replay}; an unreadable one is logged and skipped. */
    private static void replayGroupRecord(BiConsumer<ByteBuffer, ByteBuffer> replay, Record record, int offsetsPartition) {
        try {
            replay.accept(record.key(), record.hasValue() ? record.value() : null);
        } catch (RuntimeException e) {
            log.warn("skipping unreadable group record at offset {} of {}: {}", record.offset(),
                    new TopicPartition(TOPIC, offsetsPartition), e.toString());
        }
    }

    private static void apply(Map<String, Map<TopicPartition, CommittedOffset>> groups, Record record,
                              int offsetsPartition) {
        if (!record.hasKey()) {
            return;
        }
        try {
            OffsetRecords.Key key = OffsetRecords.readKey(record.key());
            Map<TopicPartition, CommittedOffset> offsets = groups.computeIfAbsent(key.groupId(), g -> new HashMap<>());
            if (record.hasValue()) {
                offsets.put(key.partition(), OffsetRecords.readValue(record.value()));
            } else {
                offsets.remove(key.partition());
            }
        } catch (RuntimeException e) {
            log.warn("skipping unreadable record at offset {} of {}: {}", record.offset(), new TopicPartition(TOPIC, offsetsPartition), e.toString());
        }
    }
}

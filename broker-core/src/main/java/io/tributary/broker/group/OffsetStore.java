package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.log.FetchDataInfo;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.PartitionLog;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Utils;
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
    private static final int READ_CHUNK_BYTES = 1024 * 1024;
    private static final String SEGMENT_BYTES = Integer.toString(100 * 1024 * 1024);

    private final int partitionCount;
    private final IntFunction<Optional<PartitionLog>> logs;
    private final Appender appender;
    private final Runnable topicCreator;
    private final Time time;

    /** Appends a batch of offset records to a partition of the offsets topic as its leader. */
    public interface Appender {
        /**
         * @return completes with NONE once the partition's ISR has the batch, or with the error that prevented it
         * @throws RuntimeException (a kafka-clients exception) if the batch could not be appended at all
         */
        CompletableFuture<Errors> append(TopicPartition partition, MemoryRecords records);
    }

    /** @param partitions the logs of partitions 0..n-1 of the offsets topic, all led by this broker, without replicas */
    public OffsetStore(List<PartitionLog> partitions, Time time) {
        this(partitions, (tp, records) -> {
            partitions.get(tp.partition()).appendAsLeader(records, LEADER_EPOCH);
            return CompletableFuture.completedFuture(Errors.NONE);
        }, time);
    }

    /** Over the logs of partitions 0..n-1 of the offsets topic, writing through {@code appender}. */
    OffsetStore(List<PartitionLog> partitions, Appender appender, Time time) {
        this(checkedCount(partitions), p -> Optional.of(partitions.get(p)), appender, () -> { }, time);
    }

    private OffsetStore(int partitionCount, IntFunction<Optional<PartitionLog>> logs, Appender appender, Runnable topicCreator,
                        Time time) {
        this.partitionCount = partitionCount;
        this.logs = logs;
        this.appender = appender;
        this.topicCreator = topicCreator;
        this.time = time;
    }

    private static int checkedCount(List<PartitionLog> partitions) {
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException("the offsets topic needs at least one partition");
        }
        return partitions.size();
    }

    /**
     * Opens the offsets topic. It is created (compacted, {@code partitionCount} partitions,
     * {@code replicationFactor} replicas or as many as brokers are alive then) on first use — the
     * first FindCoordinator or commit, normally once the cluster's brokers are up — as Kafka does.
     * An existing topic keeps its partition count: the count decides which partition holds a
     * group, so it must never change under stored offsets.
     */
    public static OffsetStore open(TopicManager topics, int partitionCount, short replicationFactor, Appender appender, Time time) {
        Runnable creator = () -> createIfAbsent(topics, partitionCount, replicationFactor);
        int count = topics.topic(TOPIC).map(TopicManager.TopicState::partitionCount).orElse(partitionCount);
        if (count != partitionCount) {
            log.warn("{} has {} partitions; keeping them (offsets.topic.num.partitions is {})", TOPIC, count, partitionCount);
        }
        return new OffsetStore(count, p -> topics.log(new TopicPartition(TOPIC, p)), appender, creator, time);
    }

    private static void createIfAbsent(TopicManager topics, int partitionCount, short replicationFactor) {
        for (short replicas = replicationFactor; replicas >= 1 && topics.topic(TOPIC).isEmpty(); replicas--) {
            try {
                topics.create(TOPIC, partitionCount, replicas, Map.of(
                        LogConfig.CLEANUP_POLICY, LogConfig.CLEANUP_POLICY_COMPACT,
                        LogConfig.SEGMENT_BYTES, SEGMENT_BYTES), false);
            } catch (TopicExistsException e) {
                return; // created concurrently: use it
            } catch (InvalidReplicationFactorException e) {
                log.warn("creating {}: {}; trying {} replicas", TOPIC, e.getMessage(), replicas - 1);
            }
        }
    }

    /** Creates the offsets topic if it does not exist yet. */
    public void ensureTopic() {
        topicCreator.run();
    }

    public int partitionCount() {
        return partitionCount;
    }

    /** The offsets-topic partition that holds {@code groupId}'s offsets. */
    public int partitionFor(String groupId) {
        return Utils.abs(groupId.hashCode()) % partitionCount;
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

    /**
     * Appends tombstones for the group's offsets of {@code removed} (not empty). Unlike a commit,
     * the caller does not wait for the ISR to have them.
     */
    void delete(String groupId, Collection<TopicPartition> removed) {
        long now = time.milliseconds();
        List<SimpleRecord> records = new ArrayList<>();
        removed.forEach(partition -> records.add(new SimpleRecord(now, OffsetRecords.key(groupId, partition), null)));
        append(groupId, records);
    }

    private CompletableFuture<Errors> append(String groupId, List<SimpleRecord> records) {
        MemoryRecords batch = MemoryRecords.withRecords(Compression.NONE, records.toArray(SimpleRecord[]::new));
        ensureTopic();
        return appender.append(new TopicPartition(TOPIC, partitionFor(groupId)), batch);
    }

    /**
     * Reads one partition from its start to its end: the latest commit per key wins, a tombstone
     * removes the key. Records this broker cannot read are logged and skipped.
     *
     * @return committed offsets by group; empty if this broker holds no replica of the partition
     */
    Map<String, Map<TopicPartition, CommittedOffset>> load(int offsetsPartition) {
        Map<String, Map<TopicPartition, CommittedOffset>> groups = new HashMap<>();
        PartitionLog partition = logs.apply(offsetsPartition).orElse(null);
        if (partition == null) {
            return groups;
        }
        long position = partition.logStartOffset();
        long end = partition.logEndOffset();
        while (position < end) {
            FetchDataInfo chunk = partition.read(position, READ_CHUNK_BYTES, end, true);
            long next = position;
            for (RecordBatch batch : chunk.records().batches()) {
                for (Record record : batch) {
                    apply(groups, record, partition);
                }
                next = batch.nextOffset();
            }
            if (next == position) {
                break; // nothing more readable below the end offset
            }
            position = next;
        }
        groups.values().removeIf(Map::isEmpty);
        return groups;
    }

    private static void apply(Map<String, Map<TopicPartition, CommittedOffset>> groups, Record record,
                              PartitionLog partition) {
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
            log.warn("skipping unreadable record at offset {} of {}: {}", record.offset(), partition.topicPartition(), e.toString());
        }
    }
}

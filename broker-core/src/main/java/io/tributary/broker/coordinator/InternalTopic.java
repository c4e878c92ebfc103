package io.tributary.broker.coordinator;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.log.FetchDataInfo;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.PartitionLog;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A coordinator's compacted internal topic ({@code __consumer_offsets}, {@code __transaction_state}): all the
 * state of one key lives in partition {@code abs(hash(key)) % partitions}, whose leader coordinates the key. It is
 * created on first use with its configured replication factor (fewer replicas if fewer brokers are alive then);
 * an existing topic keeps its partition count, since the count decides where a key's state lies. Writes go
 * through an {@link Appender} (acks=-1 appends as the partition's leader); loads replay a local replica's log.
 * Thread-safe as the logs are.
 */
public final class InternalTopic {
    private static final Logger log = LoggerFactory.getLogger(InternalTopic.class);
    private static final int READ_CHUNK_BYTES = 1024 * 1024;

    private final String name;
    private final int partitionCount;
    private final IntFunction<Optional<PartitionLog>> logs;
    private final Appender appender;
    private final Runnable creator;

    /** Appends a batch to a partition of the topic as its leader. */
    public interface Appender {
        /**
         * @return completes with NONE once the partition's ISR has the batch, or with the error that prevented it
         * @throws RuntimeException (a kafka-clients exception) if the batch could not be appended at all
         */
        CompletableFuture<Errors> append(TopicPartition partition, MemoryRecords records);
    }

    private InternalTopic(String name, int partitionCount, IntFunction<Optional<PartitionLog>> logs, Appender appender,
                          Runnable creator) {
        this.name = name;
        this.partitionCount = partitionCount;
        this.logs = logs;
        this.appender = appender;
        this.creator = creator;
    }

    /**
     * The topic {@code name} of the cluster, created on first use with the given partitions and replicas, compacted,
     * with the topic configs {@code configs}.
     */
    public static InternalTopic open(TopicManager topics, String name, int partitionCount, short replicationFactor,
                                     Map<String, String> configs, Appender appender) {
        int count = topics.topic(name).map(TopicManager.TopicState::partitionCount).orElse(partitionCount);
        if (count != partitionCount) {
            log.warn("{} has {} partitions; keeping them (the configured count is {})", name, count, partitionCount);
        }
        return new InternalTopic(name, count, p -> topics.log(new TopicPartition(name, p)), appender,
                () -> createIfAbsent(topics, name, partitionCount, replicationFactor, configs));
    }

    /** Over the logs of partitions 0..n-1, all led by this broker, without replicas (tests, single logs). */
    public static InternalTopic over(String name, List<PartitionLog> partitions, Appender appender) {
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException(name + " needs at least one partition");
        }
        return new InternalTopic(name, partitions.size(), p -> Optional.of(partitions.get(p)), appender, () -> { });
    }

    private static void createIfAbsent(TopicManager topics, String name, int partitionCount, short replicationFactor,
                                       Map<String, String> configs) {
        Map<String, String> compacted = new HashMap<>(configs);
        compacted.put(LogConfig.CLEANUP_POLICY, LogConfig.CLEANUP_POLICY_COMPACT);
        String minIsr = configs.get(LogConfig.MIN_IN_SYNC_REPLICAS);
        for (short replicas = replicationFactor; replicas >= 1 && topics.topic(name).isEmpty(); replicas--) {
            if (minIsr != null) {
                // Fewer replicas than asked for: a min.insync.replicas above them would refuse every write.
                compacted.put(LogConfig.MIN_IN_SYNC_REPLICAS, Integer.toString(Math.min(Integer.parseInt(minIsr), replicas)));
            }
            try {
                topics.create(name, partitionCount, replicas, compacted, false);
            } catch (TopicExistsException e) {
                return; // created concurrently: use it
            } catch (InvalidReplicationFactorException e) {
                log.warn("creating {}: {}; trying {} replicas", name, e.getMessage(), replicas - 1);
            }
        }
    }

    public String name() {
        return name;
    }

    public int partitionCount() {
        return partitionCount;
    }

    /** The partition that holds {@code key}'s state. */
    public int partitionFor(String key) {
        return Utils.abs(key.hashCode()) % partitionCount;
    }

    /** Creates the topic if it does not exist yet. */
    public void ensureExists() {
        creator.run();
    }

    /** Appends {@code records} to the partition of {@code key}, creating the topic first if needed. */
    public CompletableFuture<Errors> append(String key, MemoryRecords records) {
        ensureExists();
        return appender.append(new TopicPartition(name, partitionFor(key)), records);
    }

    /**
     * Hands every batch of the local replica of {@code partition}, from its start to its end, to {@code each}.
     *
     * @return false if this broker holds no replica of the partition
     */
    public boolean replay(int partition, Consumer<RecordBatch> each) {
        PartitionLog partitionLog = logs.apply(partition).orElse(null);
        if (partitionLog == null) {
            return false;
        }
        long position = partitionLog.logStartOffset();
        long end = partitionLog.logEndOffset();
        while (position < end) {
            FetchDataInfo chunk = partitionLog.read(position, READ_CHUNK_BYTES, end, true);
            long next = position;
            for (RecordBatch batch : chunk.records().batches()) {
                each.accept(batch);
                next = batch.nextOffset();
            }
            if (next == position) {
                break; // nothing more readable below the end offset
            }
            position = next;
        }
        return true;
    }
}

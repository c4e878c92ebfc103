package io.tributary.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The workers of the partitions currently assigned to this consumer. Used only by the poll
 * thread (rebalance callbacks run there too), so it needs no locking of its own.
 */
final class PartitionWorkers {
    private final Map<TopicPartition, PartitionWorker> workers = new HashMap<>();
    private final Function<TopicPartition, PartitionWorker> factory;
    private final Time time;

    PartitionWorkers(Function<TopicPartition, PartitionWorker> factory, Time time) {
        this.factory = factory;
        this.time = time;
    }

    void assign(Collection<TopicPartition> partitions) {
        partitions.forEach(partition -> workers.computeIfAbsent(partition, factory));
    }

    /** Hands each partition's fetched records to its worker. */
    void dispatch(ConsumerRecords<byte[], byte[]> records) {
        for (TopicPartition partition : records.partitions()) {
            workers.computeIfAbsent(partition, factory).enqueue(records.records(partition));
        }
    }

    Collection<PartitionWorker> all() {
        return workers.values();
    }

    /** Offsets to commit for every partition with finished work. */
    Map<TopicPartition, OffsetAndMetadata> completedOffsets() {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        workers.forEach((partition, worker) -> worker.completedOffset().ifPresent(o -> offsets.put(partition, o)));
        return offsets;
    }

    /**
     * Stops the workers of {@code partitions}, waits (all together, at most {@code timeout}) for
     * their handler calls in progress, forgets them and returns the offsets they finished.
     */
    Map<TopicPartition, OffsetAndMetadata> release(Collection<TopicPartition> partitions, Duration timeout)
            throws InterruptedException {
        List<PartitionWorker> released = new ArrayList<>();
        for (TopicPartition partition : partitions) {
            PartitionWorker worker = workers.remove(partition);
            if (worker != null) {
                worker.abort();
                released.add(worker);
            }
        }
        long deadlineMs = time.milliseconds() + timeout.toMillis();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (PartitionWorker worker : released) {
            worker.awaitIdle(deadlineMs);
            worker.completedOffset().ifPresent(offset -> offsets.put(worker.partition(), offset));
        }
        return offsets;
    }

    /** Partitions whose queue holds at least {@code limit} records. */
    List<TopicPartition> atOrAbove(int limit) {
        return select(worker -> worker.queued() >= limit);
    }

    /** Partitions whose queue holds at most {@code limit} records. */
    List<TopicPartition> atOrBelow(int limit) {
        return select(worker -> worker.queued() <= limit);
    }

    private List<TopicPartition> select(Predicate<PartitionWorker> condition) {
        List<TopicPartition> selected = new ArrayList<>();
        workers.values().stream().filter(condition).forEach(worker -> selected.add(worker.partition()));
        return selected;
    }
}

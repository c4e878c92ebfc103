package io.tributary.broker.replica;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import io.tributary.broker.controller.PartitionState;
import io.tributary.broker.controller.PartitionStateStore;
import org.apache.kafka.common.TopicPartition;

/**
 * Writes the leaders' ISR changes to ZooKeeper on a thread of its own, as Kafka's AlterPartition manager sends them to
 * the controller: the fetch handlers and the ISR check only start a write, so an unreachable ZooKeeper (Curator may
 * keep a call waiting for its whole retry time) never holds up a request thread. Writes go one after another; each
 * partition has at most one in flight ({@link Partition}), so at most one per partition waits here.
 */
final class ZooKeeperIsrWriter implements Partition.IsrWriter, AutoCloseable {
    private final PartitionStateStore states;
    private final ExecutorService writer = Executors.newSingleThreadExecutor(ReplicaManager.daemon("tributary-isr-writer"));

    ZooKeeperIsrWriter(PartitionStateStore states) {
        this.states = states;
    }

    @Override
    public CompletableFuture<Partition.IsrWrite> write(TopicPartition partition, PartitionState proposed) {
        try {
            return CompletableFuture.supplyAsync(() -> compareAndSet(partition, proposed), writer);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(e); // closed: the broker is shutting down
        }
    }

    /** Stored by compare-and-set, or, if someone changed the state first, what is stored now. */
    private Partition.IsrWrite compareAndSet(TopicPartition partition, PartitionState proposed) {
        return states.update(partition, proposed).map(Partition.IsrWrite::stored)
                .orElseGet(() -> Partition.IsrWrite.lost(states.read(partition)));
    }

    /** Drops the writes not yet started; their partitions' leaderships end with the broker. */
    @Override
    public void close() {
        writer.shutdownNow();
    }
}

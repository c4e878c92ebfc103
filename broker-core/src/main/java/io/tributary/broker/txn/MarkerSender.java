package io.tributary.broker.txn;

import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import io.tributary.broker.coordinator.CoordinatorLoader;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a decided transaction's marker to every partition of it: through the local {@link MarkerAppender} where
 * this broker leads, through WriteTxnMarkers to the leader elsewhere. Partitions that fail (no leader, a leader
 * that moved, too few replicas) are tried again every {@value #RETRY_BACKOFF_MS} ms until all have the marker or
 * the coordinator loses the transaction's state partition; a deleted partition needs no marker. One thread sends.
 */
final class MarkerSender implements AutoCloseable {
    static final long RETRY_BACKOFF_MS = 100;
    private static final long LOCAL_WAIT_MS = 30_000;
    private static final Logger log = LoggerFactory.getLogger(MarkerSender.class);

    private final int localId;
    private final Function<TopicPartition, OptionalInt> leaders;
    private final MarkerAppender local;
    private final RemoteBrokers remote;
    private final ScheduledExecutorService sender =
            Executors.newSingleThreadScheduledExecutor(CoordinatorLoader.daemon("tributary-txn-markers"));

    /** WriteTxnMarkers to another broker. */
    interface RemoteBrokers extends AutoCloseable {
        /** @return each partition's error as the leader answered */
        Map<TopicPartition, Errors> send(int brokerId, TxnMarker marker, Set<TopicPartition> partitions) throws IOException;

        @Override
        void close();
    }

    /** @param leaders where each partition's leader is */
    MarkerSender(int localId, Function<TopicPartition, OptionalInt> leaders, MarkerAppender local, RemoteBrokers remote) {
        this.localId = localId;
        this.leaders = leaders;
        this.local = local;
        this.remote = remote;
    }

    /** Completes once every partition has the marker; fails if {@code stillCoordinating} turns false first. */
    CompletableFuture<Void> send(TxnMarker marker, Set<TopicPartition> partitions, BooleanSupplier stillCoordinating) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        sender.execute(() -> attempt(marker, new HashSet<>(partitions), stillCoordinating, done));
        return done;
    }

    private void attempt(TxnMarker marker, Set<TopicPartition> remaining, BooleanSupplier stillCoordinating,
                         CompletableFuture<Void> done) {
        if (!stillCoordinating.getAsBoolean()) {
            done.completeExceptionally(new IllegalStateException("no longer the coordinator"));
            return;
        }
        try {
            Map<Integer, Set<TopicPartition>> byLeader = new HashMap<>();
            for (TopicPartition partition : remaining) {
                OptionalInt leader = leaders.apply(partition);
                if (leader.isPresent()) {
                    byLeader.computeIfAbsent(leader.getAsInt(), id -> new HashSet<>()).add(partition);
                }
            }
            byLeader.forEach((leader, partitions) -> writtenAt(leader, marker, partitions).forEach((partition, error) -> {
                if (error == Errors.NONE || error == Errors.UNKNOWN_TOPIC_OR_PARTITION) {
                    remaining.remove(partition);
                } else {
                    log.debug("marker of producer {} for {}: {}; retrying", marker.producerId(), partition, error);
                }
            }));
        } catch (RuntimeException e) {
            log.warn("writing markers of producer {} failed; retrying", marker.producerId(), e);
        }
        if (remaining.isEmpty()) {
            done.complete(null);
        } else {
            sender.schedule(() -> attempt(marker, remaining, stillCoordinating, done), RETRY_BACKOFF_MS, TimeUnit.MILLISECONDS);
        }
    }

    private Map<TopicPartition, Errors> writtenAt(int leader, TxnMarker marker, Set<TopicPartition> partitions) {
        Map<TopicPartition, Errors> results = new HashMap<>();
        if (leader == localId) {
            for (TopicPartition partition : partitions) {
                try {
                    results.put(partition, local.append(partition, marker).get(LOCAL_WAIT_MS, TimeUnit.MILLISECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return results;
                } catch (Exception e) {
                    results.put(partition, Errors.REQUEST_TIMED_OUT);
                }
            }
            return results;
        }
        try {
            return remote.send(leader, marker, partitions);
        } catch (IOException e) {
            log.debug("WriteTxnMarkers to broker {} failed: {}", leader, e.toString());
            return results;
        }
    }

    @Override
    public void close() {
        sender.shutdownNow();
        remote.close();
    }
}

package io.tributary.sink;

import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Zombie fencing right before the rename, by the group coordinator: the offsets of the files
 * about to commit are committed to the group, and the broker accepts an OffsetCommit only from
 * a member of the current generation that owns the partitions. A writer that lost its
 * partitions (rebalance, a GC pause past the session timeout) gets CommitFailedException and
 * renames nothing. This also makes the lag visible to ordinary tools; HDFS stays the truth,
 * because partitions resume from the ledger and file names, never from these offsets.
 *
 * <p>The window left is the time between the broker's answer and the rename (milliseconds);
 * closing it fully would need a lease in the storage itself. Poll thread only.
 */
final class OwnershipFence {
    private static final Logger log = LoggerFactory.getLogger(OwnershipFence.class);

    private final Consumer<?, ?> consumer;
    private final Duration timeout;

    OwnershipFence(Consumer<?, ?> consumer, Duration timeout) {
        this.consumer = consumer;
        this.timeout = timeout;
    }

    /**
     * Commits {@code nextOffsets} to the group for the partitions still assigned.
     *
     * @return the partitions this member still owns in the current generation (possibly none)
     * @throws org.apache.kafka.common.KafkaException if the coordinator cannot be reached: ownership is unknown
     */
    Set<TopicPartition> confirm(Map<TopicPartition, Long> nextOffsets) {
        Set<TopicPartition> assigned = consumer.assignment();
        Map<TopicPartition, OffsetAndMetadata> owned = new TreeMap<>(
            java.util.Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        nextOffsets.forEach((tp, next) -> {
            if (assigned.contains(tp)) {
                owned.put(tp, new OffsetAndMetadata(next));
            }
        });
        if (owned.isEmpty()) {
            return Set.of();
        }
        try {
            consumer.commitSync(owned, timeout);
            return owned.keySet();
        } catch (CommitFailedException | RebalanceInProgressException | FencedInstanceIdException e) {
            log.warn("fenced: this sink no longer owns {} in the current group generation ({}); "
                + "their files are not committed and the new owner rewrites them", owned.keySet(), e.getMessage());
            return Set.of();
        }
    }
}

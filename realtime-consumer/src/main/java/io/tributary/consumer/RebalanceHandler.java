package io.tributary.consumer;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;

/**
 * Keeps the workers in step with the assignment. On revocation it stops the revoked partitions'
 * workers, waits (bounded) for their handler calls in progress, commits what they finished and
 * only then lets the partitions go, so the next owner starts right after the last finished
 * record. With the cooperative-sticky assignor only the partitions that really move are revoked;
 * the others keep running through the rebalance. Runs on the poll thread, inside poll().
 */
final class RebalanceHandler implements ConsumerRebalanceListener {
    private static final Logger log = LoggerFactory.getLogger(RebalanceHandler.class);

    private final Consumer<?, ?> consumer;
    private final PartitionWorkers workers;
    private final OffsetCommitter committer;
    private final StartPosition startPosition;
    private final Duration revocationTimeout;

    RebalanceHandler(Consumer<?, ?> consumer, PartitionWorkers workers, OffsetCommitter committer,
                     StartPosition startPosition, Duration revocationTimeout) {
        this.consumer = consumer;
        this.workers = workers;
        this.committer = committer;
        this.startPosition = startPosition;
        this.revocationTimeout = revocationTimeout;
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        log.info("Assigned {}", partitions);
        startPosition.seekUncommitted(consumer, partitions);
        workers.assign(partitions);
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        log.info("Revoking {}", partitions);
        releaseAndCommit(partitions, revocationTimeout);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        // Someone else may own them already: committing now could move their offsets backwards.
        log.warn("Lost {} without a clean revocation; unfinished work will be delivered again", partitions);
        try {
            workers.release(partitions, Duration.ZERO);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        committer.forget(partitions);
    }

    /** Stops the workers of {@code partitions}, commits what they finished and forgets them. */
    void releaseAndCommit(Collection<TopicPartition> partitions, Duration timeout) {
        try {
            Map<TopicPartition, OffsetAndMetadata> finished = workers.release(partitions, timeout);
            committer.commitSync(finished, timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            committer.forget(partitions);
        }
    }
}

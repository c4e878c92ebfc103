package io.tributary.broker.log.remote;

import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.TopicPartition;

/**
 * The {@link RemoteLogManager}'s state of one partition: the leader epoch this broker leads it at (-1: it does not),
 * the epoch under which its leadership claimed the remote metadata, and the metadata as last read or committed here
 * (null: read it again). Only one task of a partition runs at a time ({@link #tryStart}).
 */
final class TieredPartition {
    final TopicPartition topicPartition;
    volatile int leaderEpoch = -1;
    /** The epoch of the last committed claim of this broker's leadership; -1 if none holds now. Task thread only. */
    int claimedEpoch = -1;
    volatile RemoteLogMetadata metadata;
    private final AtomicBoolean running = new AtomicBoolean();

    TieredPartition(TopicPartition topicPartition) {
        this.topicPartition = topicPartition;
    }

    /** Whether no task of this partition runs now; if so the caller's task runs, until {@link #finished}. */
    boolean tryStart() {
        return running.compareAndSet(false, true);
    }

    void finished() {
        running.set(false);
    }
}

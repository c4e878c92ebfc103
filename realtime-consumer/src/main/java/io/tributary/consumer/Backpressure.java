package io.tributary.consumer;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Pauses fetching for partitions whose queue reached {@code maxQueued} records and resumes them
 * once it is down to half, so a slow handler bounds memory without stopping poll() (which keeps
 * the consumer in its group). Runs on the poll thread.
 */
final class Backpressure {
    private final int maxQueued;
    private final int resumeAt;

    Backpressure(int maxQueued) {
        if (maxQueued < 1) {
            throw new IllegalArgumentException("maxQueued must be >= 1, got " + maxQueued);
        }
        this.maxQueued = maxQueued;
        this.resumeAt = maxQueued / 2;
    }

    /** Pauses full partitions and resumes drained ones; returns true if any partition stays paused. */
    boolean apply(Consumer<?, ?> consumer, PartitionWorkers workers) {
        Set<TopicPartition> paused = new HashSet<>(consumer.paused());
        List<TopicPartition> toPause = new ArrayList<>(workers.atOrAbove(maxQueued));
        toPause.removeAll(paused);
        List<TopicPartition> toResume = new ArrayList<>(workers.atOrBelow(resumeAt));
        toResume.retainAll(paused);
        if (!toPause.isEmpty()) {
            consumer.pause(toPause);
        }
        if (!toResume.isEmpty()) {
            consumer.resume(toResume);
        }
        paused.addAll(toPause);
        toResume.forEach(paused::remove);
        return !paused.isEmpty();
    }
}

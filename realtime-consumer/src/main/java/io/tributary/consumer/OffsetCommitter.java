package io.tributary.consumer;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Commits finished offsets: asynchronously at most once per interval while running, and
 * synchronously when partitions are released or the consumer closes. Only offsets that moved
 * since the last commit are sent. Used only by the poll thread (commit callbacks run there too).
 */
final class OffsetCommitter {
    private static final Logger log = LoggerFactory.getLogger(OffsetCommitter.class);

    private final Consumer<?, ?> consumer;
    private final Time time;
    private final long intervalMs;
    private final Map<TopicPartition, OffsetAndMetadata> sent = new HashMap<>();
    private long nextCommitMs;

    OffsetCommitter(Consumer<?, ?> consumer, Time time, Duration interval) {
        this.consumer = consumer;
        this.time = time;
        this.intervalMs = interval.toMillis();
        this.nextCommitMs = time.milliseconds() + intervalMs;
    }

    /** Sends the moved offsets without waiting, if the commit interval has passed. */
    void maybeCommitAsync(Map<TopicPartition, OffsetAndMetadata> finished) {
        long now = time.milliseconds();
        if (now < nextCommitMs) {
            return;
        }
        nextCommitMs = now + intervalMs;
        Map<TopicPartition, OffsetAndMetadata> moved = moved(finished);
        if (moved.isEmpty()) {
            return;
        }
        sent.putAll(moved);
        consumer.commitAsync(moved, (offsets, error) -> {
            if (error != null) {
                // Forget them so the next round sends them again; a later commit supersedes anyway.
                offsets.forEach(sent::remove);
                log.warn("Asynchronous offset commit failed, will retry: {}", error.toString());
            }
        });
    }

    /**
     * Commits the moved offsets and waits for the answer. A failure is logged, not thrown: the
     * records will be delivered again (at-least-once), which is the only safe outcome left.
     */
    void commitSync(Map<TopicPartition, OffsetAndMetadata> finished, Duration timeout) {
        Map<TopicPartition, OffsetAndMetadata> moved = moved(finished);
        if (moved.isEmpty()) {
            return;
        }
        try {
            try {
                consumer.commitSync(moved, timeout);
            } catch (WakeupException pendingWakeup) {
                // A close() raced with us; the wakeup is consumed now, so the retry can block.
                consumer.commitSync(moved, timeout);
            }
            sent.putAll(moved);
            log.debug("Committed {}", moved);
        } catch (KafkaException e) {
            log.warn("Offset commit of {} failed; those records will be delivered again: {}", moved, e.toString());
        }
    }

    void forget(Collection<TopicPartition> partitions) {
        partitions.forEach(sent::remove);
    }

    private Map<TopicPartition, OffsetAndMetadata> moved(Map<TopicPartition, OffsetAndMetadata> finished) {
        Map<TopicPartition, OffsetAndMetadata> moved = new HashMap<>();
        finished.forEach((partition, offset) -> {
            OffsetAndMetadata previous = sent.get(partition);
            if (previous == null || previous.offset() != offset.offset()) {
                moved.put(partition, offset);
            }
        });
        return moved;
    }
}

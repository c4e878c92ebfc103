package io.tributary.consumer;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Where a group starts reading a partition for which it has no committed offset: the earliest
 * retained record, the end of the log, or the first record at or after a timestamp.
 * Partitions with a committed offset always resume from it.
 */
public final class StartPosition {
    private enum Kind { EARLIEST, LATEST, TIMESTAMP }

    private final Kind kind;
    private final Instant timestamp;

    private StartPosition(Kind kind, Instant timestamp) {
        this.kind = kind;
        this.timestamp = timestamp;
    }

    public static StartPosition earliest() {
        return new StartPosition(Kind.EARLIEST, null);
    }

    public static StartPosition latest() {
        return new StartPosition(Kind.LATEST, null);
    }

    /** The first record whose timestamp is at or after {@code timestamp}; the log end if there is none. */
    public static StartPosition timestamp(Instant timestamp) {
        return new StartPosition(Kind.TIMESTAMP, Objects.requireNonNull(timestamp, "timestamp"));
    }

    /** The consumer's {@code auto.offset.reset}; for a timestamp the seek happens on assignment. */
    public String autoOffsetReset() {
        return kind == Kind.EARLIEST ? "earliest" : "latest";
    }

    /**
     * For a timestamp start: seeks those of {@code partitions} that have no committed offset.
     * Does nothing for earliest/latest, which {@link #autoOffsetReset()} already covers.
     * Must run on the consumer's thread (e.g. in {@code onPartitionsAssigned}).
     */
    public void seekUncommitted(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (kind != Kind.TIMESTAMP || partitions.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(Set.copyOf(partitions));
        Map<TopicPartition, Long> query = new HashMap<>();
        for (TopicPartition partition : partitions) {
            if (committed.get(partition) == null) {
                query.put(partition, timestamp.toEpochMilli());
            }
        }
        seekToTimestamp(consumer, query);
    }

    /** Seeks every one of {@code partitions} to this position, committed offsets notwithstanding. */
    public void seek(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        switch (kind) {
            case EARLIEST -> consumer.seekToBeginning(partitions);
            case LATEST -> consumer.seekToEnd(partitions);
            case TIMESTAMP -> {
                Map<TopicPartition, Long> query = new HashMap<>();
                partitions.forEach(partition -> query.put(partition, timestamp.toEpochMilli()));
                seekToTimestamp(consumer, query);
            }
        }
    }

    private static void seekToTimestamp(Consumer<?, ?> consumer, Map<TopicPartition, Long> query) {
        if (query.isEmpty()) {
            return;
        }
        List<TopicPartition> pastTheEnd = new ArrayList<>();
        consumer.offsetsForTimes(query).forEach((partition, found) -> {
            if (found == null) {
                pastTheEnd.add(partition);
            } else {
                consumer.seek(partition, found.offset());
            }
        });
        if (!pastTheEnd.isEmpty()) { // an empty list would mean "every assigned partition"
            consumer.seekToEnd(pastTheEnd);
        }
    }

    @Override
    public String toString() {
        return kind == Kind.TIMESTAMP ? "timestamp " + timestamp : kind.name().toLowerCase();
    }
}

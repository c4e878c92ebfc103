package io.tributary.broker.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Per-topic traffic counted on the produce and fetch paths, Kafka's BrokerTopicMetrics: records and bytes clients
 * produced, bytes sent to consumers. Replication traffic is not counted, as in Kafka. Recording is a map lookup and
 * a {@link LongAdder} add, without locks; meters are built over the adders once per topic.
 */
public final class BrokerTopicStats {
    /** One topic's counters. */
    public static final class TopicStats {
        private final LongAdder messagesIn = new LongAdder();
        private final LongAdder bytesIn = new LongAdder();
        private final LongAdder bytesOut = new LongAdder();

        public long messagesIn() {
            return messagesIn.sum();
        }

        public long bytesIn() {
            return bytesIn.sum();
        }

        public long bytesOut() {
            return bytesOut.sum();
        }
    }

    private final Map<String, TopicStats> topics = new ConcurrentHashMap<>();
    private final CopyOnWriteArrayList<Consumer<String>> newTopicListeners = new CopyOnWriteArrayList<>();

    /** A producer's batches were appended to a partition of {@code topic}. */
    public void recordProduced(String topic, long records, long bytes) {
        TopicStats stats = of(topic);
        stats.messagesIn.add(records);
        stats.bytesIn.add(bytes);
    }

    /** A consumer's fetch response carried {@code bytes} of {@code topic}'s records. */
    public void recordFetched(String topic, long bytes) {
        if (bytes > 0) {
            of(topic).bytesOut.add(bytes);
        }
    }

    /** The counters of {@code topic} (zero until it has traffic). */
    public TopicStats of(String topic) {
        TopicStats stats = topics.get(topic);
        if (stats != null) {
            return stats;
        }
        TopicStats created = new TopicStats();
        stats = topics.putIfAbsent(topic, created);
        if (stats == null) {
            newTopicListeners.forEach(listener -> listener.accept(topic));
            return created;
        }
        return stats;
    }

    /** Records produced to all topics. */
    public long messagesIn() {
        return topics.values().stream().mapToLong(TopicStats::messagesIn).sum();
    }

    /** Bytes produced to all topics. */
    public long bytesIn() {
        return topics.values().stream().mapToLong(TopicStats::bytesIn).sum();
    }

    /** Bytes of all topics sent to consumers. */
    public long bytesOut() {
        return topics.values().stream().mapToLong(TopicStats::bytesOut).sum();
    }

    /** {@code listener} hears of each topic when its counters are created, and at once of those that exist. */
    public void onNewTopic(Consumer<String> listener) {
        newTopicListeners.add(listener);
        topics.keySet().forEach(listener);
    }
}

package io.tributary.consumer;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;

import java.util.List;
import java.util.regex.Pattern;

/** What the consumer subscribes to: a fixed list of topics or every topic matching a pattern. */
record Subscription(List<String> topics, Pattern pattern) {

    static Subscription topics(List<String> topics) {
        if (topics.isEmpty() || topics.stream().anyMatch(t -> t == null || t.isBlank())) {
            throw new IllegalArgumentException("topics must be non-empty names, got " + topics);
        }
        return new Subscription(List.copyOf(topics), null);
    }

    static Subscription pattern(Pattern pattern) {
        return new Subscription(List.of(), pattern);
    }

    void subscribe(Consumer<?, ?> consumer, ConsumerRebalanceListener listener) {
        if (pattern != null) {
            consumer.subscribe(pattern, listener);
        } else {
            consumer.subscribe(topics, listener);
        }
    }

    @Override
    public String toString() {
        return pattern != null ? "pattern " + pattern : "topics " + topics;
    }
}

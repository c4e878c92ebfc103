package io.tributary.consumer;

import java.util.Objects;
import java.util.Optional;

/**
 * What happens to a record whose handler still fails after all retries: either it is written to a
 * dead-letter topic (and then counts as processed), or the consumer stops without committing it.
 * There is deliberately no "skip": a record is never dropped silently.
 */
public final class FailurePolicy {
    private final String deadLetterTopic;

    private FailurePolicy(String deadLetterTopic) {
        this.deadLetterTopic = deadLetterTopic;
    }

    /** Stop consuming; the failed record and everything after it stay uncommitted. */
    public static FailurePolicy stop() {
        return new FailurePolicy(null);
    }

    /** Publish the original key, value and headers to {@code topic}, with the failure in extra headers. */
    public static FailurePolicy deadLetter(String topic) {
        Objects.requireNonNull(topic, "topic");
        if (topic.isBlank()) {
            throw new IllegalArgumentException("dead-letter topic must not be blank");
        }
        return new FailurePolicy(topic);
    }

    /** The dead-letter topic, or empty when the policy is to stop. */
    public Optional<String> deadLetterTopic() {
        return Optional.ofNullable(deadLetterTopic);
    }

    @Override
    public String toString() {
        return deadLetterTopic == null ? "stop" : "dead-letter to " + deadLetterTopic;
    }
}

package io.tributary.broker.api;

import java.util.Optional;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.cluster.TopicManager.TopicState;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;

/**
 * Finds the topic a request names, by name or (newer versions) by id, with the error code a
 * client expects when it cannot.
 */
final class TopicLookup {
    private final TopicManager topics;

    TopicLookup(TopicManager topics) {
        this.topics = topics;
    }

    /** The topic, or the error to report for it. */
    record Found(Optional<TopicState> topic, Errors error) {
        static Found error(Errors error) {
            return new Found(Optional.empty(), error);
        }
    }

    Found find(String name, Uuid id, boolean byId) {
        if (byId) {
            return topics.topic(id).map(t -> new Found(Optional.of(t), Errors.NONE)).orElse(Found.error(Errors.UNKNOWN_TOPIC_ID));
        }
        if (name == null || !Topic.isValid(name)) {
            return Found.error(Errors.INVALID_TOPIC_EXCEPTION);
        }
        return topics.topic(name).map(t -> new Found(Optional.of(t), Errors.NONE)).orElse(Found.error(Errors.UNKNOWN_TOPIC_OR_PARTITION));
    }
}

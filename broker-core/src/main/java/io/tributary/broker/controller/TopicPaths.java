package io.tributary.broker.controller;

import java.util.Optional;
import io.tributary.broker.cluster.TopicStore;

/** Recognises the ZooKeeper paths that describe a topic's assignment or its config overrides. */
public final class TopicPaths {
    private static final String TOPICS = "/brokers/topics/";

    private TopicPaths() {
    }

    /** The topic whose assignment node {@code path} is ({@code /brokers/topics/<topic>}), if it is one. */
    public static Optional<String> topicOf(String path) {
        return childOf(TOPICS, path);
    }

    /** The topic whose config overrides node {@code path} is ({@code /config/topics/<topic>}), if it is one. */
    public static Optional<String> configuredTopicOf(String path) {
        return childOf(TopicStore.TOPIC_CONFIGS_PATH + "/", path);
    }

    private static Optional<String> childOf(String parent, String path) {
        if (!path.startsWith(parent) || path.indexOf('/', parent.length()) >= 0 || path.length() == parent.length()) {
            return Optional.empty();
        }
        return Optional.of(path.substring(parent.length()));
    }
}

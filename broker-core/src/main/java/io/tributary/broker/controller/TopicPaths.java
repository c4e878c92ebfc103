package io.tributary.broker.controller;

import java.util.Optional;

/** Recognises the ZooKeeper paths that describe a topic's assignment. */
public final class TopicPaths {
    private static final String TOPICS = "/brokers/topics/";

    private TopicPaths() {
    }

    /** The topic whose assignment node {@code path} is ({@code /brokers/topics/<topic>}), if it is one. */
    public static Optional<String> topicOf(String path) {
        if (!path.startsWith(TOPICS) || path.indexOf('/', TOPICS.length()) >= 0 || path.length() == TOPICS.length()) {
            return Optional.empty();
        }
        return Optional.of(path.substring(TOPICS.length()));
    }
}

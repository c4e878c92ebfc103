package io.tributary.hadoop.dataset;

import java.util.regex.Pattern;

/** Kafka's rule for topic names, which also keeps them safe as path and file-name parts. */
final class Topics {
    private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

    private Topics() {
    }

    static boolean isLegal(String topic) {
        return LEGAL.matcher(topic).matches() && !topic.equals(".") && !topic.equals("..");
    }

    static String requireLegal(String topic) {
        if (topic == null || !isLegal(topic)) {
            throw new IllegalArgumentException("illegal topic name '" + topic + "'");
        }
        return topic;
    }
}

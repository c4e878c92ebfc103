package io.tributary.broker.quota;

import java.util.Optional;

/** The three client quotas, by their config keys; each is measured per second. */
public enum QuotaType {
    /** Bytes of produce requests per second. */
    PRODUCE("producer_byte_rate", "Produce", "byte-rate"),
    /** Bytes of fetch responses per second. */
    FETCH("consumer_byte_rate", "Fetch", "byte-rate"),
    /** Request-handler time, in percent of one thread. */
    REQUEST("request_percentage", "Request", "request-time");

    private final String configKey;
    private final String metricGroup;
    private final String metricName;

    QuotaType(String configKey, String metricGroup, String metricName) {
        this.configKey = configKey;
        this.metricGroup = metricGroup;
        this.metricName = metricName;
    }

    /** The key kafka-configs and AlterClientQuotas use. */
    public String configKey() {
        return configKey;
    }

    String metricGroup() {
        return metricGroup;
    }

    String metricName() {
        return metricName;
    }

    /** The type of a config key, if it is one of these. */
    public static Optional<QuotaType> forKey(String key) {
        for (QuotaType type : values()) {
            if (type.configKey.equals(key)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}

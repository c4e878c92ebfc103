package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import io.tributary.broker.cluster.TopicManager.TopicState;
import io.tributary.broker.log.LogConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource;

/**
 * A topic's effective config as strings: its override where it has one, else the value the broker
 * defaults give it. A value that comes from server.properties is reported as a static broker
 * config, one nobody set as a default.
 */
final class TopicConfigView {
    /** Each topic key's broker-level synonyms (server.properties keys), most specific first. */
    private static final Map<String, List<String>> BROKER_SYNONYMS = LogConfig.brokerSynonyms();

    /** The effective value of keys whose broker default is computed (several synonyms, unit conversions). */
    private static final Map<String, Function<LogConfig, Object>> EFFECTIVE = Map.ofEntries(
            Map.entry(LogConfig.SEGMENT_BYTES, LogConfig::segmentBytes),
            Map.entry(LogConfig.SEGMENT_MS, LogConfig::segmentMs),
            Map.entry(LogConfig.SEGMENT_JITTER_MS, LogConfig::segmentJitterMs),
            Map.entry(LogConfig.SEGMENT_INDEX_BYTES, LogConfig::segmentIndexBytes),
            Map.entry(LogConfig.INDEX_INTERVAL_BYTES, LogConfig::indexIntervalBytes),
            Map.entry(LogConfig.FLUSH_MESSAGES, LogConfig::flushMessages),
            Map.entry(LogConfig.FLUSH_MS, LogConfig::flushMs),
            Map.entry(LogConfig.RETENTION_MS, LogConfig::retentionMs),
            Map.entry(LogConfig.RETENTION_BYTES, LogConfig::retentionBytes),
            Map.entry(LogConfig.MAX_MESSAGE_BYTES, LogConfig::maxMessageBytes),
            Map.entry(LogConfig.FILE_DELETE_DELAY_MS, LogConfig::fileDeleteDelayMs),
            Map.entry(LogConfig.MESSAGE_TIMESTAMP_TYPE, config -> config.timestampType().name),
            Map.entry(LogConfig.MIN_IN_SYNC_REPLICAS, LogConfig::minInSyncReplicas));

    private final ConfigDef topicDef = LogConfig.topicConfigDef();
    private final Map<String, ?> brokerProps;

    /** @param brokerProps the broker's server.properties (with overrides) */
    TopicConfigView(Map<String, ?> brokerProps) {
        this.brokerProps = brokerProps;
    }

    ConfigDef topicDef() {
        return topicDef;
    }

    List<ConfigEntryView> entries(TopicState topic) {
        List<ConfigEntryView> entries = new ArrayList<>();
        topicDef.configKeys().forEach((name, key) -> entries.add(entry(topic, name, key)));
        return entries;
    }

    private ConfigEntryView entry(TopicState topic, String name, ConfigDef.ConfigKey key) {
        String override = topic.overrides().get(name);
        if (override != null) {
            return new ConfigEntryView(name, override, ConfigSource.TOPIC_CONFIG, key);
        }
        String brokerKey = BROKER_SYNONYMS.getOrDefault(name, List.of()).stream()
                .filter(brokerProps::containsKey).findFirst().orElse(null);
        ConfigSource source = brokerKey != null ? ConfigSource.STATIC_BROKER_CONFIG : ConfigSource.DEFAULT_CONFIG;
        Function<LogConfig, Object> effective = EFFECTIVE.get(name);
        String value;
        if (effective != null) {
            value = String.valueOf(effective.apply(topic.config()));
        } else if (brokerKey != null) {
            value = String.valueOf(brokerProps.get(brokerKey));
        } else {
            value = key.hasDefault() ? ConfigDef.convertToString(key.defaultValue, key.type) : null;
        }
        return new ConfigEntryView(name, value, source, key);
    }
}

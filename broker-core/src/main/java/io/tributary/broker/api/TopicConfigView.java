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
    private final ConfigDef brokerDef;
    private final Map<String, ?> brokerProps;

    /**
     * @param brokerDef   the schema of the broker's keys
     * @param brokerProps the broker's server.properties (with overrides)
     */
    TopicConfigView(ConfigDef brokerDef, Map<String, ?> brokerProps) {
        this.brokerDef = brokerDef;
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
        List<String> brokerKeys = BROKER_SYNONYMS.getOrDefault(name, List.of());
        List<ConfigEntryView.Synonym> synonyms = synonyms(topic, name, key, brokerKeys);
        String override = topic.overrides().get(name);
        if (override != null) {
            return new ConfigEntryView(name, override, ConfigSource.TOPIC_CONFIG, key, synonyms);
        }
        String brokerKey = brokerKeys.stream().filter(brokerProps::containsKey).findFirst().orElse(null);
        ConfigSource source = brokerKey != null ? ConfigSource.STATIC_BROKER_CONFIG : ConfigSource.DEFAULT_CONFIG;
        Function<LogConfig, Object> effective = EFFECTIVE.get(name);
        String value;
        if (effective != null) {
            value = String.valueOf(effective.apply(topic.config()));
        } else if (brokerKey != null) {
            value = String.valueOf(brokerProps.get(brokerKey));
        } else {
            value = defaultOf(key);
        }
        return new ConfigEntryView(name, value, source, key, synonyms);
    }

    /**
     * Where a topic key's value can come from, in precedence order, as Kafka lists it: the topic's override,
     * each broker synonym set in server.properties, and the default, named by the last broker synonym that
     * has one (or by the topic key itself when no broker key sets it).
     */
    private List<ConfigEntryView.Synonym> synonyms(TopicState topic, String name, ConfigDef.ConfigKey key,
                                                   List<String> brokerKeys) {
        List<ConfigEntryView.Synonym> synonyms = new ArrayList<>();
        String override = topic.overrides().get(name);
        if (override != null) {
            synonyms.add(new ConfigEntryView.Synonym(name, override, ConfigSource.TOPIC_CONFIG));
        }
        for (String brokerKey : brokerKeys) {
            if (brokerProps.containsKey(brokerKey)) {
                synonyms.add(new ConfigEntryView.Synonym(brokerKey, String.valueOf(brokerProps.get(brokerKey)),
                        ConfigSource.STATIC_BROKER_CONFIG));
            }
        }
        ConfigDef.ConfigKey defaulted = brokerKeys.stream().map(brokerDef.configKeys()::get)
                .filter(brokerKey -> brokerKey != null && brokerKey.hasDefault() && brokerKey.defaultValue != null)
                .reduce((first, second) -> second).orElse(key);
        synonyms.add(new ConfigEntryView.Synonym(defaulted.name, defaultOf(defaulted), ConfigSource.DEFAULT_CONFIG));
        return synonyms;
    }

    static String defaultOf(ConfigDef.ConfigKey key) {
        return key.hasDefault() ? ConfigDef.convertToString(key.defaultValue, key.type) : null;
    }
}

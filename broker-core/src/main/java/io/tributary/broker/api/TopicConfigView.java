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
 * A topic's effective config as strings, with its source and synonyms as Kafka reports them: its override where it
 * has one, else the value the broker gives it, from a dynamic broker config, server.properties or the default.
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
    private final BrokerConfigHandler broker;

    /** @param broker where the broker keys that give topics their defaults have their values */
    TopicConfigView(BrokerConfigHandler broker) {
        this.broker = broker;
    }

    ConfigDef topicDef() {
        return topicDef;
    }

    List<ConfigEntryView> entries(TopicState topic) {
        List<ConfigEntryView> entries = new ArrayList<>();
        topicDef.configKeys().forEach((name, key) -> entries.add(entry(topic, name, key)));
        return entries;
    }

    /**
     * As Kafka: the synonyms are the topic's override, then those of its broker keys that hold a value; the source
     * is the first synonym's, or the default when there is none.
     */
    private ConfigEntryView entry(TopicState topic, String name, ConfigDef.ConfigKey key) {
        List<String> brokerKeys = BROKER_SYNONYMS.getOrDefault(name, List.of());
        List<ConfigEntryView.Synonym> synonyms = new ArrayList<>();
        String override = topic.overrides().get(name);
        if (override != null) {
            synonyms.add(new ConfigEntryView.Synonym(name, override, ConfigSource.TOPIC_CONFIG));
        }
        List<ConfigEntryView.Synonym> fromBroker = brokerKeys.isEmpty() ? List.of() : broker.synonyms(brokerKeys);
        synonyms.addAll(fromBroker);
        ConfigSource source = synonyms.isEmpty() ? ConfigSource.DEFAULT_CONFIG : synonyms.get(0).source();
        Function<LogConfig, Object> effective = EFFECTIVE.get(name);
        String value;
        if (override != null) {
            value = override;
        } else if (effective != null) {
            value = String.valueOf(effective.apply(topic.config()));
        } else if (!fromBroker.isEmpty()) {
            value = fromBroker.get(0).value(); // a single broker key, taken as it is
        } else {
            value = defaultOf(key);
        }
        return new ConfigEntryView(name, value, source, key, synonyms);
    }

    static String defaultOf(ConfigDef.ConfigKey key) {
        return key.hasDefault() ? ConfigDef.convertToString(key.defaultValue, key.type) : null;
    }
}

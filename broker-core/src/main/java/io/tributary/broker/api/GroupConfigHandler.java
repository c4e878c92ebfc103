package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import io.tributary.broker.cluster.GroupConfigStore;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.DescribeConfigsRequestData.DescribeConfigsResource;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource;
import org.apache.kafka.coordinator.group.GroupConfig;
import org.apache.kafka.coordinator.group.GroupCoordinatorConfig;
import org.apache.kafka.coordinator.group.modern.share.ShareGroupConfig;

/**
 * GROUP config resources (Kafka 4's group configs, {@code kafka-configs --entity-type groups}): DescribeConfigs,
 * IncrementalAlterConfigs and AlterConfigs of one group's own configs, kept in ZooKeeper ({@link GroupConfigStore}) and
 * applied by whichever broker coordinates the group. The keys, types and defaults are Kafka's own
 * ({@link GroupConfig#CONFIG_DEF}); each value comes from the group, else from its broker key ({@code group.} plus the
 * name) where this broker has one, else from that broker key's default in Kafka. A set value is checked as Kafka checks
 * it: against the broker's {@code group.consumer.min/max.*} bounds, and the session timeout must exceed the heartbeat
 * interval. Of the keys, consumer groups apply {@code consumer.session.timeout.ms} and
 * {@code consumer.heartbeat.interval.ms}; the others (share and streams groups, assignment batching, dead-letter queues)
 * are kept and described for groups this broker does not run. Thread-safe.
 */
final class GroupConfigHandler {
    /** The broker bounds of the group configs consumer groups apply, as Kafka checks them. */
    private static final Map<String, Bounds> BOUNDS = Map.of(
            GroupConfig.CONSUMER_SESSION_TIMEOUT_MS_CONFIG,
            new Bounds("group.consumer.min.session.timeout.ms", "group.consumer.max.session.timeout.ms"),
            GroupConfig.CONSUMER_HEARTBEAT_INTERVAL_MS_CONFIG,
            new Bounds("group.consumer.min.heartbeat.interval.ms", "group.consumer.max.heartbeat.interval.ms"));

    /** Kafka's broker keys of group configs, with Kafka's defaults (for those this broker has no key of its own). */
    private static final Map<String, String> KAFKA_BROKER_DEFAULTS = kafkaBrokerDefaults();

    /** The broker keys of a group config's lowest and highest values. */
    private record Bounds(String min, String max) {
    }

    private final GroupConfigStore store;
    private final BrokerConfigHandler broker;
    private final Map<String, Object> brokerValues;

    /** @param brokerValues this broker's parsed settings (defaults included), for the bounds and the defaults */
    GroupConfigHandler(GroupConfigStore store, BrokerConfigHandler broker, Map<String, Object> brokerValues) {
        this.store = store;
        this.broker = broker;
        this.brokerValues = brokerValues;
    }

    /** Kafka's group keys, without its internal ones (which Kafka does not describe either). */
    List<DescribeConfigsResourceResult> describe(DescribeConfigsResource resource, boolean withSynonyms, boolean withDocs) {
        Map<String, String> own = store.read(requireName(resource.resourceName()));
        Set<String> wanted = ConfigHandler.wanted(resource);
        List<DescribeConfigsResourceResult> configs = new ArrayList<>();
        GroupConfig.CONFIG_DEF.configKeys().forEach((name, key) -> {
            if (!key.internalConfig && (wanted == null || wanted.contains(name))) {
                List<ConfigEntryView.Synonym> synonyms = synonyms(name, key, own);
                ConfigEntryView.Synonym first = synonyms.isEmpty() ? new ConfigEntryView.Synonym(name, null, ConfigSource.DEFAULT_CONFIG)
                        : synonyms.get(0);
                configs.add(ConfigHandler.describe(new ConfigEntryView(name, first.value(), first.source(), key, synonyms), false,
                        withSynonyms, withDocs));
            }
        });
        return configs;
    }

    /**
     * Where a group config's value comes from, in precedence order, as Kafka lists it: the group, then its broker
     * key's values, ending with the broker key's default (Kafka's own where this broker has no such key: those of
     * share and streams groups); a key without a broker key ends with its own default.
     */
    private List<ConfigEntryView.Synonym> synonyms(String name, ConfigDef.ConfigKey key, Map<String, String> own) {
        List<ConfigEntryView.Synonym> synonyms = new ArrayList<>();
        if (own.containsKey(name)) {
            synonyms.add(new ConfigEntryView.Synonym(name, own.get(name), ConfigSource.GROUP_CONFIG));
        }
        Optional<String> brokerKey = brokerKey(name);
        if (brokerKey.isPresent()) {
            synonyms.addAll(broker.synonyms(List.of(brokerKey.get())));
            String kafkaDefault = KAFKA_BROKER_DEFAULTS.get(brokerKey.get());
            if (synonyms.stream().noneMatch(synonym -> synonym.source() == ConfigSource.DEFAULT_CONFIG) && kafkaDefault != null) {
                synonyms.add(new ConfigEntryView.Synonym(brokerKey.get(), kafkaDefault, ConfigSource.DEFAULT_CONFIG));
            }
        } else if (key.defaultValue != null) {
            synonyms.add(new ConfigEntryView.Synonym(name, ConfigDef.convertToString(key.defaultValue, key.type),
                    ConfigSource.DEFAULT_CONFIG));
        }
        return synonyms;
    }

    private static Map<String, String> kafkaBrokerDefaults() {
        Map<String, String> defaults = new HashMap<>();
        for (ConfigDef def : List.of(GroupCoordinatorConfig.CONFIG_DEF, ShareGroupConfig.CONFIG_DEF)) {
            def.configKeys().forEach((name, key) -> {
                if (key.hasDefault() && key.defaultValue != null) {
                    defaults.put(name, ConfigDef.convertToString(key.defaultValue, key.type));
                }
            });
        }
        return Map.copyOf(defaults);
    }

    private static Optional<String> brokerKey(String name) {
        return GroupConfig.ALL_GROUP_CONFIG_SYNONYMS.getOrDefault(name, Optional.empty());
    }

    /** IncrementalAlterConfigs of one GROUP resource. */
    void alter(AlterConfigsResource resource, boolean validateOnly) {
        String group = requireName(resource.resourceName());
        Map<String, String> own = store.read(group);
        Map<String, String> configs = ConfigHandler.applied(own, resource.configs(), GroupConfigHandler::key,
                name -> own.getOrDefault(name, inForce(name)));
        write(group, configs, validateOnly);
    }

    /** AlterConfigs of one GROUP resource: its configs become exactly those given. */
    void replace(AlterConfigsRequestData.AlterConfigsResource resource, boolean validateOnly) {
        String group = requireName(resource.resourceName());
        Map<String, String> configs = new HashMap<>();
        for (AlterConfigsRequestData.AlterableConfig config : resource.configs()) {
            key(config.name());
            if (config.value() == null) {
                throw new InvalidRequestException("Null value not supported for : " + config.name());
            }
            if (configs.put(config.name(), config.value()) != null) {
                throw ConfigHandler.duplicate(config.name());
            }
        }
        write(group, configs, validateOnly);
    }

    private void write(String group, Map<String, String> configs, boolean validateOnly) {
        validate(configs);
        if (!validateOnly) {
            store.write(group, configs);
        }
    }

    /** Kafka's checks of a group's configs; a value out of bounds or of the wrong type is INVALID_CONFIG. */
    private void validate(Map<String, String> configs) {
        try {
            GroupConfig.CONFIG_DEF.parse(configs);
        } catch (ConfigException e) {
            throw new InvalidConfigurationException(e.getMessage());
        }
        BOUNDS.forEach((name, bounds) -> {
            if (configs.containsKey(name)) {
                int value = Integer.parseInt(configs.get(name).trim());
                int min = brokerInt(bounds.min());
                int max = brokerInt(bounds.max());
                if (value < min || value > max) {
                    throw new InvalidConfigurationException(name + " must be in the range " + min + " to " + max + " inclusive.");
                }
            }
        });
        int sessionTimeout = Integer.parseInt(configs.getOrDefault(GroupConfig.CONSUMER_SESSION_TIMEOUT_MS_CONFIG,
                inForce(GroupConfig.CONSUMER_SESSION_TIMEOUT_MS_CONFIG)).trim());
        int heartbeatInterval = Integer.parseInt(configs.getOrDefault(GroupConfig.CONSUMER_HEARTBEAT_INTERVAL_MS_CONFIG,
                inForce(GroupConfig.CONSUMER_HEARTBEAT_INTERVAL_MS_CONFIG)).trim());
        if (sessionTimeout <= heartbeatInterval) {
            throw new InvalidConfigurationException(GroupConfig.CONSUMER_SESSION_TIMEOUT_MS_CONFIG + " must be greater than "
                    + GroupConfig.CONSUMER_HEARTBEAT_INTERVAL_MS_CONFIG);
        }
    }

    /** The value a group without its own has: this broker's, else Kafka's default. */
    private String inForce(String name) {
        ConfigDef.ConfigKey key = key(name);
        return brokerKey(name).filter(brokerValues::containsKey)
                .map(brokerName -> ConfigDef.convertToString(brokerValues.get(brokerName), key.type))
                .orElse(key.defaultValue == null ? "" : ConfigDef.convertToString(key.defaultValue, key.type));
    }

    private int brokerInt(String name) {
        return (Integer) brokerValues.get(name);
    }

    private static ConfigDef.ConfigKey key(String name) {
        ConfigDef.ConfigKey key = GroupConfig.CONFIG_DEF.configKeys().get(name);
        if (key == null) {
            throw new InvalidConfigurationException("Unknown group config name: " + name);
        }
        return key;
    }

    private static String requireName(String group) {
        if (group == null || group.isEmpty()) {
            throw new InvalidRequestException("Group name must not be empty");
        }
        return group;
    }
}

package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.tributary.broker.cluster.BrokerConfigStore;
import io.tributary.broker.cluster.DynamicBrokerConfig;
import io.tributary.broker.log.LogConfig;
import org.apache.kafka.clients.admin.AlterConfigOp.OpType;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.DescribeConfigsRequestData.DescribeConfigsResource;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfig;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource;

/**
 * BROKER config resources: DescribeConfigs, IncrementalAlterConfigs and AlterConfigs of this broker (resource name:
 * its id) or of the cluster default (empty name). A value comes, in precedence order, from
 * {@code /config/brokers/<id>}, {@code /config/brokers/<default>}, server.properties, or the key's default. Only the
 * {@link DynamicBrokerConfig#DYNAMIC_KEYS} may be altered (the others are read-only, refused as Kafka refuses them);
 * a change is written to ZooKeeper and every broker applies it from its watch.
 */
final class BrokerConfigHandler {
    private final ConfigDef brokerDef;
    private final Map<String, ?> staticProps;
    private final String brokerId;
    private final DynamicBrokerConfig dynamic;
    private final BrokerConfigStore store;

    BrokerConfigHandler(ConfigDef brokerDef, Map<String, ?> staticProps, int brokerId, DynamicBrokerConfig dynamic,
                        BrokerConfigStore store) {
        this.brokerDef = brokerDef;
        this.staticProps = staticProps;
        this.brokerId = Integer.toString(brokerId);
        this.dynamic = dynamic;
        this.store = store;
    }

    /** The entity a resource name means: this broker's id, or the cluster default for an empty name. */
    private String entity(String resourceName) {
        if (resourceName.isEmpty()) {
            return BrokerConfigStore.DEFAULT_ENTITY;
        }
        if (!resourceName.equals(brokerId)) {
            throw new InvalidRequestException("Unexpected broker id, expected " + brokerId + " or empty string, but received "
                    + resourceName);
        }
        return brokerId;
    }

    List<DescribeConfigsResourceResult> describe(DescribeConfigsResource resource, boolean withSynonyms, boolean withDocs) {
        boolean clusterDefault = entity(resource.resourceName()).equals(BrokerConfigStore.DEFAULT_ENTITY);
        Set<String> wanted = ConfigHandler.wanted(resource);
        List<DescribeConfigsResourceResult> configs = new ArrayList<>();
        brokerDef.configKeys().forEach((name, key) -> {
            if (wanted != null && !wanted.contains(name)) {
                return;
            }
            List<ConfigEntryView.Synonym> synonyms = synonyms(name, key, clusterDefault);
            if (synonyms.isEmpty()) {
                return; // the cluster default describes only what it sets
            }
            if (key.type == ConfigDef.Type.PASSWORD) {
                // Sensitive: described without its value, as Kafka does (and never the static file's secret).
                synonyms = synonyms.stream().map(synonym -> new ConfigEntryView.Synonym(synonym.name(), null, synonym.source())).toList();
            }
            ConfigEntryView.Synonym first = synonyms.get(0);
            ConfigEntryView entry = new ConfigEntryView(name, first.value(), first.source(), key, synonyms);
            configs.add(ConfigHandler.describe(entry, !DynamicBrokerConfig.DYNAMIC_KEYS.contains(name), withSynonyms, withDocs));
        });
        return configs;
    }

    /**
     * Kafka's synonyms of a topic's or a group's config, whose value the broker keys {@code names} give (the primary
     * key first): each of them that holds a value, by source (this broker's dynamic config, the cluster's dynamic
     * default, server.properties, the key's default) and in {@code names}' order within a source, from the primary
     * key's first entry on. Kafka drops the entries before it, so a topic's retention.ms whose default only
     * log.retention.hours gives lists none.
     */
    List<ConfigEntryView.Synonym> synonyms(List<String> names) {
        List<ConfigEntryView.Synonym> all = new ArrayList<>();
        addSet(all, names, dynamic.perBroker(), ConfigSource.DYNAMIC_BROKER_CONFIG);
        addSet(all, names, dynamic.clusterDefaults(), ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
        addSet(all, names, staticProps, ConfigSource.STATIC_BROKER_CONFIG);
        for (String name : names) {
            ConfigDef.ConfigKey key = brokerDef.configKeys().get(name);
            String byDefault = key == null ? null : TopicConfigView.defaultOf(key);
            if (byDefault != null) {
                all.add(new ConfigEntryView.Synonym(name, byDefault, ConfigSource.DEFAULT_CONFIG));
            }
        }
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).name().equals(names.get(0))) {
                return List.copyOf(all.subList(i, all.size()));
            }
        }
        return List.of();
    }

    private static void addSet(List<ConfigEntryView.Synonym> synonyms, List<String> names, Map<String, ?> values, ConfigSource source) {
        for (String name : names) {
            Object value = values.get(name);
            if (value != null) {
                synonyms.add(new ConfigEntryView.Synonym(name, String.valueOf(value), source));
            }
        }
    }

    private List<ConfigEntryView.Synonym> synonyms(String name, ConfigDef.ConfigKey key, boolean clusterDefault) {
        List<ConfigEntryView.Synonym> synonyms = new ArrayList<>();
        String own = dynamic.perBroker().get(name);
        if (own != null && !clusterDefault) {
            synonyms.add(new ConfigEntryView.Synonym(name, own, ConfigSource.DYNAMIC_BROKER_CONFIG));
        }
        String byDefault = dynamic.clusterDefaults().get(name);
        if (byDefault != null) {
            synonyms.add(new ConfigEntryView.Synonym(name, byDefault, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG));
        }
        if (clusterDefault) {
            return synonyms;
        }
        Object set = staticProps.get(name);
        if (set != null) {
            synonyms.add(new ConfigEntryView.Synonym(name, String.valueOf(set), ConfigSource.STATIC_BROKER_CONFIG));
        }
        synonyms.add(new ConfigEntryView.Synonym(name, TopicConfigView.defaultOf(key), ConfigSource.DEFAULT_CONFIG));
        return synonyms;
    }

    /** IncrementalAlterConfigs of one BROKER resource. */
    void alter(AlterConfigsResource resource, boolean validateOnly) {
        String entity = entity(resource.resourceName());
        Map<String, String> configs = new HashMap<>(store.read(entity));
        Set<String> seen = new HashSet<>();
        Set<String> set = new HashSet<>();
        for (AlterableConfig config : resource.configs()) {
            if (!seen.add(config.name())) {
                throw new InvalidRequestException("Config " + config.name() + " appears more than once");
            }
            OpType op = OpType.forId(config.configOperation());
            if (op == null) {
                throw new InvalidRequestException("Unknown config operation " + config.configOperation());
            }
            switch (op) {
                case SET -> {
                    configs.put(config.name(), config.value());
                    set.add(config.name());
                }
                // Deleting a key that is not set changes nothing, read-only or not (kafka-reassign-partitions --verify
                // deletes replica.alter.log.dirs.io.max.bytes.per.second along with the throttle rates).
                case DELETE -> configs.remove(config.name());
                case APPEND, SUBTRACT -> throw new InvalidConfigurationException("Config " + config.name() + " is not a list: "
                        + op + " does not apply");
            }
        }
        checkedWrite(resource.resourceName(), entity, set, configs, validateOnly);
    }

    /** AlterConfigs of one BROKER resource: its dynamic configs become exactly those given. */
    void replace(AlterConfigsRequestData.AlterConfigsResource resource, boolean validateOnly) {
        String entity = entity(resource.resourceName());
        Map<String, String> configs = new HashMap<>();
        for (AlterConfigsRequestData.AlterableConfig config : resource.configs()) {
            if (config.value() == null) {
                throw new InvalidRequestException("Config " + config.name() + " has no value");
            }
            if (configs.put(config.name(), config.value()) != null) {
                throw new InvalidRequestException("Config " + config.name() + " appears more than once");
            }
        }
        Set<String> touched = new HashSet<>(configs.keySet());
        touched.addAll(store.read(entity).keySet());
        checkedWrite(resource.resourceName(), entity, touched, configs, validateOnly);
    }

    private void checkedWrite(String resourceName, String entity, Set<String> touched, Map<String, String> configs,
                              boolean validateOnly) {
        List<String> readOnly = touched.stream().filter(name -> !DynamicBrokerConfig.DYNAMIC_KEYS.contains(name)).sorted().toList();
        if (!readOnly.isEmpty()) {
            throw new InvalidRequestException("Invalid config value for resource ConfigResource(type=BROKER, name='" + resourceName
                    + "'): Cannot update these configs dynamically: " + readOnly);
        }
        try {
            configs.forEach((name, value) -> {
                ConfigDef.ConfigKey key = brokerDef.configKeys().get(name);
                Object parsed = ConfigDef.parseType(name, value, key.type);
                if (key.validator != null) {
                    key.validator.ensureValid(name, parsed);
                }
            });
            Map<String, Object> merged = new HashMap<>(staticProps);
            merged.putAll(configs);
            LogConfig.fromBroker(merged); // the log defaults they give must be valid together
        } catch (ConfigException e) {
            throw new InvalidRequestException("Invalid config value for resource ConfigResource(type=BROKER, name='" + resourceName
                    + "'): " + e.getMessage());
        }
        if (!validateOnly) {
            store.write(entity, configs);
        }
    }
}

package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import io.tributary.broker.cluster.GroupConfigStore;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.cluster.TopicManager.TopicState;
import org.apache.kafka.clients.admin.AlterConfigOp.OpType;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeConfigsRequestData.DescribeConfigsResource;
import org.apache.kafka.common.message.DescribeConfigsResponseData;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResult;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsSynonym;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfig;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigType;

/**
 * DescribeConfigs, IncrementalAlterConfigs and AlterConfigs: topic overrides (which take effect on the logs at once)
 * here, BROKER resources (dynamic broker configs) in {@link BrokerConfigHandler}, GROUP resources (groups' own configs)
 * in {@link GroupConfigHandler}, BROKER_LOGGER resources (log levels) in {@link BrokerLoggerHandler}.
 */
final class ConfigHandler {
    private final TopicManager topics;
    private final TopicConfigView topicConfigs;
    private final BrokerConfigHandler brokerConfigs;
    private final GroupConfigHandler groupConfigs;
    private final BrokerLoggerHandler brokerLoggers;

    ConfigHandler(TopicManager topics, ConfigDef brokerDef, Map<String, ?> brokerProps, BrokerConfigHandler brokerConfigs,
                  GroupConfigStore groupConfigStore, int brokerId) {
        this.topics = topics;
        this.topicConfigs = new TopicConfigView(brokerConfigs);
        this.brokerConfigs = brokerConfigs;
        this.groupConfigs = new GroupConfigHandler(groupConfigStore, brokerConfigs, brokerDef.parse(brokerProps));
        this.brokerLoggers = new BrokerLoggerHandler(brokerId);
    }

    TopicConfigView topicConfigs() {
        return topicConfigs;
    }

    DescribeConfigsResponseData describe(DescribeConfigsRequestData request) {
        DescribeConfigsResponseData response = new DescribeConfigsResponseData();
        for (DescribeConfigsResource resource : request.resources()) {
            DescribeConfigsResult result = new DescribeConfigsResult()
                    .setResourceType(resource.resourceType())
                    .setResourceName(resource.resourceName());
            try {
                result.setConfigs(switch (type(resource.resourceType())) {
                    case BROKER -> brokerConfigs.describe(resource, request.includeSynonyms(), request.includeDocumentation());
                    case GROUP -> groupConfigs.describe(resource, request.includeSynonyms(), request.includeDocumentation());
                    case BROKER_LOGGER -> brokerLoggers.describe(resource);
                    case TOPIC -> describeTopic(resource, request.includeSynonyms(), request.includeDocumentation());
                    default -> throw new InvalidRequestException("Unsupported resource type: " + type(resource.resourceType()));
                });
            } catch (RuntimeException e) {
                ApiError error = ApiError.fromThrowable(e);
                result.setErrorCode(error.error().code()).setErrorMessage(error.message());
            }
            response.results().add(result);
        }
        return response;
    }

    private List<DescribeConfigsResourceResult> describeTopic(DescribeConfigsResource resource, boolean withSynonyms, boolean withDocs) {
        Set<String> wanted = wanted(resource);
        List<DescribeConfigsResourceResult> configs = new ArrayList<>();
        for (ConfigEntryView entry : topicConfigs.entries(existing(resource.resourceName()))) {
            if (wanted == null || wanted.contains(entry.name())) {
                configs.add(describe(entry, false, withSynonyms, withDocs));
            }
        }
        return configs;
    }

    /** The configs a DescribeConfigs resource asks for, or null for all of them (no list, or an empty one, as in Kafka). */
    static Set<String> wanted(DescribeConfigsResource resource) {
        List<String> keys = resource.configurationKeys();
        return keys == null || keys.isEmpty() ? null : new HashSet<>(keys);
    }

    private static ConfigResource.Type type(byte id) {
        return ConfigResource.Type.forId(id);
    }

    static DescribeConfigsResourceResult describe(ConfigEntryView entry, boolean readOnly, boolean withSynonyms,
                                                          boolean withDocs) {
        List<DescribeConfigsSynonym> synonyms = new ArrayList<>();
        if (withSynonyms) {
            entry.synonyms().forEach(synonym -> synonyms.add(new DescribeConfigsSynonym().setName(synonym.name())
                    .setValue(synonym.value()).setSource(synonym.source().id())));
        }
        return new DescribeConfigsResourceResult()
                .setSynonyms(synonyms)
                .setName(entry.name())
                .setValue(entry.value())
                .setReadOnly(readOnly)
                .setConfigSource(entry.source().id())
                .setIsSensitive(entry.key().type == ConfigDef.Type.PASSWORD)
                .setConfigType(ConfigType.valueOf(entry.key().type.name()).id())
                .setDocumentation(withDocs ? entry.key().documentation : null);
    }

    IncrementalAlterConfigsResponseData alter(IncrementalAlterConfigsRequestData request) {
        IncrementalAlterConfigsResponseData response = new IncrementalAlterConfigsResponseData();
        for (AlterConfigsResource resource : request.resources()) {
            AlterConfigsResourceResponse result = new AlterConfigsResourceResponse()
                    .setResourceType(resource.resourceType())
                    .setResourceName(resource.resourceName());
            try {
                switch (type(resource.resourceType())) {
                    case BROKER -> brokerConfigs.alter(resource, request.validateOnly());
                    case GROUP -> groupConfigs.alter(resource, request.validateOnly());
                    case BROKER_LOGGER -> brokerLoggers.alter(resource, request.validateOnly());
                    case TOPIC -> {
                        TopicState topic = existing(resource.resourceName());
                        topics.replaceOverrides(topic.name(), applied(topic, resource), request.validateOnly());
                    }
                    default -> throw unknownType(resource.resourceType());
                }
            } catch (RuntimeException e) {
                ApiError error = ApiError.fromThrowable(e);
                result.setErrorCode(error.error().code()).setErrorMessage(error.message());
            }
            response.responses().add(result);
        }
        return response;
    }

    /**
     * AlterConfigs, the older API that librdkafka and others still use: a topic's overrides become exactly the
     * ones given (the others return to their defaults).
     */
    AlterConfigsResponseData replace(AlterConfigsRequestData request) {
        AlterConfigsResponseData response = new AlterConfigsResponseData();
        for (AlterConfigsRequestData.AlterConfigsResource resource : request.resources()) {
            AlterConfigsResponseData.AlterConfigsResourceResponse result = new AlterConfigsResponseData.AlterConfigsResourceResponse()
                    .setResourceType(resource.resourceType())
                    .setResourceName(resource.resourceName());
            try {
                switch (type(resource.resourceType())) {
                    case BROKER -> brokerConfigs.replace(resource, request.validateOnly());
                    case GROUP -> groupConfigs.replace(resource, request.validateOnly());
                    case TOPIC -> replaceTopic(resource, request.validateOnly());
                    // BROKER_LOGGER too: log levels are changed with IncrementalAlterConfigs only, as in Kafka.
                    default -> throw unknownType(resource.resourceType());
                }
            } catch (RuntimeException e) {
                ApiError error = ApiError.fromThrowable(e);
                result.setErrorCode(error.error().code()).setErrorMessage(error.message());
            }
            response.responses().add(result);
        }
        return response;
    }

    private void replaceTopic(AlterConfigsRequestData.AlterConfigsResource resource, boolean validateOnly) {
        TopicState topic = existing(resource.resourceName());
        Map<String, String> overrides = new HashMap<>();
        for (AlterConfigsRequestData.AlterableConfig config : resource.configs()) {
            topicKey(config.name());
            if (config.value() == null) {
                throw new InvalidConfigurationException("Config " + config.name() + " has no value");
            }
            if (overrides.put(config.name(), config.value()) != null) {
                throw duplicate(config.name());
            }
        }
        topics.replaceOverrides(topic.name(), overrides, validateOnly);
    }

    private static InvalidRequestException unknownType(byte resourceType) {
        return new InvalidRequestException("Unknown resource type " + resourceType);
    }

    /** @throws InvalidConfigurationException naming {@code name} if it is not a topic config */
    private ConfigDef.ConfigKey topicKey(String name) {
        ConfigDef.ConfigKey key = topicConfigs.topicDef().configKeys().get(name);
        if (key == null) {
            throw new InvalidConfigurationException("Unknown topic config " + name);
        }
        return key;
    }

    static InvalidRequestException duplicate(String name) {
        return new InvalidRequestException("Config " + name + " appears more than once");
    }

    /** The topic's overrides after the resource's operations. */
    private Map<String, String> applied(TopicState topic, AlterConfigsResource resource) {
        return applied(topic.overrides(), resource.configs(), this::topicKey, name -> currentValue(topic, name));
    }

    /**
     * A resource's own configs after IncrementalAlterConfigs' operations: SET, DELETE, and APPEND or SUBTRACT on a list
     * (starting from {@code current}, the value in force, which may be a default).
     *
     * @param keyOf the key of a config name, or an InvalidConfigurationException naming an unknown one
     */
    static Map<String, String> applied(Map<String, String> own, Iterable<AlterableConfig> operations,
                                       Function<String, ConfigDef.ConfigKey> keyOf, Function<String, String> current) {
        Map<String, String> configs = new HashMap<>(own);
        Set<String> seen = new HashSet<>();
        for (AlterableConfig config : operations) {
            if (!seen.add(config.name())) {
                throw duplicate(config.name());
            }
            ConfigDef.ConfigKey key = keyOf.apply(config.name());
            OpType op = OpType.forId(config.configOperation());
            if (op == null) {
                throw new InvalidRequestException("Unknown config operation " + config.configOperation());
            }
            switch (op) {
                case SET -> configs.put(config.name(), config.value());
                case DELETE -> configs.remove(config.name());
                case APPEND, SUBTRACT -> configs.put(config.name(), listOp(op, key, current.apply(config.name()), config.value()));
            }
        }
        return configs;
    }

    private String currentValue(TopicState topic, String name) {
        return topicConfigs.entries(topic).stream().filter(e -> e.name().equals(name)).findFirst()
                .map(ConfigEntryView::value).orElse("");
    }

    private static String listOp(OpType op, ConfigDef.ConfigKey key, String current, String change) {
        if (key.type != ConfigDef.Type.LIST) {
            throw new InvalidConfigurationException("Config " + key.name + " is not a list: " + op + " does not apply");
        }
        Set<String> items = new LinkedHashSet<>(split(current));
        if (op == OpType.APPEND) {
            items.addAll(split(change));
        } else {
            items.removeAll(split(change));
        }
        return String.join(",", items);
    }

    private static List<String> split(String list) {
        return list == null || list.isBlank() ? List.of() : List.of(list.trim().split("\\s*,\\s*"));
    }

    private TopicState existing(String name) {
        return topics.topic(name).orElseThrow(() -> new UnknownTopicOrPartitionException("The topic '" + name + "' does not exist."));
    }
}

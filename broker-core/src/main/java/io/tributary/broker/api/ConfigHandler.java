package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * here, BROKER resources (dynamic broker configs) in {@link BrokerConfigHandler}.
 */
final class ConfigHandler {
    private final TopicManager topics;
    private final TopicConfigView topicConfigs;
    private final BrokerConfigHandler brokerConfigs;

    ConfigHandler(TopicManager topics, ConfigDef brokerDef, Map<String, ?> brokerProps, BrokerConfigHandler brokerConfigs) {
        this.topics = topics;
        this.topicConfigs = new TopicConfigView(brokerDef, brokerProps);
        this.brokerConfigs = brokerConfigs;
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
                if (resource.resourceType() == ConfigResource.Type.BROKER.id()) {
                    result.setConfigs(brokerConfigs.describe(resource, request.includeSynonyms(), request.includeDocumentation()));
                    response.results().add(result);
                    continue;
                }
                List<ConfigEntryView> entries = entries(resource);
                Set<String> wanted = resource.configurationKeys() == null ? null : new HashSet<>(resource.configurationKeys());
                List<DescribeConfigsResourceResult> configs = new ArrayList<>();
                for (ConfigEntryView entry : entries) {
                    if (wanted == null || wanted.contains(entry.name())) {
                        configs.add(describe(entry, false, request.includeSynonyms(), request.includeDocumentation()));
                    }
                }
                result.setConfigs(configs);
            } catch (RuntimeException e) {
                ApiError error = ApiError.fromThrowable(e);
                result.setErrorCode(error.error().code()).setErrorMessage(error.message());
            }
            response.results().add(result);
        }
        return response;
    }

    private List<ConfigEntryView> entries(DescribeConfigsResource resource) {
        ConfigResource.Type type = ConfigResource.Type.forId(resource.resourceType());
        if (type == ConfigResource.Type.TOPIC) {
            return topicConfigs.entries(existing(resource.resourceName()));
        }
        throw new InvalidRequestException("Configs of " + type + " resources are not supported");
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
                if (resource.resourceType() == ConfigResource.Type.BROKER.id()) {
                    brokerConfigs.alter(resource, request.validateOnly());
                    response.responses().add(result);
                    continue;
                }
                requireTopic(resource.resourceType());
                TopicState topic = existing(resource.resourceName());
                topics.replaceOverrides(topic.name(), applied(topic, resource), request.validateOnly());
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
                if (resource.resourceType() == ConfigResource.Type.BROKER.id()) {
                    brokerConfigs.replace(resource, request.validateOnly());
                    response.responses().add(result);
                    continue;
                }
                requireTopic(resource.resourceType());
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
                topics.replaceOverrides(topic.name(), overrides, request.validateOnly());
            } catch (RuntimeException e) {
                ApiError error = ApiError.fromThrowable(e);
                result.setErrorCode(error.error().code()).setErrorMessage(error.message());
            }
            response.responses().add(result);
        }
        return response;
    }

    private static void requireTopic(byte resourceType) {
        if (resourceType != ConfigResource.Type.TOPIC.id()) {
            throw new InvalidRequestException("Only topic and broker configs can be altered");
        }
    }

    /** @throws InvalidConfigurationException naming {@code name} if it is not a topic config */
    private ConfigDef.ConfigKey topicKey(String name) {
        ConfigDef.ConfigKey key = topicConfigs.topicDef().configKeys().get(name);
        if (key == null) {
            throw new InvalidConfigurationException("Unknown topic config " + name);
        }
        return key;
    }

    private static InvalidRequestException duplicate(String name) {
        return new InvalidRequestException("Config " + name + " appears more than once");
    }

    /** The topic's overrides after the resource's operations. */
    private Map<String, String> applied(TopicState topic, AlterConfigsResource resource) {
        Map<String, String> overrides = new HashMap<>(topic.overrides());
        Set<String> seen = new HashSet<>();
        for (AlterableConfig config : resource.configs()) {
            if (!seen.add(config.name())) {
                throw duplicate(config.name());
            }
            ConfigDef.ConfigKey key = topicKey(config.name());
            OpType op = OpType.forId(config.configOperation());
            if (op == null) {
                throw new InvalidRequestException("Unknown config operation " + config.configOperation());
            }
            switch (op) {
                case SET -> overrides.put(config.name(), config.value());
                case DELETE -> overrides.remove(config.name());
                case APPEND, SUBTRACT -> overrides.put(config.name(), listOp(op, key, currentValue(topic, config.name()), config.value()));
            }
        }
        return overrides;
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
        return topics.topic(name).orElseThrow(() -> new UnknownTopicOrPartitionException("Topic '" + name + "' does not exist."));
    }
}

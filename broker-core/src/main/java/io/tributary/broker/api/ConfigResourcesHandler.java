package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import io.tributary.broker.cluster.GroupConfigStore;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.controller.ClusterView;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.message.ListConfigResourcesRequestData;
import org.apache.kafka.common.message.ListConfigResourcesResponseData;

/**
 * ListConfigResources (KIP-1000, KIP-1142): the resources DescribeConfigs can be asked about. Version 0 lists
 * client-metrics subscriptions only; version 1 any of the types below, all of them when none is named. There are no
 * client-metrics subscriptions, since client telemetry is not offered (see {@link SupportedApis}). GROUP lists the groups
 * that have configs of their own. Thread-safe.
 */
final class ConfigResourcesHandler {
    private static final List<ConfigResource.Type> LISTED = List.of(ConfigResource.Type.TOPIC, ConfigResource.Type.BROKER,
            ConfigResource.Type.BROKER_LOGGER, ConfigResource.Type.CLIENT_METRICS, ConfigResource.Type.GROUP);

    private final TopicManager topics;
    private final ClusterView cluster;
    private final GroupConfigStore groupConfigs;

    ConfigResourcesHandler(TopicManager topics, ClusterView cluster, GroupConfigStore groupConfigs) {
        this.topics = topics;
        this.cluster = cluster;
        this.groupConfigs = groupConfigs;
    }

    ListConfigResourcesResponseData list(ListConfigResourcesRequestData request, short version) {
        List<ConfigResource.Type> types = new ArrayList<>();
        if (version == 0) {
            types.add(ConfigResource.Type.CLIENT_METRICS);
        } else if (request.resourceTypes().isEmpty()) {
            types.addAll(LISTED);
        } else {
            for (byte id : Set.copyOf(request.resourceTypes())) {
                ConfigResource.Type type = ConfigResource.Type.forId(id);
                if (!LISTED.contains(type)) {
                    throw new UnsupportedVersionException("config resources of type " + type + " (" + id + ") are not listed by "
                            + "this broker; it lists " + LISTED);
                }
                types.add(type);
            }
        }
        List<ListConfigResourcesResponseData.ConfigResource> resources = new ArrayList<>();
        for (ConfigResource.Type type : types) {
            for (String name : names(type)) {
                resources.add(new ListConfigResourcesResponseData.ConfigResource().setResourceType(type.id()).setResourceName(name));
            }
        }
        return new ListConfigResourcesResponseData().setConfigResources(resources);
    }

    private List<String> names(ConfigResource.Type type) {
        return switch (type) {
            case TOPIC -> topics.topics().stream().map(TopicManager.TopicState::name).sorted().toList();
            // Every broker has its own settings and its own loggers.
            case BROKER, BROKER_LOGGER -> cluster.liveBrokers().keySet().stream().map(String::valueOf).toList();
            case GROUP -> groupConfigs.groups();
            default -> List.of();
        };
    }
}

package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.cluster.TopicManager.TopicState;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.DescribeClusterResponseData.DescribeClusterBroker;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataRequestData.MetadataRequestTopic;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseBroker;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Metadata and DescribeCluster: who the brokers are and who leads each partition. A single broker
 * leads every partition at leader epoch 0. Metadata creates missing topics when both the client
 * and {@code auto.create.topics.enable} allow it.
 */
final class MetadataHandler {
    private static final Logger log = LoggerFactory.getLogger(MetadataHandler.class);
    static final int LEADER_EPOCH = 0;
    private static final byte BROKER_ENDPOINTS = 1;

    private final BrokerIdentity broker;
    private final TopicManager topics;
    private final TopicDefaults defaults;

    /** What an auto-created topic gets. */
    record TopicDefaults(boolean autoCreate, int partitions, short replicationFactor) {
    }

    MetadataHandler(BrokerIdentity broker, TopicManager topics, TopicDefaults defaults) {
        this.broker = broker;
        this.topics = topics;
        this.defaults = defaults;
    }

    MetadataResponseData handle(MetadataRequestData request) {
        MetadataResponseData response = new MetadataResponseData()
                .setClusterId(broker.clusterId())
                .setControllerId(broker.nodeId());
        response.brokers().add(new MetadataResponseBroker()
                .setNodeId(broker.nodeId()).setHost(broker.host()).setPort(broker.port()));
        if (request.topics() == null) {
            topics.topics().forEach(topic -> response.topics().add(describe(topic)));
            return response;
        }
        for (MetadataRequestTopic requested : request.topics()) {
            response.topics().add(requested.name() != null
                    ? byName(requested.name(), request.allowAutoTopicCreation())
                    : byId(requested.topicId()));
        }
        return response;
    }

    private MetadataResponseTopic byName(String name, boolean clientAllowsAutoCreate) {
        if (!Topic.isValid(name)) {
            return error(name, Uuid.ZERO_UUID, Errors.INVALID_TOPIC_EXCEPTION);
        }
        return topics.topic(name)
                .or(() -> clientAllowsAutoCreate && defaults.autoCreate() ? autoCreate(name) : Optional.empty())
                .map(this::describe)
                .orElseGet(() -> error(name, Uuid.ZERO_UUID, Errors.UNKNOWN_TOPIC_OR_PARTITION));
    }

    private Optional<TopicState> autoCreate(String name) {
        try {
            return Optional.of(topics.create(name, defaults.partitions(), defaults.replicationFactor(), Map.of(), false));
        } catch (TopicExistsException e) {
            return topics.topic(name); // created concurrently
        } catch (InvalidTopicException e) {
            return Optional.empty();
        } catch (RuntimeException e) {
            log.warn("could not auto-create topic {}: {}", name, e.getMessage());
            return Optional.empty();
        }
    }

    private MetadataResponseTopic byId(Uuid id) {
        return topics.topic(id).map(this::describe).orElseGet(() -> error(null, id, Errors.UNKNOWN_TOPIC_ID));
    }

    private static MetadataResponseTopic error(String name, Uuid id, Errors error) {
        return new MetadataResponseTopic().setName(name).setTopicId(id).setErrorCode(error.code());
    }

    private MetadataResponseTopic describe(TopicState topic) {
        List<MetadataResponsePartition> partitions = new ArrayList<>();
        topic.assignment().replicas().forEach((partition, replicas) -> partitions.add(new MetadataResponsePartition()
                .setPartitionIndex(partition)
                .setLeaderId(replicas.get(0))
                .setLeaderEpoch(LEADER_EPOCH)
                .setReplicaNodes(replicas)
                .setIsrNodes(replicas)
                .setOfflineReplicas(List.of())));
        return new MetadataResponseTopic()
                .setName(topic.name())
                .setTopicId(topic.id())
                .setIsInternal(Topic.isInternal(topic.name()))
                .setPartitions(partitions);
    }

    DescribeClusterResponseData describeCluster(DescribeClusterRequestData request) {
        DescribeClusterResponseData response = new DescribeClusterResponseData()
                .setClusterId(broker.clusterId())
                .setControllerId(broker.nodeId())
                .setEndpointType(request.endpointType());
        if (request.endpointType() != BROKER_ENDPOINTS) {
            return response.setErrorCode(Errors.UNSUPPORTED_ENDPOINT_TYPE.code())
                    .setErrorMessage("this broker only describes broker endpoints");
        }
        response.brokers().add(new DescribeClusterBroker()
                .setBrokerId(broker.nodeId()).setHost(broker.host()).setPort(broker.port()));
        return response;
    }
}

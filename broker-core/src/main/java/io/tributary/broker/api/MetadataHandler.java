package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.cluster.TopicManager.TopicState;
import io.tributary.broker.controller.ClusterView;
import io.tributary.broker.controller.PartitionState;
import io.tributary.broker.replica.ReplicaManager;
import org.apache.kafka.common.TopicPartition;
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
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Metadata and DescribeCluster: who the live brokers and the controller are, and each partition's
 * leader, leader epoch and ISR as ZooKeeper last told this broker (a partition without a leader
 * reports LEADER_NOT_AVAILABLE, so clients retry; so does one ZooKeeper names this broker the leader of while it does
 * not lead it). Metadata creates missing topics when both the
 * client and {@code auto.create.topics.enable} allow it.
 */
final class MetadataHandler {
    private static final Logger log = LoggerFactory.getLogger(MetadataHandler.class);
    private static final byte BROKER_ENDPOINTS = 1;

    private final BrokerIdentity broker;
    private final TopicManager topics;
    private final TopicDefaults defaults;
    private final ClusterView cluster;
    private final ReplicaManager replicas;

    /** What an auto-created topic gets. */
    record TopicDefaults(boolean autoCreate, int partitions, short replicationFactor) {
    }

    MetadataHandler(BrokerIdentity broker, TopicManager topics, TopicDefaults defaults, ClusterView cluster, ReplicaManager replicas) {
        this.broker = broker;
        this.topics = topics;
        this.defaults = defaults;
        this.cluster = cluster;
        this.replicas = replicas;
    }

    /** The live brokers, this one included even before its registration shows up. */
    private Map<Integer, ClusterView.Endpoint> liveBrokers() {
        Map<Integer, ClusterView.Endpoint> live = new TreeMap<>(cluster.liveBrokers());
        live.putIfAbsent(broker.nodeId(), broker.asEndpoint());
        return live;
    }

    /**
     * The live brokers as clients of {@code listener} reach them (Kafka's rule: a client gets the endpoints of the
     * listener it connected to); a broker that does not advertise that listener is left out.
     */
    private List<ClusterView.Endpoint> liveBrokersOn(ListenerName listener) {
        return liveBrokers().values().stream().flatMap(live -> live.on(listener).stream()).toList();
    }

    private int controllerId() {
        int id = cluster.controllerId();
        return id >= 0 ? id : broker.nodeId();
    }

    MetadataResponseData handle(MetadataRequestData request, ListenerName listener) {
        MetadataResponseData response = new MetadataResponseData()
                .setClusterId(broker.clusterId())
                .setControllerId(controllerId());
        liveBrokersOn(listener).forEach(live -> response.brokers().add(new MetadataResponseBroker()
                .setNodeId(live.id()).setHost(live.host()).setPort(live.port())));
        if (request.topics() == null) {
            topics.topics().forEach(topic -> response.topics().add(describe(topic)));
        } else {
            for (MetadataRequestTopic requested : request.topics()) {
                response.topics().add(requested.name() != null
                        ? byName(requested.name(), request.allowAutoTopicCreation())
                        : byId(requested.topicId()));
            }
        }
        // As asked; everything, since this step knows no ACLs (the authorization step narrows it down where there are).
        if (request.includeTopicAuthorizedOperations()) {
            response.topics().forEach(topic -> topic.setTopicAuthorizedOperations(AuthorizedOperations.all(ResourceType.TOPIC)));
        }
        if (request.includeClusterAuthorizedOperations()) {
            response.setClusterAuthorizedOperations(AuthorizedOperations.all(ResourceType.CLUSTER));
        }
        return response;
    }

    private MetadataResponseTopic byName(String name, boolean clientAllowsAutoCreate) {
        if (!Topic.isValid(name)) {
            return error(name, Uuid.ZERO_UUID, Errors.INVALID_TOPIC_EXCEPTION);
        }
        return topics.topic(name)
                .or(() -> clientAllowsAutoCreate && defaults.autoCreate() && !Topic.isInternal(name) ? autoCreate(name) : Optional.empty())
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

    /** One topic as Metadata describes it (DescribeTopicPartitions says the same). */
    MetadataResponseTopic describe(TopicState topic) {
        List<MetadataResponsePartition> partitions = new ArrayList<>();
        Set<Integer> live = liveBrokers().keySet();
        topic.assignment().replicas().forEach((partition, assigned) -> {
            TopicPartition tp = new TopicPartition(topic.name(), partition);
            Optional<PartitionState> state = cluster.partitionState(tp).or(() -> locallyLed(tp, assigned));
            int leader = state.map(PartitionState::leader).orElse(PartitionState.NO_LEADER);
            if (leader == broker.nodeId() && replicas.leaderEpoch(tp) < 0) {
                // Named by ZooKeeper, but not leading: it resigned as a possible zombie, or was elected for an earlier
                // registration. Clients must look for the leader elsewhere, not come back here.
                leader = PartitionState.NO_LEADER;
            }
            partitions.add(new MetadataResponsePartition()
                    .setPartitionIndex(partition)
                    .setErrorCode(leader == PartitionState.NO_LEADER ? Errors.LEADER_NOT_AVAILABLE.code() : Errors.NONE.code())
                    .setLeaderId(leader)
                    .setLeaderEpoch(state.map(PartitionState::leaderEpoch).orElse(-1))
                    .setReplicaNodes(assigned)
                    .setIsrNodes(state.map(PartitionState::isr).orElse(List.of()))
                    .setOfflineReplicas(assigned.stream().filter(id -> !live.contains(id)).toList()));
        });
        return new MetadataResponseTopic()
                .setName(topic.name())
                .setTopicId(topic.id())
                .setIsInternal(Topic.isInternal(topic.name()))
                .setPartitions(partitions);
    }

    /** A partition this broker leads but whose state the watch has not delivered yet (just created here). */
    private Optional<PartitionState> locallyLed(TopicPartition tp, List<Integer> assigned) {
        int epoch = replicas.leaderEpoch(tp);
        return epoch < 0 ? Optional.empty() : Optional.of(new PartitionState(broker.nodeId(), epoch, PartitionState.UNKNOWN_BROKER_EPOCH, assigned, 0, -1,
                PartitionState.NOT_STORED));
    }

    DescribeClusterResponseData describeCluster(DescribeClusterRequestData request, ListenerName listener) {
        DescribeClusterResponseData response = new DescribeClusterResponseData()
                .setClusterId(broker.clusterId())
                .setControllerId(controllerId())
                .setEndpointType(request.endpointType());
        if (request.endpointType() != BROKER_ENDPOINTS) {
            return response.setErrorCode(Errors.UNSUPPORTED_ENDPOINT_TYPE.code())
                    .setErrorMessage("this broker only describes broker endpoints");
        }
        liveBrokersOn(listener).forEach(live -> response.brokers().add(new DescribeClusterBroker()
                .setBrokerId(live.id()).setHost(live.host()).setPort(live.port())));
        if (request.includeClusterAuthorizedOperations()) {
            response.setClusterAuthorizedOperations(AuthorizedOperations.all(ResourceType.CLUSTER));
        }
        return response;
    }
}

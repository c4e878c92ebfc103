package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.cluster.TopicManager.TopicState;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TopicDeletionDisabledException;
import org.apache.kafka.common.errors.UnknownTopicIdException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsRequestData.CreatePartitionsTopic;
import org.apache.kafka.common.message.CreatePartitionsResponseData;
import org.apache.kafka.common.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableReplicaAssignment;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicConfigs;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData.DeleteTopicState;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.message.DeleteTopicsResponseData.DeletableTopicResult;
import org.apache.kafka.common.requests.ApiError;

/**
 * CreateTopics, DeleteTopics and CreatePartitions; each topic succeeds or fails on its own. Internal topics
 * are the broker's: clients cannot create them (INVALID_REQUEST), delete them (TOPIC_AUTHORIZATION_FAILED)
 * or change their partitions (INVALID_REQUEST).
 */
final class TopicAdminHandler {
    private final TopicManager topics;
    private final TopicConfigView topicConfigs;
    private final int defaultPartitions;
    private final short defaultReplicationFactor;
    private final boolean deleteEnabled;

    /** What CreateTopics uses when a request leaves a number at -1. */
    record Defaults(int partitions, short replicationFactor, boolean deleteEnabled) {
    }

    TopicAdminHandler(TopicManager topics, TopicConfigView topicConfigs, Defaults defaults) {
        this.topics = topics;
        this.topicConfigs = topicConfigs;
        this.defaultPartitions = defaults.partitions();
        this.defaultReplicationFactor = defaults.replicationFactor();
        this.deleteEnabled = defaults.deleteEnabled();
    }

    CreateTopicsResponseData createTopics(CreateTopicsRequestData request) {
        CreateTopicsResponseData response = new CreateTopicsResponseData();
        Set<String> seen = new HashSet<>();
        Set<String> duplicated = new HashSet<>();
        request.topics().forEach(t -> {
            if (!seen.add(t.name())) {
                duplicated.add(t.name());
            }
        });
        for (CreatableTopic topic : request.topics()) {
            CreatableTopicResult result = new CreatableTopicResult().setName(topic.name());
            try {
                if (duplicated.contains(topic.name())) {
                    throw new InvalidRequestException("Topic '" + topic.name() + "' appears more than once in the request");
                }
                if (Topic.isInternal(topic.name())) {
                    throw new InvalidRequestException("Topic '" + topic.name() + "' is internal: the broker creates it");
                }
                TopicState created = create(topic, request.validateOnly());
                result.setTopicId(created.id())
                        .setNumPartitions(created.partitionCount())
                        .setReplicationFactor((short) created.assignment().replicas().get(0).size())
                        .setConfigs(configs(created));
            } catch (RuntimeException e) {
                ApiError error = ApiError.fromThrowable(e);
                result.setErrorCode(error.error().code()).setErrorMessage(error.message());
            }
            if (response.topics().find(topic.name()) == null) {
                response.topics().add(result);
            }
        }
        return response;
    }

    private TopicState create(CreatableTopic topic, boolean validateOnly) {
        Map<String, String> overrides = new HashMap<>();
        topic.configs().forEach(c -> overrides.put(c.name(), c.value()));
        int partitions = topic.numPartitions() == -1 ? defaultPartitions : topic.numPartitions();
        short replicationFactor = topic.replicationFactor() == -1 ? defaultReplicationFactor : topic.replicationFactor();
        if (!topic.assignments().isEmpty()) {
            if (topic.numPartitions() != -1 || topic.replicationFactor() != -1) {
                throw new InvalidRequestException("Both numPartitions or replicationFactor and replicasAssignments were set. "
                        + "Both cannot be used at the same time.");
            }
            SortedMap<Integer, List<Integer>> replicas = new TreeMap<>();
            for (CreatableReplicaAssignment assignment : topic.assignments()) {
                replicas.put(assignment.partitionIndex(), List.copyOf(assignment.brokerIds()));
            }
            return topics.create(topic.name(), replicas, overrides, validateOnly);
        }
        return topics.create(topic.name(), partitions, replicationFactor, overrides, validateOnly);
    }

    private List<CreatableTopicConfigs> configs(TopicState topic) {
        List<CreatableTopicConfigs> configs = new ArrayList<>();
        for (ConfigEntryView entry : topicConfigs.entries(topic)) {
            configs.add(new CreatableTopicConfigs()
                    .setName(entry.name())
                    .setValue(entry.value())
                    .setConfigSource(entry.source().id())
                    .setReadOnly(false)
                    .setIsSensitive(false));
        }
        return configs;
    }

    DeleteTopicsResponseData deleteTopics(DeleteTopicsRequestData request) {
        List<DeleteTopicState> targets = new ArrayList<>(request.topics());
        request.topicNames().forEach(name -> targets.add(new DeleteTopicState().setName(name).setTopicId(Uuid.ZERO_UUID)));
        DeleteTopicsResponseData response = new DeleteTopicsResponseData();
        for (DeleteTopicState target : targets) {
            DeletableTopicResult result = new DeletableTopicResult().setName(target.name()).setTopicId(target.topicId());
            try {
                if (!deleteEnabled) {
                    throw new TopicDeletionDisabledException("Topic deletion is disabled (delete.topic.enable=false)");
                }
                String name = target.name() != null ? target.name() : topics.topic(target.topicId())
                        .map(TopicState::name)
                        .orElseThrow(() -> new UnknownTopicIdException("No topic with id " + target.topicId()));
                result.setName(name);
                if (Topic.isInternal(name)) {
                    throw new TopicAuthorizationException("The internal topic '" + name + "' cannot be deleted");
                }
                topics.delete(name);
            } catch (RuntimeException e) {
                ApiError error = ApiError.fromThrowable(e);
                result.setErrorCode(error.error().code()).setErrorMessage(error.message());
            }
            response.responses().add(result);
        }
        return response;
    }

    CreatePartitionsResponseData createPartitions(CreatePartitionsRequestData request) {
        CreatePartitionsResponseData response = new CreatePartitionsResponseData();
        for (CreatePartitionsTopic topic : request.topics()) {
            CreatePartitionsTopicResult result = new CreatePartitionsTopicResult().setName(topic.name());
            try {
                if (Topic.isInternal(topic.name())) {
                    throw new InvalidRequestException("The number of partitions of the internal topic '" + topic.name()
                            + "' cannot be changed");
                }
                List<List<Integer>> assignments = topic.assignments() == null ? null
                        : topic.assignments().stream().map(a -> List.copyOf(a.brokerIds())).toList();
                topics.createPartitions(topic.name(), topic.count(), assignments, request.validateOnly());
            } catch (RuntimeException e) {
                ApiError error = ApiError.fromThrowable(e);
                result.setErrorCode(error.error().code()).setErrorMessage(error.message());
            }
            response.results().add(result);
        }
        return response;
    }
}

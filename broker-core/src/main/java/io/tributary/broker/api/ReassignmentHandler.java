package io.tributary.broker.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.HashSet;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.cluster.TopicAssignment;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.controller.Controller;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.message.AlterPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.AlterPartitionReassignmentsResponseData;
import org.apache.kafka.common.message.AlterPartitionReassignmentsResponseData.ReassignablePartitionResponse;
import org.apache.kafka.common.message.AlterPartitionReassignmentsResponseData.ReassignableTopicResponse;
import org.apache.kafka.common.message.ElectLeadersRequestData;
import org.apache.kafka.common.message.ElectLeadersResponseData;
import org.apache.kafka.common.message.ElectLeadersResponseData.PartitionResult;
import org.apache.kafka.common.message.ElectLeadersResponseData.ReplicaElectionResult;
import org.apache.kafka.common.message.ListPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.ListPartitionReassignmentsResponseData;
import org.apache.kafka.common.message.ListPartitionReassignmentsResponseData.OngoingPartitionReassignment;
import org.apache.kafka.common.message.ListPartitionReassignmentsResponseData.OngoingTopicReassignment;
import org.apache.kafka.common.requests.ApiError;

/**
 * AlterPartitionReassignments, ListPartitionReassignments and ElectLeaders. The first and the last are the
 * controller's (other brokers answer NOT_CONTROLLER, and clients send them to the controller the metadata names);
 * the list is read from ZooKeeper.
 */
final class ReassignmentHandler {
    private final Controller controller;
    private final TopicManager topics;

    ReassignmentHandler(Controller controller, TopicManager topics) {
        this.controller = controller;
        this.topics = topics;
    }

    CompletableFuture<AlterPartitionReassignmentsResponseData> alter(AlterPartitionReassignmentsRequestData request) {
        Map<TopicPartition, Optional<List<Integer>>> targets = new LinkedHashMap<>();
        Map<TopicPartition, ApiError> refused = new LinkedHashMap<>();
        request.topics().forEach(topic -> topic.partitions().forEach(partition -> {
            TopicPartition tp = new TopicPartition(topic.name(), partition.partitionIndex());
            Optional<List<Integer>> target = Optional.ofNullable(partition.replicas()).map(List::copyOf);
            if (target.isPresent() && !request.allowReplicationFactorChange() && changesReplicationFactor(tp, target.get())) {
                refused.put(tp, ApiError.fromThrowable(new InvalidReplicationFactorException(
                        "The replication factor of " + tp + " would change, and the request does not allow it")));
            } else {
                targets.put(tp, target);
            }
        }));
        CompletableFuture<Map<TopicPartition, ApiError>> done = targets.isEmpty()
                ? CompletableFuture.completedFuture(Map.of()) : controller.alterReassignments(targets);
        return done.thenApply(results -> {
            Map<TopicPartition, ApiError> all = new LinkedHashMap<>(results);
            all.putAll(refused);
            AlterPartitionReassignmentsResponseData response = new AlterPartitionReassignmentsResponseData()
                    .setAllowReplicationFactorChange(request.allowReplicationFactorChange());
            Map<String, ReassignableTopicResponse> byTopic = new LinkedHashMap<>();
            all.forEach((tp, error) -> byTopic.computeIfAbsent(tp.topic(), name -> {
                ReassignableTopicResponse topic = new ReassignableTopicResponse().setName(name);
                response.responses().add(topic);
                return topic;
            }).partitions().add(new ReassignablePartitionResponse().setPartitionIndex(tp.partition())
                    .setErrorCode(error.error().code()).setErrorMessage(error.isSuccess() ? null : error.message())));
            return response;
        });
    }

    private boolean changesReplicationFactor(TopicPartition tp, List<Integer> target) {
        return topics.topic(tp.topic())
                .filter(topic -> topic.assignment().replicas().containsKey(tp.partition()))
                .map(topic -> topic.assignment().originalReplicas(tp.partition()).size() != target.size())
                .orElse(false);
    }

    ListPartitionReassignmentsResponseData list(ListPartitionReassignmentsRequestData request) {
        Set<TopicPartition> wanted = null;
        if (request.topics() != null) {
            wanted = new HashSet<>();
            for (var topic : request.topics()) {
                for (int partition : topic.partitionIndexes()) {
                    wanted.add(new TopicPartition(topic.name(), partition));
                }
            }
        }
        ListPartitionReassignmentsResponseData response = new ListPartitionReassignmentsResponseData();
        Map<String, OngoingTopicReassignment> byTopic = new LinkedHashMap<>();
        for (Map.Entry<TopicPartition, TopicAssignment> ongoing : controller.reassignmentsInProgress().entrySet()) {
            TopicPartition tp = ongoing.getKey();
            if (wanted != null && !wanted.contains(tp)) {
                continue;
            }
            TopicAssignment assignment = ongoing.getValue();
            TopicAssignment.Reassignment reassignment = assignment.reassignments().get(tp.partition());
            byTopic.computeIfAbsent(tp.topic(), name -> {
                OngoingTopicReassignment topic = new OngoingTopicReassignment().setName(name);
                response.topics().add(topic);
                return topic;
            }).partitions().add(new OngoingPartitionReassignment()
                    .setPartitionIndex(tp.partition())
                    .setReplicas(assignment.replicas().get(tp.partition()))
                    .setAddingReplicas(reassignment.adding())
                    .setRemovingReplicas(reassignment.removing()));
        }
        return response;
    }

    CompletableFuture<ElectLeadersResponseData> elect(ElectLeadersRequestData request, short version) {
        ElectionType type = version == 0 ? ElectionType.PREFERRED : ElectionType.valueOf(request.electionType());
        Set<TopicPartition> partitions = null;
        if (request.topicPartitions() != null) {
            partitions = new java.util.LinkedHashSet<>();
            for (var topic : request.topicPartitions()) {
                for (int partition : topic.partitions()) {
                    partitions.add(new TopicPartition(topic.topic(), partition));
                }
            }
        }
        return controller.electLeaders(type, partitions).thenApply(results -> {
            ElectLeadersResponseData response = new ElectLeadersResponseData();
            Map<String, ReplicaElectionResult> byTopic = new LinkedHashMap<>();
            results.forEach((tp, error) -> byTopic.computeIfAbsent(tp.topic(), name -> {
                ReplicaElectionResult topic = new ReplicaElectionResult().setTopic(name);
                response.replicaElectionResults().add(topic);
                return topic;
            }).partitionResult().add(new PartitionResult().setPartitionId(tp.partition())
                    .setErrorCode(error.error().code()).setErrorMessage(error.isSuccess() ? null : error.message())));
            return response;
        });
    }
}

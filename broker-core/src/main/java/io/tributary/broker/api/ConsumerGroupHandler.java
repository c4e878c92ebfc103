package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.group.ConsumerGroupCoordinator;
import io.tributary.broker.group.consumer.ConsumerHeartbeat;
import io.tributary.broker.group.consumer.HeartbeatResult;
import io.tributary.broker.group.consumer.SubscribableTopics;
import io.tributary.broker.network.Request;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.message.ConsumerGroupDescribeRequestData;
import org.apache.kafka.common.message.ConsumerGroupDescribeResponseData;
import org.apache.kafka.common.message.ConsumerGroupDescribeResponseData.DescribedGroup;
import org.apache.kafka.common.message.ConsumerGroupDescribeResponseData.TopicPartitions;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.Errors;

/**
 * ConsumerGroupHeartbeat and ConsumerGroupDescribe (KIP-848): translate between the wire messages
 * and the {@link ConsumerGroupCoordinator}. Errors of the coordinator lookup (NOT_COORDINATOR,
 * COORDINATOR_LOAD_IN_PROGRESS) become the response's error code.
 */
final class ConsumerGroupHandler {
    /** ConsumerGroupDescribe's member type of a member that speaks the consumer protocol (v1+). */
    private static final byte CONSUMER_MEMBER_TYPE = 1;

    private final ConsumerGroupCoordinator coordinator;

    ConsumerGroupHandler(ConsumerGroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    /** Completes once the coordinator answers: after the heartbeat's changes are replicated. */
    CompletableFuture<ConsumerGroupHeartbeatResponseData> heartbeat(ConsumerGroupHeartbeatRequestData data, Request request) {
        Map<Uuid, Set<Integer>> owned = null;
        if (data.topicPartitions() != null) {
            owned = new HashMap<>();
            for (ConsumerGroupHeartbeatRequestData.TopicPartitions topic : data.topicPartitions()) {
                owned.computeIfAbsent(topic.topicId(), t -> new HashSet<>()).addAll(topic.partitions());
            }
        }
        // v0: the coordinator names a joining member; from v1 the member names itself
        String memberId = request.version() == 0 && data.memberEpoch() == 0 && data.memberId().isEmpty()
                ? Uuid.randomUuid().toString() : data.memberId();
        ConsumerHeartbeat heartbeat = new ConsumerHeartbeat(data.groupId(), memberId, data.memberEpoch(), data.instanceId(),
                data.rackId(), data.rebalanceTimeoutMs(), data.subscribedTopicNames(), data.subscribedTopicRegex(),
                data.serverAssignor(), owned, request.header().clientId(), GroupMembershipHandler.clientHost(request));
        CompletableFuture<HeartbeatResult> result;
        try {
            result = coordinator.heartbeat(heartbeat);
        } catch (ApiException e) {
            result = CompletableFuture.completedFuture(HeartbeatResult.error(Errors.forException(e), null));
        }
        return result.thenApply(ConsumerGroupHandler::response);
    }

    private static ConsumerGroupHeartbeatResponseData response(HeartbeatResult result) {
        ConsumerGroupHeartbeatResponseData response = new ConsumerGroupHeartbeatResponseData()
                .setErrorCode(result.error().code()).setErrorMessage(result.errorMessage())
                .setMemberId(result.memberId()).setMemberEpoch(result.memberEpoch())
                .setHeartbeatIntervalMs(result.heartbeatIntervalMs());
        if (result.assignment() != null) {
            List<ConsumerGroupHeartbeatResponseData.TopicPartitions> topics = new ArrayList<>();
            result.assignment().forEach((topic, partitions) -> topics.add(new ConsumerGroupHeartbeatResponseData.TopicPartitions()
                    .setTopicId(topic).setPartitions(new ArrayList<>(new TreeSet<>(partitions)))));
            response.setAssignment(new ConsumerGroupHeartbeatResponseData.Assignment().setTopicPartitions(topics));
        }
        return response;
    }

    ConsumerGroupDescribeResponseData describe(ConsumerGroupDescribeRequestData data) {
        ConsumerGroupDescribeResponseData response = new ConsumerGroupDescribeResponseData();
        for (String groupId : data.groupIds()) {
            response.groups().add(describe(groupId));
        }
        return response;
    }

    private DescribedGroup describe(String groupId) {
        Optional<ConsumerGroupCoordinator.Description> found;
        try {
            found = coordinator.describe(groupId);
        } catch (ApiException e) {
            return new DescribedGroup().setGroupId(groupId).setErrorCode(Errors.forException(e).code());
        }
        if (found.isEmpty()) {
            return new DescribedGroup().setGroupId(groupId).setErrorCode(Errors.GROUP_ID_NOT_FOUND.code())
                    .setErrorMessage(coordinator.exists(groupId) ? "Group " + groupId + " is not a consumer group."
                            : "Group " + groupId + " not found.");
        }
        ConsumerGroupCoordinator.Description group = found.get();
        DescribedGroup described = new DescribedGroup().setGroupId(groupId).setGroupState(group.state().wireName())
                .setGroupEpoch(group.groupEpoch()).setAssignmentEpoch(group.assignmentEpoch()).setAssignorName(group.assignorName());
        for (ConsumerGroupCoordinator.DescribedMember member : group.members()) {
            described.members().add(new ConsumerGroupDescribeResponseData.Member().setMemberId(member.memberId())
                    .setInstanceId(member.instanceId()).setRackId(member.rackId()).setMemberEpoch(member.memberEpoch())
                    .setClientId(member.clientId()).setClientHost(member.clientHost())
                    .setSubscribedTopicNames(member.subscribedTopicNames()).setSubscribedTopicRegex(member.subscribedTopicRegex())
                    .setAssignment(assignment(member.assignment())).setTargetAssignment(assignment(member.targetAssignment()))
                    .setMemberType(CONSUMER_MEMBER_TYPE));
        }
        return described;
    }

    private ConsumerGroupDescribeResponseData.Assignment assignment(Map<Uuid, Set<Integer>> partitions) {
        List<TopicPartitions> topics = new ArrayList<>();
        partitions.forEach((topicId, ids) -> topics.add(new TopicPartitions().setTopicId(topicId)
                .setTopicName(coordinator.topics().byId(topicId).map(SubscribableTopics.Topic::name).orElse(""))
                .setPartitions(new ArrayList<>(new TreeSet<>(ids)))));
        return new ConsumerGroupDescribeResponseData.Assignment().setTopicPartitions(topics);
    }
}

package io.tributary.broker.api;

import static org.apache.kafka.common.acl.AclOperation.DELETE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.READ;

import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.message.ConsumerGroupDescribeResponseData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetDeleteResponseData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The checks of the consumer-group APIs (see {@link AclRequestAuthorization}): the group's ACL, and the topics'
 * for the offsets they commit, fetch or delete.
 */
final class GroupApisAuthorization {
    private static final short FIRST_BATCHED_OFFSET_FETCH_VERSION = 8;

    private GroupApisAuthorization() {
    }

    static UnaryOperator<ApiMessage> findCoordinator(RequestAccess access, FindCoordinatorRequestData request) {
        boolean transaction = request.keyType() == FindCoordinatorRequest.CoordinatorType.TRANSACTION.id();
        ResourceType type = transaction ? ResourceType.TRANSACTIONAL_ID : ResourceType.GROUP;
        Errors error = transaction ? Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED : Errors.GROUP_AUTHORIZATION_FAILED;
        if (request.coordinatorKeys().isEmpty()) { // before v4: one key
            if (!access.may(DESCRIBE, type, request.key())) {
                throw error.exception();
            }
            return RequestAccess.UNCHANGED;
        }
        List<String> denied = RequestAccess.removeDenied(request.coordinatorKeys(), key -> access.may(DESCRIBE, type, key));
        return message -> {
            denied.forEach(key -> ((FindCoordinatorResponseData) message).coordinators().add(new FindCoordinatorResponseData.Coordinator()
                    .setKey(key).setNodeId(-1).setHost("").setPort(-1).setErrorCode(error.code()).setErrorMessage(error.message())));
            return message;
        };
    }

    static UnaryOperator<ApiMessage> offsetCommit(RequestAccess access, OffsetCommitRequestData request) {
        access.requireOnGroup(READ, request.groupId());
        List<OffsetCommitRequestData.OffsetCommitRequestTopic> denied = RequestAccess.removeDenied(request.topics(),
                topic -> access.mayOnNamedTopic(READ, topic.name(), topic.topicId()));
        return message -> {
            for (OffsetCommitRequestData.OffsetCommitRequestTopic topic : denied) {
                OffsetCommitResponseData.OffsetCommitResponseTopic result = new OffsetCommitResponseData.OffsetCommitResponseTopic()
                        .setName(topic.name()).setTopicId(topic.topicId());
                topic.partitions().forEach(p -> result.partitions().add(new OffsetCommitResponseData.OffsetCommitResponsePartition()
                        .setPartitionIndex(p.partitionIndex()).setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())));
                ((OffsetCommitResponseData) message).topics().add(result);
            }
            return message;
        };
    }

    /** Topics the sender may not describe are left out when it asked for all, else answered TOPIC_AUTHORIZATION_FAILED. */
    static UnaryOperator<ApiMessage> offsetFetch(RequestAccess access, OffsetFetchRequestData request, short version) {
        if (version < FIRST_BATCHED_OFFSET_FETCH_VERSION) {
            access.requireOnGroup(DESCRIBE, request.groupId());
            boolean allTopics = request.topics() == null;
            return message -> {
                List<OffsetFetchResponseData.OffsetFetchResponseTopic> topics = ((OffsetFetchResponseData) message).topics();
                topics.removeIf(topic -> allTopics && !access.mayOnNamedTopic(DESCRIBE, topic.name(), Uuid.ZERO_UUID));
                topics.stream().filter(topic -> !access.mayOnNamedTopic(DESCRIBE, topic.name(), Uuid.ZERO_UUID))
                        .forEach(topic -> topic.partitions().forEach(p -> p.setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                                .setCommittedOffset(-1).setMetadata(null)));
                return message;
            };
        }
        List<OffsetFetchRequestData.OffsetFetchRequestGroup> denied = RequestAccess.removeDenied(request.groups(),
                group -> access.may(DESCRIBE, ResourceType.GROUP, group.groupId()));
        List<String> allTopicsOf = request.groups().stream().filter(g -> g.topics() == null).map(g -> g.groupId()).toList();
        return message -> {
            OffsetFetchResponseData response = (OffsetFetchResponseData) message;
            for (OffsetFetchResponseData.OffsetFetchResponseGroup group : response.groups()) {
                boolean allTopics = allTopicsOf.contains(group.groupId());
                group.topics().removeIf(topic -> allTopics && !access.mayOnNamedTopic(DESCRIBE, topic.name(), topic.topicId()));
                group.topics().stream().filter(topic -> !access.mayOnNamedTopic(DESCRIBE, topic.name(), topic.topicId()))
                        .forEach(topic -> topic.partitions().forEach(p -> p.setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                                .setCommittedOffset(-1).setMetadata(null)));
            }
            denied.forEach(group -> response.groups().add(new OffsetFetchResponseData.OffsetFetchResponseGroup()
                    .setGroupId(group.groupId()).setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code())));
            return message;
        };
    }

    static UnaryOperator<ApiMessage> offsetDelete(RequestAccess access, OffsetDeleteRequestData request) {
        access.requireOnGroup(DELETE, request.groupId());
        List<OffsetDeleteRequestData.OffsetDeleteRequestTopic> denied = RequestAccess.removeDenied(request.topics(),
                topic -> access.may(READ, ResourceType.TOPIC, topic.name()));
        return message -> {
            for (OffsetDeleteRequestData.OffsetDeleteRequestTopic topic : denied) {
                OffsetDeleteResponseData.OffsetDeleteResponseTopic result = new OffsetDeleteResponseData.OffsetDeleteResponseTopic().setName(topic.name());
                topic.partitions().forEach(p -> result.partitions().add(new OffsetDeleteResponseData.OffsetDeleteResponsePartition()
                        .setPartitionIndex(p.partitionIndex()).setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())));
                ((OffsetDeleteResponseData) message).topics().add(result);
            }
            return message;
        };
    }

    /** DESCRIBE on each group; the authorized operations, where asked, of each group it may describe. */
    static UnaryOperator<ApiMessage> describeGroups(RequestAccess access, DescribeGroupsRequestData request) {
        return message -> {
            List<DescribeGroupsResponseData.DescribedGroup> groups = ((DescribeGroupsResponseData) message).groups();
            groups.replaceAll(group -> access.may(DESCRIBE, ResourceType.GROUP, group.groupId())
                    ? (request.includeAuthorizedOperations() ? group.setAuthorizedOperations(AuthorizedOperations.allowed(ResourceType.GROUP,
                            operation -> access.may(operation, ResourceType.GROUP, group.groupId()))) : group)
                    : new DescribeGroupsResponseData.DescribedGroup().setGroupId(group.groupId())
                            .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code()).setGroupState("").setProtocolType("").setProtocolData(""));
            return message;
        };
    }

    static UnaryOperator<ApiMessage> describeConsumerGroups(RequestAccess access) {
        return message -> {
            List<ConsumerGroupDescribeResponseData.DescribedGroup> groups = ((ConsumerGroupDescribeResponseData) message).groups();
            groups.replaceAll(group -> access.may(DESCRIBE, ResourceType.GROUP, group.groupId()) ? group
                    : new ConsumerGroupDescribeResponseData.DescribedGroup().setGroupId(group.groupId())
                            .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code()));
            return message;
        };
    }

    static UnaryOperator<ApiMessage> listGroups(RequestAccess access) {
        if (access.mayOnCluster(DESCRIBE)) {
            return RequestAccess.UNCHANGED;
        }
        return message -> {
            ((ListGroupsResponseData) message).groups().removeIf(group -> !access.may(DESCRIBE, ResourceType.GROUP, group.groupId()));
            return message;
        };
    }

    static UnaryOperator<ApiMessage> deleteGroups(RequestAccess access, DeleteGroupsRequestData request) {
        List<String> denied = RequestAccess.removeDenied(request.groupsNames(), group -> access.may(DELETE, ResourceType.GROUP, group));
        return message -> {
            denied.forEach(group -> ((DeleteGroupsResponseData) message).results().add(new DeleteGroupsResponseData.DeletableGroupResult()
                    .setGroupId(group).setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code())));
            return message;
        };
    }
}

package io.tributary.broker.api;

import static org.apache.kafka.common.acl.AclOperation.ALTER;
import static org.apache.kafka.common.acl.AclOperation.ALTER_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.CLUSTER_ACTION;
import static org.apache.kafka.common.acl.AclOperation.CREATE;
import static org.apache.kafka.common.acl.AclOperation.DELETE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsResponseData;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DeleteRecordsResponseData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.message.DescribeConfigsResponseData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The checks of the topic APIs (see {@link AclRequestAuthorization}): each takes what the sender may not touch out
 * of the request and returns how its response gets those back with their error, or filters the response.
 */
final class TopicApisAuthorization {
    private TopicApisAuthorization() {
    }

    static UnaryOperator<ApiMessage> produce(RequestAccess access, ProduceRequestData request, boolean byId) {
        if (request.transactionalId() != null && !access.may(WRITE, ResourceType.TRANSACTIONAL_ID, request.transactionalId())) {
            throw new TransactionalIdAuthorizationException("Not authorized to use transactional id " + request.transactionalId());
        }
        List<ProduceRequestData.TopicProduceData> denied = RequestAccess.removeDenied(request.topicData(),
                topic -> access.mayOnTopic(WRITE, topic.name(), topic.topicId(), byId));
        if (denied.isEmpty()) {
            return RequestAccess.UNCHANGED;
        }
        return message -> { // for acks=0 too: the dispatcher closes the connection when it holds an error
            ProduceResponseData response = (ProduceResponseData) message;
            for (ProduceRequestData.TopicProduceData topic : denied) {
                List<ProduceResponseData.PartitionProduceResponse> partitions = new ArrayList<>();
                topic.partitionData().forEach(p -> partitions.add(ProduceHandler.error(p.index(), Errors.TOPIC_AUTHORIZATION_FAILED, null)));
                response.responses().add(new ProduceResponseData.TopicProduceResponse()
                        .setName(byId ? "" : topic.name()).setTopicId(topic.topicId()).setPartitionResponses(partitions));
            }
            return message;
        };
    }

    static UnaryOperator<ApiMessage> fetch(RequestAccess access, FetchRequestData request, boolean byId) {
        boolean follower = FetchRequest.isValidBrokerId(FetchRequest.replicaId(request));
        boolean replicates = follower && access.mayOnCluster(CLUSTER_ACTION);
        List<FetchRequestData.FetchTopic> denied = RequestAccess.removeDenied(request.topics(), topic -> follower
                ? replicates : access.mayOnTopic(READ, topic.topic(), topic.topicId(), byId));
        if (denied.isEmpty()) {
            return RequestAccess.UNCHANGED;
        }
        return message -> {
            FetchResponseData response = (FetchResponseData) message;
            for (FetchRequestData.FetchTopic topic : denied) {
                List<FetchResponseData.PartitionData> partitions = new ArrayList<>();
                topic.partitions().forEach(p -> partitions.add(FetchHandler.error(p.partition(), Errors.TOPIC_AUTHORIZATION_FAILED)));
                response.responses().add(new FetchResponseData.FetchableTopicResponse()
                        .setTopic(byId ? "" : topic.topic()).setTopicId(topic.topicId()).setPartitions(partitions));
            }
            return message;
        };
    }

    static UnaryOperator<ApiMessage> listOffsets(RequestAccess access) {
        return message -> {
            for (ListOffsetsResponseData.ListOffsetsTopicResponse topic : ((ListOffsetsResponseData) message).topics()) {
                if (!access.may(DESCRIBE, ResourceType.TOPIC, topic.name())) {
                    topic.partitions().forEach(p -> p.setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                            .setOffset(-1).setTimestamp(-1).setLeaderEpoch(-1));
                }
            }
            return message;
        };
    }

    /**
     * Metadata: DESCRIBE on each topic named (all topics: only those listed). Where the request lets the broker
     * create missing topics and the broker does ({@code autoCreateTopics}), a missing topic needs CREATE on the
     * cluster or on itself, topic by topic as in Kafka: the others are created, it is refused (TOPIC_AUTHORIZATION_FAILED).
     */
    static UnaryOperator<ApiMessage> metadata(RequestAccess access, MetadataRequestData request, boolean autoCreateTopics) {
        UnaryOperator<ApiMessage> filter = metadataTopics(access, request, autoCreateTopics);
        if (!request.includeTopicAuthorizedOperations() && !request.includeClusterAuthorizedOperations()) {
            return filter;
        }
        return message -> {
            MetadataResponseData response = (MetadataResponseData) filter.apply(message);
            if (request.includeTopicAuthorizedOperations()) {
                response.topics().forEach(topic -> topic.setTopicAuthorizedOperations(AuthorizedOperations.allowed(ResourceType.TOPIC,
                        operation -> access.mayOnNamedTopic(operation, topic.name(), topic.topicId()))));
            }
            if (request.includeClusterAuthorizedOperations()) {
                response.setClusterAuthorizedOperations(AuthorizedOperations.allowed(ResourceType.CLUSTER, access::mayOnCluster));
            }
            return response;
        };
    }

    private static UnaryOperator<ApiMessage> metadataTopics(RequestAccess access, MetadataRequestData request, boolean autoCreateTopics) {
        if (request.topics() == null) { // all topics: only those the sender may describe
            return message -> {
                ((MetadataResponseData) message).topics().removeIf(topic -> !access.may(DESCRIBE, ResourceType.TOPIC, topic.name()));
                return message;
            };
        }
        List<MetadataRequestData.MetadataRequestTopic> denied = RequestAccess.removeDenied(request.topics(),
                topic -> access.mayOnNamedTopic(DESCRIBE, topic.name(), topic.topicId()));
        if (request.allowAutoTopicCreation() && autoCreateTopics && !access.mayOnCluster(CREATE)) {
            denied.addAll(RequestAccess.removeDenied(request.topics(), topic -> topic.name() == null
                    || access.topicExists(topic.name()) || access.may(CREATE, ResourceType.TOPIC, topic.name())));
        }
        if (denied.isEmpty()) {
            return RequestAccess.UNCHANGED;
        }
        return message -> {
            for (MetadataRequestData.MetadataRequestTopic topic : denied) {
                ((MetadataResponseData) message).topics().add(new MetadataResponseData.MetadataResponseTopic()
                        .setName(topic.name()).setTopicId(topic.topicId()).setIsInternal(false)
                        .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()));
            }
            return message;
        };
    }

    static UnaryOperator<ApiMessage> offsetForLeaderEpoch(RequestAccess access, OffsetForLeaderEpochRequestData request) {
        if (request.replicaId() >= 0) {
            access.requireOnCluster(CLUSTER_ACTION);
            return RequestAccess.UNCHANGED;
        }
        return message -> {
            for (OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResult topic : ((OffsetForLeaderEpochResponseData) message).topics()) {
                if (!access.may(DESCRIBE, ResourceType.TOPIC, topic.topic())) {
                    topic.partitions().forEach(p -> p.setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()).setLeaderEpoch(-1).setEndOffset(-1));
                }
            }
            return message;
        };
    }

    static UnaryOperator<ApiMessage> createTopics(RequestAccess access, CreateTopicsRequestData request) {
        if (access.mayOnCluster(CREATE)) {
            return RequestAccess.UNCHANGED;
        }
        List<CreateTopicsRequestData.CreatableTopic> denied = RequestAccess.removeDenied(request.topics(),
                topic -> access.may(CREATE, ResourceType.TOPIC, topic.name()));
        return message -> {
            denied.forEach(topic -> ((CreateTopicsResponseData) message).topics().add(new CreateTopicsResponseData.CreatableTopicResult()
                    .setName(topic.name()).setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                    .setNumPartitions(-1).setReplicationFactor((short) -1)));
            return message;
        };
    }

    static UnaryOperator<ApiMessage> deleteTopics(RequestAccess access, DeleteTopicsRequestData request) {
        List<String> deniedNames = RequestAccess.removeDenied(request.topicNames(), name -> access.may(DELETE, ResourceType.TOPIC, name));
        List<DeleteTopicsRequestData.DeleteTopicState> denied = RequestAccess.removeDenied(request.topics(),
                topic -> access.mayOnNamedTopic(DELETE, topic.name(), topic.topicId()));
        return message -> {
            DeleteTopicsResponseData response = (DeleteTopicsResponseData) message;
            deniedNames.forEach(name -> response.responses().add(new DeleteTopicsResponseData.DeletableTopicResult()
                    .setName(name).setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())));
            denied.forEach(topic -> response.responses().add(new DeleteTopicsResponseData.DeletableTopicResult()
                    .setName(topic.name()).setTopicId(topic.topicId()).setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())));
            return message;
        };
    }

    static UnaryOperator<ApiMessage> createPartitions(RequestAccess access, CreatePartitionsRequestData request) {
        List<CreatePartitionsRequestData.CreatePartitionsTopic> denied = RequestAccess.removeDenied(request.topics(),
                topic -> access.may(ALTER, ResourceType.TOPIC, topic.name()));
        return message -> {
            denied.forEach(topic -> ((CreatePartitionsResponseData) message).results().add(new CreatePartitionsResponseData.CreatePartitionsTopicResult()
                    .setName(topic.name()).setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())));
            return message;
        };
    }

    static UnaryOperator<ApiMessage> deleteRecords(RequestAccess access, DeleteRecordsRequestData request) {
        List<DeleteRecordsRequestData.DeleteRecordsTopic> denied = RequestAccess.removeDenied(request.topics(),
                topic -> access.may(DELETE, ResourceType.TOPIC, topic.name()));
        return message -> {
            for (DeleteRecordsRequestData.DeleteRecordsTopic topic : denied) {
                DeleteRecordsResponseData.DeleteRecordsTopicResult result = new DeleteRecordsResponseData.DeleteRecordsTopicResult().setName(topic.name());
                topic.partitions().forEach(p -> result.partitions().add(new DeleteRecordsResponseData.DeleteRecordsPartitionResult()
                        .setPartitionIndex(p.partitionIndex()).setLowWatermark(-1).setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())));
                ((DeleteRecordsResponseData) message).topics().add(result);
            }
            return message;
        };
    }

    /** May the sender do {@code topicOperation} on a topic resource, or {@code clusterOperation} for a broker one? */
    private static Errors configAccess(RequestAccess access, byte resourceType, String name, AclOperation operation) {
        ConfigResource.Type type = ConfigResource.Type.forId(resourceType);
        if (type == ConfigResource.Type.TOPIC) {
            return access.may(operation, ResourceType.TOPIC, name) ? Errors.NONE : Errors.TOPIC_AUTHORIZATION_FAILED;
        }
        if (type == ConfigResource.Type.GROUP) {
            return access.may(operation, ResourceType.GROUP, name) ? Errors.NONE : Errors.GROUP_AUTHORIZATION_FAILED;
        }
        return access.mayOnCluster(operation) ? Errors.NONE : Errors.CLUSTER_AUTHORIZATION_FAILED;
    }

    static UnaryOperator<ApiMessage> describeConfigs(RequestAccess access) {
        return message -> {
            for (DescribeConfigsResponseData.DescribeConfigsResult result : ((DescribeConfigsResponseData) message).results()) {
                Errors error = configAccess(access, result.resourceType(), result.resourceName(), DESCRIBE_CONFIGS);
                if (error != Errors.NONE) {
                    result.setErrorCode(error.code()).setErrorMessage(error.message()).setConfigs(new ArrayList<>());
                }
            }
            return message;
        };
    }

    static UnaryOperator<ApiMessage> alterConfigs(RequestAccess access, IncrementalAlterConfigsRequestData request) {
        return alterableResources(access, request.resources(), IncrementalAlterConfigsRequestData.AlterConfigsResource::resourceType,
                IncrementalAlterConfigsRequestData.AlterConfigsResource::resourceName,
                (message, type, name, error) -> ((IncrementalAlterConfigsResponseData) message).responses().add(
                        new IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse().setResourceType(type)
                                .setResourceName(name).setErrorCode(error.code()).setErrorMessage(error.message())));
    }

    /** AlterConfigs (the older API) needs what IncrementalAlterConfigs needs: ALTER_CONFIGS on each resource. */
    static UnaryOperator<ApiMessage> replaceConfigs(RequestAccess access, AlterConfigsRequestData request) {
        return alterableResources(access, request.resources(), AlterConfigsRequestData.AlterConfigsResource::resourceType,
                AlterConfigsRequestData.AlterConfigsResource::resourceName,
                (message, type, name, error) -> ((AlterConfigsResponseData) message).responses().add(
                        new AlterConfigsResponseData.AlterConfigsResourceResponse().setResourceType(type)
                                .setResourceName(name).setErrorCode(error.code()).setErrorMessage(error.message())));
    }

    /** Adds a refused config resource's result to its API's response. */
    private interface RefusedResource {
        void add(ApiMessage response, byte resourceType, String resourceName, Errors error);
    }

    /**
     * Takes the resources the sender may not ALTER_CONFIGS out of the request, and puts each back into the response
     * with its error.
     */
    private static <R> UnaryOperator<ApiMessage> alterableResources(RequestAccess access, Collection<R> resources,
                                                                    Function<R, Byte> type, Function<R, String> name,
                                                                    RefusedResource refused) {
        List<R> denied = RequestAccess.removeDenied(resources,
                resource -> configAccess(access, type.apply(resource), name.apply(resource), ALTER_CONFIGS) == Errors.NONE);
        return message -> {
            for (R resource : denied) {
                byte resourceType = type.apply(resource);
                String resourceName = name.apply(resource);
                refused.add(message, resourceType, resourceName, configAccess(access, resourceType, resourceName, ALTER_CONFIGS));
            }
            return message;
        };
    }
}

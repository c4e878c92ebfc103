package io.tributary.broker.api;

import static org.apache.kafka.common.acl.AclOperation.ALTER;
import static org.apache.kafka.common.acl.AclOperation.ALTER_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.CLUSTER_ACTION;
import static org.apache.kafka.common.acl.AclOperation.CREATE;
import static org.apache.kafka.common.acl.AclOperation.DELETE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.IDEMPOTENT_WRITE;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import io.tributary.broker.network.Request;
import io.tributary.broker.network.Session;
import io.tributary.broker.security.AclAuthorizer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsResponseData;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DeleteRecordsResponseData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.message.DescribeConfigsResponseData;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetDeleteResponseData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;

/**
 * What each API needs, checked as Kafka checks it, with Kafka's error codes: Produce WRITE on each topic, Fetch READ
 * on each topic (CLUSTER_ACTION on the cluster for a follower's), ListOffsets and Metadata DESCRIBE on each topic
 * (Metadata lists only those, and creates a missing topic only with CREATE on the cluster or the topic), the group
 * APIs READ (DESCRIBE, DELETE) on the group and READ (DESCRIBE) on the topics of their offsets, CreateTopics CREATE,
 * DeleteTopics and DeleteRecords DELETE, CreatePartitions ALTER, DescribeConfigs DESCRIBE_CONFIGS and
 * IncrementalAlterConfigs ALTER_CONFIGS on the topic or the cluster, InitProducerId IDEMPOTENT_WRITE on the cluster
 * or WRITE on some topic, the ACL, quota and SCRAM APIs DESCRIBE or ALTER (quotas: DESCRIBE_CONFIGS, ALTER_CONFIGS)
 * on the cluster. ApiVersions, the SASL exchange and DescribeCluster (the brokers, as Metadata lists them) need
 * nothing, as in Kafka. An API this class has no case for is refused to all but the principals with CLUSTER_ACTION (the
 * brokers): a new API gets its case here. Thread-safe.
 */
final class AclRequestAuthorization implements RequestAuthorization {
    private static final short FIRST_PRODUCE_VERSION_BY_TOPIC_ID = 13;
    private static final short FIRST_FETCH_VERSION_BY_TOPIC_ID = 13;
    private static final short FIRST_BATCHED_OFFSET_FETCH_VERSION = 8;
    /** The completion of a request nothing was taken out of: the response goes out as the handler made it. */
    private static final UnaryOperator<ApiMessage> UNCHANGED = message -> message;

    private final AclAuthorizer authorizer;
    private final TopicLookup lookup;

    AclRequestAuthorization(AclAuthorizer authorizer, TopicLookup lookup) {
        this.authorizer = authorizer;
        this.lookup = lookup;
    }

    /** What one request's sender may do. */
    private record Access(AclAuthorizer authorizer, Session session) {
        boolean may(AclOperation operation, ResourceType type, String name) {
            return authorizer.authorize(session.principal(), session.clientAddress().getHostAddress(), operation, type, name);
        }

        boolean mayOnCluster(AclOperation operation) {
            return may(operation, ResourceType.CLUSTER, Resource.CLUSTER_NAME);
        }

        void requireOnCluster(AclOperation operation) {
            if (!mayOnCluster(operation)) {
                throw new ClusterAuthorizationException("Request requires " + operation + " on the cluster");
            }
        }

        void requireOnGroup(AclOperation operation, String group) {
            if (!may(operation, ResourceType.GROUP, group)) {
                throw new GroupAuthorizationException("Not authorized to access group: " + group);
            }
        }
    }

    @Override
    public CompletableFuture<? extends ApiMessage> handle(Request request, Function<Request, CompletableFuture<? extends ApiMessage>> handler) {
        Access access = new Access(authorizer, request.session());
        ApiMessage data = request.body().data();
        UnaryOperator<ApiMessage> completion = switch (request.apiKey()) {
            case PRODUCE -> produce(access, (ProduceRequestData) data, request.version() >= FIRST_PRODUCE_VERSION_BY_TOPIC_ID);
            case FETCH -> fetch(access, (FetchRequestData) data, request.version() >= FIRST_FETCH_VERSION_BY_TOPIC_ID);
            case LIST_OFFSETS -> listOffsets(access);
            case METADATA -> metadata(access, (MetadataRequestData) data);
            case OFFSET_FOR_LEADER_EPOCH -> offsetForLeaderEpoch(access, (OffsetForLeaderEpochRequestData) data);
            case CREATE_TOPICS -> createTopics(access, (CreateTopicsRequestData) data);
            case DELETE_TOPICS -> deleteTopics(access, (DeleteTopicsRequestData) data);
            case CREATE_PARTITIONS -> createPartitions(access, (CreatePartitionsRequestData) data);
            case DELETE_RECORDS -> deleteRecords(access, (DeleteRecordsRequestData) data);
            case DESCRIBE_CONFIGS -> describeConfigs(access);
            case INCREMENTAL_ALTER_CONFIGS -> alterConfigs(access, (IncrementalAlterConfigsRequestData) data);
            case INIT_PRODUCER_ID -> initProducerId(access, (InitProducerIdRequestData) data);
            case FIND_COORDINATOR -> findCoordinator(access, (FindCoordinatorRequestData) data);
            case JOIN_GROUP -> group(access, READ, ((JoinGroupRequestData) data).groupId());
            case SYNC_GROUP -> group(access, READ, ((SyncGroupRequestData) data).groupId());
            case HEARTBEAT -> group(access, READ, ((HeartbeatRequestData) data).groupId());
            case LEAVE_GROUP -> group(access, READ, ((LeaveGroupRequestData) data).groupId());
            case OFFSET_COMMIT -> offsetCommit(access, (OffsetCommitRequestData) data);
            case OFFSET_FETCH -> offsetFetch(access, (OffsetFetchRequestData) data, request.version());
            case OFFSET_DELETE -> offsetDelete(access, (OffsetDeleteRequestData) data);
            case DESCRIBE_GROUPS -> describeGroups(access);
            case LIST_GROUPS -> listGroups(access);
            case DELETE_GROUPS -> deleteGroups(access, (DeleteGroupsRequestData) data);
            case DESCRIBE_ACLS, DESCRIBE_USER_SCRAM_CREDENTIALS -> cluster(access, DESCRIBE);
            case CREATE_ACLS, DELETE_ACLS, ALTER_USER_SCRAM_CREDENTIALS -> cluster(access, ALTER);
            case DESCRIBE_CLIENT_QUOTAS -> cluster(access, DESCRIBE_CONFIGS);
            case ALTER_CLIENT_QUOTAS -> cluster(access, ALTER_CONFIGS);
            case API_VERSIONS, SASL_HANDSHAKE, SASL_AUTHENTICATE, DESCRIBE_CLUSTER -> UNCHANGED;
            default -> cluster(access, CLUSTER_ACTION);
        };
        CompletableFuture<? extends ApiMessage> response = handler.apply(request);
        return completion == UNCHANGED ? response : response.thenApply(completion);
    }

    private static UnaryOperator<ApiMessage> cluster(Access access, AclOperation operation) {
        access.requireOnCluster(operation);
        return UNCHANGED;
    }

    private static UnaryOperator<ApiMessage> group(Access access, AclOperation operation, String group) {
        access.requireOnGroup(operation, group);
        return UNCHANGED;
    }

    /** Removes the items {@code allowed} refuses from {@code items}; @return those removed */
    private static <T> List<T> removeDenied(Collection<T> items, Predicate<T> allowed) {
        List<T> denied = new ArrayList<>();
        for (Iterator<T> it = items.iterator(); it.hasNext(); ) {
            T item = it.next();
            if (!allowed.test(item)) {
                denied.add(item);
                it.remove();
            }
        }
        return denied;
    }

    /** May the sender do {@code operation} on the topic named (or, by id, identified)? An unknown id is the handler's to report. */
    private boolean mayOnTopic(Access access, AclOperation operation, String name, Uuid id, boolean byId) {
        if (byId) {
            return lookup.find(name, id, true).topic().map(topic -> access.may(operation, ResourceType.TOPIC, topic.name())).orElse(true);
        }
        return access.may(operation, ResourceType.TOPIC, name);
    }

    private String topicName(String name, Uuid id) {
        if (name != null && !name.isEmpty()) {
            return name;
        }
        return lookup.find(null, id, true).topic().map(topic -> topic.name()).orElse(null);
    }

    private boolean mayOnNamedTopic(Access access, AclOperation operation, String name, Uuid id) {
        String topic = topicName(name, id);
        return topic == null || access.may(operation, ResourceType.TOPIC, topic);
    }

    private UnaryOperator<ApiMessage> produce(Access access, ProduceRequestData request, boolean byId) {
        if (request.transactionalId() != null && !access.may(WRITE, ResourceType.TRANSACTIONAL_ID, request.transactionalId())) {
            throw new TransactionalIdAuthorizationException("Not authorized to use transactional id " + request.transactionalId());
        }
        List<ProduceRequestData.TopicProduceData> denied = removeDenied(request.topicData(),
                topic -> mayOnTopic(access, WRITE, topic.name(), topic.topicId(), byId));
        if (denied.isEmpty()) {
            return UNCHANGED;
        }
        return message -> {
            if (message instanceof ProduceResponseData response) { // null for acks=0
                for (ProduceRequestData.TopicProduceData topic : denied) {
                    List<ProduceResponseData.PartitionProduceResponse> partitions = new ArrayList<>();
                    topic.partitionData().forEach(p -> partitions.add(ProduceHandler.error(p.index(), Errors.TOPIC_AUTHORIZATION_FAILED, null)));
                    response.responses().add(new ProduceResponseData.TopicProduceResponse()
                            .setName(byId ? "" : topic.name()).setTopicId(topic.topicId()).setPartitionResponses(partitions));
                }
            }
            return message;
        };
    }

    private UnaryOperator<ApiMessage> fetch(Access access, FetchRequestData request, boolean byId) {
        boolean follower = FetchRequest.isValidBrokerId(FetchRequest.replicaId(request));
        boolean replicates = follower && access.mayOnCluster(CLUSTER_ACTION);
        List<FetchRequestData.FetchTopic> denied = removeDenied(request.topics(), topic -> follower
                ? replicates : mayOnTopic(access, READ, topic.topic(), topic.topicId(), byId));
        if (denied.isEmpty()) {
            return UNCHANGED;
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

    private static UnaryOperator<ApiMessage> listOffsets(Access access) {
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

    private UnaryOperator<ApiMessage> metadata(Access access, MetadataRequestData request) {
        if (request.topics() == null) { // all topics: only those the sender may describe
            return message -> {
                ((MetadataResponseData) message).topics().removeIf(topic -> !access.may(DESCRIBE, ResourceType.TOPIC, topic.name()));
                return message;
            };
        }
        List<MetadataRequestData.MetadataRequestTopic> denied = removeDenied(request.topics(),
                topic -> mayOnNamedTopic(access, DESCRIBE, topic.name(), topic.topicId()));
        if (request.allowAutoTopicCreation() && !access.mayOnCluster(CREATE) && request.topics().stream()
                .anyMatch(topic -> topic.name() != null && !access.may(CREATE, ResourceType.TOPIC, topic.name()))) {
            request.setAllowAutoTopicCreation(false); // a missing topic it may not create is reported unknown
        }
        if (denied.isEmpty()) {
            return UNCHANGED;
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

    private static UnaryOperator<ApiMessage> offsetForLeaderEpoch(Access access, OffsetForLeaderEpochRequestData request) {
        if (request.replicaId() >= 0) {
            return cluster(access, CLUSTER_ACTION);
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

    private static UnaryOperator<ApiMessage> createTopics(Access access, CreateTopicsRequestData request) {
        if (access.mayOnCluster(CREATE)) {
            return UNCHANGED;
        }
        List<CreateTopicsRequestData.CreatableTopic> denied = removeDenied(request.topics(),
                topic -> access.may(CREATE, ResourceType.TOPIC, topic.name()));
        return message -> {
            denied.forEach(topic -> ((CreateTopicsResponseData) message).topics().add(new CreateTopicsResponseData.CreatableTopicResult()
                    .setName(topic.name()).setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                    .setNumPartitions(-1).setReplicationFactor((short) -1)));
            return message;
        };
    }

    private UnaryOperator<ApiMessage> deleteTopics(Access access, DeleteTopicsRequestData request) {
        List<String> deniedNames = removeDenied(request.topicNames(), name -> access.may(DELETE, ResourceType.TOPIC, name));
        List<DeleteTopicsRequestData.DeleteTopicState> denied = removeDenied(request.topics(),
                topic -> mayOnNamedTopic(access, DELETE, topic.name(), topic.topicId()));
        return message -> {
            DeleteTopicsResponseData response = (DeleteTopicsResponseData) message;
            deniedNames.forEach(name -> response.responses().add(new DeleteTopicsResponseData.DeletableTopicResult()
                    .setName(name).setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())));
            denied.forEach(topic -> response.responses().add(new DeleteTopicsResponseData.DeletableTopicResult()
                    .setName(topic.name()).setTopicId(topic.topicId()).setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())));
            return message;
        };
    }

    private static UnaryOperator<ApiMessage> createPartitions(Access access, CreatePartitionsRequestData request) {
        List<CreatePartitionsRequestData.CreatePartitionsTopic> denied = removeDenied(request.topics(),
                topic -> access.may(ALTER, ResourceType.TOPIC, topic.name()));
        return message -> {
            denied.forEach(topic -> ((CreatePartitionsResponseData) message).results().add(new CreatePartitionsResponseData.CreatePartitionsTopicResult()
                    .setName(topic.name()).setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())));
            return message;
        };
    }

    private static UnaryOperator<ApiMessage> deleteRecords(Access access, DeleteRecordsRequestData request) {
        List<DeleteRecordsRequestData.DeleteRecordsTopic> denied = removeDenied(request.topics(),
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
    private static Errors configAccess(Access access, byte resourceType, String name, AclOperation operation) {
        ConfigResource.Type type = ConfigResource.Type.forId(resourceType);
        if (type == ConfigResource.Type.TOPIC) {
            return access.may(operation, ResourceType.TOPIC, name) ? Errors.NONE : Errors.TOPIC_AUTHORIZATION_FAILED;
        }
        return access.mayOnCluster(operation) ? Errors.NONE : Errors.CLUSTER_AUTHORIZATION_FAILED;
    }

    private static UnaryOperator<ApiMessage> describeConfigs(Access access) {
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

    private static UnaryOperator<ApiMessage> alterConfigs(Access access, IncrementalAlterConfigsRequestData request) {
        List<IncrementalAlterConfigsRequestData.AlterConfigsResource> denied = removeDenied(request.resources(),
                resource -> configAccess(access, resource.resourceType(), resource.resourceName(), ALTER_CONFIGS) == Errors.NONE);
        return message -> {
            for (IncrementalAlterConfigsRequestData.AlterConfigsResource resource : denied) {
                Errors error = configAccess(access, resource.resourceType(), resource.resourceName(), ALTER_CONFIGS);
                ((IncrementalAlterConfigsResponseData) message).responses().add(new IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse()
                        .setResourceType(resource.resourceType()).setResourceName(resource.resourceName())
                        .setErrorCode(error.code()).setErrorMessage(error.message()));
            }
            return message;
        };
    }

    private UnaryOperator<ApiMessage> initProducerId(Access access, InitProducerIdRequestData request) {
        if (request.transactionalId() != null) {
            if (!access.may(WRITE, ResourceType.TRANSACTIONAL_ID, request.transactionalId())) {
                throw new TransactionalIdAuthorizationException("Not authorized to use transactional id " + request.transactionalId());
            }
        } else if (!access.mayOnCluster(IDEMPOTENT_WRITE)
                && !authorizer.authorizeAny(access.session().principal(), access.session().clientAddress().getHostAddress(), WRITE, ResourceType.TOPIC)) {
            throw new ClusterAuthorizationException("An idempotent producer needs IDEMPOTENT_WRITE on the cluster or WRITE on a topic");
        }
        return UNCHANGED;
    }

    private static UnaryOperator<ApiMessage> findCoordinator(Access access, FindCoordinatorRequestData request) {
        boolean transaction = request.keyType() == FindCoordinatorRequest.CoordinatorType.TRANSACTION.id();
        ResourceType type = transaction ? ResourceType.TRANSACTIONAL_ID : ResourceType.GROUP;
        Errors error = transaction ? Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED : Errors.GROUP_AUTHORIZATION_FAILED;
        if (request.coordinatorKeys().isEmpty()) { // before v4: one key
            if (!access.may(DESCRIBE, type, request.key())) {
                throw error.exception();
            }
            return UNCHANGED;
        }
        List<String> denied = removeDenied(request.coordinatorKeys(), key -> access.may(DESCRIBE, type, key));
        return message -> {
            denied.forEach(key -> ((FindCoordinatorResponseData) message).coordinators().add(new FindCoordinatorResponseData.Coordinator()
                    .setKey(key).setNodeId(-1).setHost("").setPort(-1).setErrorCode(error.code()).setErrorMessage(error.message())));
            return message;
        };
    }

    private UnaryOperator<ApiMessage> offsetCommit(Access access, OffsetCommitRequestData request) {
        access.requireOnGroup(READ, request.groupId());
        List<OffsetCommitRequestData.OffsetCommitRequestTopic> denied = removeDenied(request.topics(),
                topic -> mayOnNamedTopic(access, READ, topic.name(), topic.topicId()));
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
    private UnaryOperator<ApiMessage> offsetFetch(Access access, OffsetFetchRequestData request, short version) {
        if (version < FIRST_BATCHED_OFFSET_FETCH_VERSION) {
            access.requireOnGroup(DESCRIBE, request.groupId());
            boolean allTopics = request.topics() == null;
            return message -> {
                List<OffsetFetchResponseData.OffsetFetchResponseTopic> topics = ((OffsetFetchResponseData) message).topics();
                topics.removeIf(topic -> allTopics && !mayOnNamedTopic(access, DESCRIBE, topic.name(), Uuid.ZERO_UUID));
                topics.stream().filter(topic -> !mayOnNamedTopic(access, DESCRIBE, topic.name(), Uuid.ZERO_UUID))
                        .forEach(topic -> topic.partitions().forEach(p -> p.setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                                .setCommittedOffset(-1).setMetadata(null)));
                return message;
            };
        }
        List<OffsetFetchRequestData.OffsetFetchRequestGroup> denied = removeDenied(request.groups(),
                group -> access.may(DESCRIBE, ResourceType.GROUP, group.groupId()));
        List<String> allTopicsOf = request.groups().stream().filter(g -> g.topics() == null).map(g -> g.groupId()).toList();
        return message -> {
            OffsetFetchResponseData response = (OffsetFetchResponseData) message;
            for (OffsetFetchResponseData.OffsetFetchResponseGroup group : response.groups()) {
                boolean allTopics = allTopicsOf.contains(group.groupId());
                group.topics().removeIf(topic -> allTopics && !mayOnNamedTopic(access, DESCRIBE, topic.name(), topic.topicId()));
                group.topics().stream().filter(topic -> !mayOnNamedTopic(access, DESCRIBE, topic.name(), topic.topicId()))
                        .forEach(topic -> topic.partitions().forEach(p -> p.setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                                .setCommittedOffset(-1).setMetadata(null)));
            }
            denied.forEach(group -> response.groups().add(new OffsetFetchResponseData.OffsetFetchResponseGroup()
                    .setGroupId(group.groupId()).setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code())));
            return message;
        };
    }

    private UnaryOperator<ApiMessage> offsetDelete(Access access, OffsetDeleteRequestData request) {
        access.requireOnGroup(DELETE, request.groupId());
        List<OffsetDeleteRequestData.OffsetDeleteRequestTopic> denied = removeDenied(request.topics(),
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

    private static UnaryOperator<ApiMessage> describeGroups(Access access) {
        return message -> {
            List<DescribeGroupsResponseData.DescribedGroup> groups = ((DescribeGroupsResponseData) message).groups();
            groups.replaceAll(group -> access.may(DESCRIBE, ResourceType.GROUP, group.groupId()) ? group
                    : new DescribeGroupsResponseData.DescribedGroup().setGroupId(group.groupId())
                            .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code()).setGroupState("").setProtocolType("").setProtocolData(""));
            return message;
        };
    }

    private static UnaryOperator<ApiMessage> listGroups(Access access) {
        if (access.mayOnCluster(DESCRIBE)) {
            return UNCHANGED;
        }
        return message -> {
            ((ListGroupsResponseData) message).groups().removeIf(group -> !access.may(DESCRIBE, ResourceType.GROUP, group.groupId()));
            return message;
        };
    }

    private static UnaryOperator<ApiMessage> deleteGroups(Access access, DeleteGroupsRequestData request) {
        List<String> denied = removeDenied(request.groupsNames(), group -> access.may(DELETE, ResourceType.GROUP, group));
        return message -> {
            denied.forEach(group -> ((DeleteGroupsResponseData) message).results().add(new DeleteGroupsResponseData.DeletableGroupResult()
                    .setGroupId(group).setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code())));
            return message;
        };
    }
}

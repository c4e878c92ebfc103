package io.tributary.broker.api;

import static org.apache.kafka.common.acl.AclOperation.ALTER;
import static org.apache.kafka.common.acl.AclOperation.ALTER_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.CLUSTER_ACTION;
import static org.apache.kafka.common.acl.AclOperation.CREATE_TOKENS;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_TOKENS;
import static org.apache.kafka.common.acl.AclOperation.IDEMPOTENT_WRITE;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;

import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import io.tributary.broker.network.Request;
import io.tributary.broker.network.Session;
import io.tributary.broker.security.AclAuthorizer;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.DelegationTokenAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.message.AddOffsetsToTxnRequestData;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.CreateDelegationTokenRequestData;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.DescribeDelegationTokenResponseData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.message.DescribeTopicPartitionsRequestData;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData;
import org.apache.kafka.common.message.DescribeTransactionsRequestData;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;

/**
 * What each API needs, checked as Kafka checks it, with Kafka's error codes: Produce WRITE on each topic, Fetch READ
 * on each topic (CLUSTER_ACTION on the cluster for a follower's), ListOffsets and Metadata DESCRIBE on each topic
 * (Metadata lists only those, and creates a missing topic only with CREATE on the cluster or the topic, refusing each
 * other missing one with TOPIC_AUTHORIZATION_FAILED), the group
 * APIs READ (DESCRIBE, DELETE) on the group and READ (DESCRIBE) on the topics of their offsets, CreateTopics CREATE,
 * DeleteTopics and DeleteRecords DELETE, CreatePartitions ALTER, DescribeConfigs DESCRIBE_CONFIGS and
 * IncrementalAlterConfigs and AlterConfigs ALTER_CONFIGS on the topic or the cluster, InitProducerId IDEMPOTENT_WRITE on the cluster
 * or WRITE on some topic, the ACL, quota and SCRAM APIs DESCRIBE or ALTER (quotas: DESCRIBE_CONFIGS, ALTER_CONFIGS;
 * ListConfigResources DESCRIBE_CONFIGS) on the cluster, AlterPartitionReassignments, ElectLeaders and
 * AlterReplicaLogDirs ALTER and ListPartitionReassignments and DescribeLogDirs DESCRIBE on the cluster, DescribeTopicPartitions DESCRIBE on each
 * topic. ApiVersions, the SASL exchange, DescribeCluster (the brokers, as Metadata lists them) and renewing or expiring
 * a delegation token (its owner and renewers may) need nothing, as in Kafka; CreateDelegationToken for another owner
 * needs CREATE_TOKENS on that user, and DescribeDelegationToken shows the tokens the sender owns, renews or may
 * describe. An API this class has no case for is refused to all but the principals with CLUSTER_ACTION (the
 * brokers): a new API gets its case here. Metadata, DescribeCluster and DescribeGroups carry the sender's authorized
 * operations where the request asks ({@link AuthorizedOperations}). Thread-safe.
 */
final class AclRequestAuthorization implements RequestAuthorization {
    private static final short FIRST_PRODUCE_VERSION_BY_TOPIC_ID = 13;
    private static final short FIRST_FETCH_VERSION_BY_TOPIC_ID = 13;

    private final AclAuthorizer authorizer;
    private final TopicLookup lookup;
    private final boolean autoCreateTopics;

    /** @param autoCreateTopics {@code auto.create.topics.enable}: whether Metadata may create the topics it names */
    AclRequestAuthorization(AclAuthorizer authorizer, TopicLookup lookup, boolean autoCreateTopics) {
        this.authorizer = authorizer;
        this.lookup = lookup;
        this.autoCreateTopics = autoCreateTopics;
    }

    @Override
    public CompletableFuture<? extends ApiMessage> handle(Request request, Function<Request, CompletableFuture<? extends ApiMessage>> handler) {
        RequestAccess access = new RequestAccess(authorizer, request.session(), lookup);
        ApiMessage data = request.body().data();
        UnaryOperator<ApiMessage> completion = switch (request.apiKey()) {
            case PRODUCE -> TopicApisAuthorization.produce(access, (ProduceRequestData) data, request.version() >= FIRST_PRODUCE_VERSION_BY_TOPIC_ID);
            case FETCH -> TopicApisAuthorization.fetch(access, (FetchRequestData) data, request.version() >= FIRST_FETCH_VERSION_BY_TOPIC_ID);
            case LIST_OFFSETS -> TopicApisAuthorization.listOffsets(access);
            case METADATA -> TopicApisAuthorization.metadata(access, (MetadataRequestData) data, autoCreateTopics);
            case OFFSET_FOR_LEADER_EPOCH -> TopicApisAuthorization.offsetForLeaderEpoch(access, (OffsetForLeaderEpochRequestData) data);
            case CREATE_TOPICS -> TopicApisAuthorization.createTopics(access, (CreateTopicsRequestData) data);
            case DELETE_TOPICS -> TopicApisAuthorization.deleteTopics(access, (DeleteTopicsRequestData) data);
            case CREATE_PARTITIONS -> TopicApisAuthorization.createPartitions(access, (CreatePartitionsRequestData) data);
            case DELETE_RECORDS -> TopicApisAuthorization.deleteRecords(access, (DeleteRecordsRequestData) data);
            case DESCRIBE_CONFIGS -> TopicApisAuthorization.describeConfigs(access);
            case INCREMENTAL_ALTER_CONFIGS -> TopicApisAuthorization.alterConfigs(access, (IncrementalAlterConfigsRequestData) data);
            case ALTER_CONFIGS -> TopicApisAuthorization.replaceConfigs(access, (AlterConfigsRequestData) data);
            case INIT_PRODUCER_ID -> initProducerId(access, (InitProducerIdRequestData) data);
            case ADD_PARTITIONS_TO_TXN -> TransactionApisAuthorization.addPartitions(access, (AddPartitionsToTxnRequestData) data, request.version());
            case ADD_OFFSETS_TO_TXN -> TransactionApisAuthorization.addOffsets(access, (AddOffsetsToTxnRequestData) data);
            case END_TXN -> TransactionApisAuthorization.endTxn(access, (EndTxnRequestData) data);
            case TXN_OFFSET_COMMIT -> TransactionApisAuthorization.txnOffsetCommit(access, (TxnOffsetCommitRequestData) data);
            case DESCRIBE_TRANSACTIONS -> TransactionApisAuthorization.describeTransactions(access, (DescribeTransactionsRequestData) data);
            case LIST_TRANSACTIONS -> TransactionApisAuthorization.listTransactions(access);
            case DESCRIBE_PRODUCERS -> TransactionApisAuthorization.describeProducers(access, (DescribeProducersRequestData) data);
            case FIND_COORDINATOR -> GroupApisAuthorization.findCoordinator(access, (FindCoordinatorRequestData) data);
            case JOIN_GROUP -> group(access, READ, ((JoinGroupRequestData) data).groupId());
            case SYNC_GROUP -> group(access, READ, ((SyncGroupRequestData) data).groupId());
            case HEARTBEAT -> group(access, READ, ((HeartbeatRequestData) data).groupId());
            case LEAVE_GROUP -> group(access, READ, ((LeaveGroupRequestData) data).groupId());
            case OFFSET_COMMIT -> GroupApisAuthorization.offsetCommit(access, (OffsetCommitRequestData) data);
            case OFFSET_FETCH -> GroupApisAuthorization.offsetFetch(access, (OffsetFetchRequestData) data, request.version());
            case OFFSET_DELETE -> GroupApisAuthorization.offsetDelete(access, (OffsetDeleteRequestData) data);
            case DESCRIBE_GROUPS -> GroupApisAuthorization.describeGroups(access, (DescribeGroupsRequestData) data);
            case CONSUMER_GROUP_HEARTBEAT -> group(access, READ, ((ConsumerGroupHeartbeatRequestData) data).groupId());
            case CONSUMER_GROUP_DESCRIBE -> GroupApisAuthorization.describeConsumerGroups(access);
            case LIST_GROUPS -> GroupApisAuthorization.listGroups(access);
            case DELETE_GROUPS -> GroupApisAuthorization.deleteGroups(access, (DeleteGroupsRequestData) data);
            case DESCRIBE_ACLS, DESCRIBE_USER_SCRAM_CREDENTIALS, LIST_PARTITION_REASSIGNMENTS, DESCRIBE_LOG_DIRS -> cluster(access, DESCRIBE);
            case CREATE_ACLS, DELETE_ACLS, ALTER_USER_SCRAM_CREDENTIALS, ALTER_PARTITION_REASSIGNMENTS, ELECT_LEADERS,
                 ALTER_REPLICA_LOG_DIRS -> cluster(access, ALTER);
            case DESCRIBE_TOPIC_PARTITIONS -> describeTopicPartitions(access, (DescribeTopicPartitionsRequestData) data);
            case DESCRIBE_CLIENT_QUOTAS, LIST_CONFIG_RESOURCES -> cluster(access, DESCRIBE_CONFIGS);
            case ALTER_CLIENT_QUOTAS -> cluster(access, ALTER_CONFIGS);
            case DESCRIBE_CLUSTER -> describeCluster(access, (DescribeClusterRequestData) data);
            case CREATE_DELEGATION_TOKEN -> createDelegationToken(access, request.session(), (CreateDelegationTokenRequestData) data);
            case DESCRIBE_DELEGATION_TOKEN -> describeDelegationTokens(access, request.session().principal());
            case API_VERSIONS, SASL_HANDSHAKE, SASL_AUTHENTICATE, RENEW_DELEGATION_TOKEN, EXPIRE_DELEGATION_TOKEN -> RequestAccess.UNCHANGED;
            default -> cluster(access, CLUSTER_ACTION);
        };
        CompletableFuture<? extends ApiMessage> response = handler.apply(request);
        return completion == RequestAccess.UNCHANGED ? response : response.thenApply(completion);
    }

    /**
     * DescribeTopicPartitions, as Kafka: DESCRIBE on each topic, and each topic answered with the sender's operations
     * on it. A topic named in the request that the principal may not describe answers TOPIC_AUTHORIZATION_FAILED;
     * when every topic was asked for, it is left out.
     */
    private static UnaryOperator<ApiMessage> describeTopicPartitions(RequestAccess access, DescribeTopicPartitionsRequestData request) {
        boolean allTopics = request.topics().isEmpty();
        return body -> {
            var response = (DescribeTopicPartitionsResponseData) body;
            var kept = new DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopicCollection();
            for (var topic : response.topics()) {
                if (access.may(DESCRIBE, ResourceType.TOPIC, topic.name())) {
                    kept.add(topic.duplicate().setTopicAuthorizedOperations(AuthorizedOperations.allowed(ResourceType.TOPIC,
                            operation -> access.may(operation, ResourceType.TOPIC, topic.name()))));
                } else if (!allTopics) {
                    kept.add(new DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopic().setName(topic.name())
                            .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()));
                }
            }
            return response.setTopics(kept);
        };
    }

    /** DescribeCluster needs nothing, as in Kafka; where asked, it carries the sender's operations on the cluster. */
    private static UnaryOperator<ApiMessage> describeCluster(RequestAccess access, DescribeClusterRequestData request) {
        if (!request.includeClusterAuthorizedOperations()) {
            return RequestAccess.UNCHANGED;
        }
        return message -> ((DescribeClusterResponseData) message)
                .setClusterAuthorizedOperations(AuthorizedOperations.allowed(ResourceType.CLUSTER, access::mayOnCluster));
    }

    /**
     * CreateDelegationToken for another owner (KIP-373) needs CREATE_TOKENS on that user, as in Kafka; a client that may
     * not ask for tokens at all gets the handler's DELEGATION_TOKEN_REQUEST_NOT_ALLOWED instead.
     */
    private static UnaryOperator<ApiMessage> createDelegationToken(RequestAccess access, Session session, CreateDelegationTokenRequestData request) {
        KafkaPrincipal owner = DelegationTokenHandler.owner(request, session.principal());
        if (!owner.equals(session.principal()) && DelegationTokenHandler.mayRequestTokens(session)
                && !access.may(CREATE_TOKENS, ResourceType.USER, owner.toString())) {
            throw new DelegationTokenAuthorizationException("Not authorized to create a delegation token for " + owner);
        }
        return RequestAccess.UNCHANGED;
    }

    /**
     * DescribeDelegationToken shows the sender the tokens it owns or renews, and those it has DESCRIBE on (the token) or
     * DESCRIBE_TOKENS on (the owner, KIP-373), as Kafka's {@code DelegationTokenManager.filterToken}.
     */
    private static UnaryOperator<ApiMessage> describeDelegationTokens(RequestAccess access, KafkaPrincipal sender) {
        return body -> {
            var response = (DescribeDelegationTokenResponseData) body;
            return response.setTokens(response.tokens().stream().filter(token -> {
                KafkaPrincipal owner = new KafkaPrincipal(token.principalType(), token.principalName());
                return owner.equals(sender)
                        || token.renewers().stream().anyMatch(r -> new KafkaPrincipal(r.principalType(), r.principalName()).equals(sender))
                        || access.may(DESCRIBE, ResourceType.DELEGATION_TOKEN, token.tokenId())
                        || access.may(DESCRIBE_TOKENS, ResourceType.USER, owner.toString());
            }).collect(Collectors.toCollection(ArrayList::new)));
        };
    }

    private static UnaryOperator<ApiMessage> cluster(RequestAccess access, AclOperation operation) {
        access.requireOnCluster(operation);
        return RequestAccess.UNCHANGED;
    }

    private static UnaryOperator<ApiMessage> group(RequestAccess access, AclOperation operation, String group) {
        access.requireOnGroup(operation, group);
        return RequestAccess.UNCHANGED;
    }

    private static UnaryOperator<ApiMessage> initProducerId(RequestAccess access, InitProducerIdRequestData request) {
        if (request.transactionalId() != null) {
            if (!access.may(WRITE, ResourceType.TRANSACTIONAL_ID, request.transactionalId())) {
                throw new TransactionalIdAuthorizationException("Not authorized to use transactional id " + request.transactionalId());
            }
        } else if (!access.mayOnCluster(IDEMPOTENT_WRITE)
                && !access.mayOnSome(WRITE, ResourceType.TOPIC)) {
            throw new ClusterAuthorizationException("An idempotent producer needs IDEMPOTENT_WRITE on the cluster or WRITE on a topic");
        }
        return RequestAccess.UNCHANGED;
    }
}

package io.tributary.broker.api;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.cluster.BrokerConfigStore;
import io.tributary.broker.cluster.ClientQuotaStore;
import io.tributary.broker.cluster.DynamicBrokerConfig;
import io.tributary.broker.cluster.GroupConfigStore;
import io.tributary.broker.cluster.ProducerIdManager;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.controller.ClusterView;
import io.tributary.broker.controller.Controller;
import io.tributary.broker.fetch.FetchSessionCache;
import io.tributary.broker.fetch.FetchSessions;
import io.tributary.broker.log.remote.RemoteLogReader;
import io.tributary.broker.group.GroupServices;
import io.tributary.broker.group.OffsetStore;
import io.tributary.broker.network.Request;
import io.tributary.broker.network.Response;
import io.tributary.broker.purgatory.Purgatory;
import io.tributary.broker.quota.ClientQuotaEnforcer;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.security.AclAuthorizer;
import io.tributary.broker.security.FollowerCheck;
import io.tributary.broker.security.DelegationTokens;
import io.tributary.broker.security.ScramUsers;
import io.tributary.broker.txn.MarkerAppender;
import io.tributary.broker.txn.TransactionServices;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.message.AddOffsetsToTxnRequestData;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData;
import org.apache.kafka.common.message.AlterClientQuotasRequestData;
import org.apache.kafka.common.message.AlterPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.AlterReplicaLogDirsRequestData;
import org.apache.kafka.common.message.DescribeLogDirsRequestData;
import org.apache.kafka.common.message.DescribeTopicPartitionsRequestData;
import org.apache.kafka.common.message.ElectLeadersRequestData;
import org.apache.kafka.common.message.ListPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData;
import org.apache.kafka.common.message.CreateDelegationTokenRequestData;
import org.apache.kafka.common.message.DescribeDelegationTokenRequestData;
import org.apache.kafka.common.message.ExpireDelegationTokenRequestData;
import org.apache.kafka.common.message.RenewDelegationTokenRequestData;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.CreateAclsRequestData;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.ConsumerGroupDescribeRequestData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.message.DescribeTransactionsRequestData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsRequestData;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.ListConfigResourcesRequestData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListTransactionsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.SendBuilder;
import org.apache.kafka.common.requests.DeleteAclsRequest;
import org.apache.kafka.common.requests.DescribeAclsRequest;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.network.Send;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes each request to its handler and turns the typed result into bytes for the wire. A
 * version outside {@link SupportedApis} gets UNSUPPORTED_VERSION; with an authorizer a request passes its
 * {@link RequestAuthorization} step first; a handler failure (or a refusal) becomes the request's own error
 * response. Thread-safe.
 */
public final class RequestDispatcher {
    private static final Logger log = LoggerFactory.getLogger(RequestDispatcher.class);

    private final ApiVersionsHandler apiVersions = new ApiVersionsHandler();
    private final MetadataHandler metadata;
    private final ProduceHandler produce;
    private final FetchHandler fetch;
    private final ListOffsetsHandler listOffsets;
    private final DeleteRecordsHandler deleteRecords;
    private final TopicAdminHandler topicAdmin;
    private final ConfigHandler configs;
    private final ConfigResourcesHandler configResources;
    private final ProducerIdHandler producerIds;
    private final OffsetForLeaderEpochHandler leaderEpochs;
    private final GroupApis groups;
    private final ClientQuotasHandler clientQuotas;
    private final QuotaThrottle throttle;
    private final ScramCredentialsHandler scramCredentials;
    private final DelegationTokenHandler delegationTokens;
    private final AclHandler acls;
    private final RequestAuthorization authorization;
    private final TransactionApis transactions;
    private final ReplicaApis replicaAdmin;

    /** The handlers of the replica management APIs. */
    private record ReplicaApis(ReassignmentHandler reassignments, LogDirsHandler logDirs, TopicPartitionsHandler topicPartitions) {
    }

    /** The handlers of the transaction APIs: the coordinator's, and the partition leaders' WriteTxnMarkers. */
    private record TransactionApis(TransactionHandler coordinator, TxnMarkersHandler markers, TransactionAdminHandler admin) {
    }

    /** The handlers of the consumer-group APIs. */
    private record GroupApis(CoordinatorHandler coordinator, GroupMembershipHandler membership, GroupAdminHandler admin,
                             OffsetsHandler offsets, ConsumerGroupHandler consumer) {
    }

    private RequestDispatcher(MetadataHandler metadata, ProduceHandler produce, FetchHandler fetch, ListOffsetsHandler listOffsets,
                      DeleteRecordsHandler deleteRecords, TopicAdminHandler topicAdmin, ConfigHandler configs,
                      ConfigResourcesHandler configResources, ProducerIdHandler producerIds,
                      OffsetForLeaderEpochHandler leaderEpochs, GroupApis groups, ClientQuotasHandler clientQuotas,
                      QuotaThrottle throttle, ScramCredentialsHandler scramCredentials, DelegationTokenHandler delegationTokens, AclHandler acls,
                      RequestAuthorization authorization, TransactionApis transactions, ReplicaApis replicaAdmin) {
        this.metadata = metadata;
        this.produce = produce;
        this.fetch = fetch;
        this.listOffsets = listOffsets;
        this.deleteRecords = deleteRecords;
        this.topicAdmin = topicAdmin;
        this.configs = configs;
        this.configResources = configResources;
        this.producerIds = producerIds;
        this.leaderEpochs = leaderEpochs;
        this.groups = groups;
        this.clientQuotas = clientQuotas;
        this.throttle = throttle;
        this.scramCredentials = scramCredentials;
        this.delegationTokens = delegationTokens;
        this.acls = acls;
        this.authorization = authorization;
        this.transactions = transactions;
        this.replicaAdmin = replicaAdmin;
    }

    /** Wires one handler per API family over the broker's services. */
    public static RequestDispatcher create(BrokerIdentity broker, TopicManager topics, ProducerIdManager producerIds,
                                           ReplicaManager replicas, ClusterView cluster, Purgatory<TopicPartition> fetchWaiters,
                                           GroupServices groupServices, TransactionServices transactionServices,
                                           MarkerAppender markers, OffsetStore offsetStore, ApiSettings settings, ClientQuotaStore quotaStore,
                                           ClientQuotaEnforcer quotas, FollowerCheck followers, ScramUsers scramUsers,
                                           Optional<KafkaPrincipal> brokerPrincipal, Optional<AclAuthorizer> authorizer,
                                           Optional<DelegationTokens> delegationTokens,
                                           Controller controller, DynamicBrokerConfig dynamicConfig, BrokerConfigStore brokerConfigStore,
                                           GroupConfigStore groupConfigStore, FetchSessionCache fetchSessionCache,
                                           Optional<RemoteLogReader> remoteReader, long remoteFetchMaxWaitMs) {
        FetchSessions fetchSessions = new FetchSessions(fetchSessionCache);
        ConfigHandler configs = new ConfigHandler(topics, settings.brokerDef(), settings.brokerProps(),
                new BrokerConfigHandler(settings.brokerDef(), settings.brokerProps(), broker.nodeId(), dynamicConfig, brokerConfigStore),
                groupConfigStore, broker.nodeId());
        MetadataHandler metadata = new MetadataHandler(broker, topics, new MetadataHandler.TopicDefaults(settings.autoCreateTopics(),
                settings.defaultPartitions(), settings.defaultReplicationFactor()), cluster, replicas);
        return new RequestDispatcher(
                metadata,
                new ProduceHandler(topics, replicas, transactionServices.verifier(), settings.transactionPartitionVerification()),
                new FetchHandler(topics, replicas, fetchWaiters, followers, fetchSessions,
                        remoteReader.map(reader -> new FetchHandler.RemoteReads(reader, remoteFetchMaxWaitMs))),
                new ListOffsetsHandler(topics, replicas),
                new DeleteRecordsHandler(topics, replicas),
                new TopicAdminHandler(topics, configs.topicConfigs(), new TopicAdminHandler.Defaults(
                        settings.defaultPartitions(), settings.defaultReplicationFactor(), settings.deleteTopicEnable())),
                configs,
                new ConfigResourcesHandler(topics, cluster, groupConfigStore),
                new ProducerIdHandler(producerIds),
                new OffsetForLeaderEpochHandler(replicas),
                new GroupApis(new CoordinatorHandler(broker, groupServices, transactionServices, cluster, replicas),
                        new GroupMembershipHandler(groupServices.coordinator()),
                        new GroupAdminHandler(groupServices.coordinator(), groupServices.offsets()),
                        new OffsetsHandler(topics, groupServices.offsets(), transactionServices.verifier(), offsetStore::partitionFor),
                        new ConsumerGroupHandler(groupServices.consumerGroups())),
                new ClientQuotasHandler(quotaStore),
                new QuotaThrottle(quotas, fetchSessions),
                new ScramCredentialsHandler(scramUsers, brokerPrincipal),
                new DelegationTokenHandler(delegationTokens),
                new AclHandler(authorizer),
                authorizer.<RequestAuthorization>map(acls -> new AclRequestAuthorization(acls, new TopicLookup(topics),
                                settings.autoCreateTopics()))
                        .orElse(RequestAuthorization.NONE),
                new TransactionApis(new TransactionHandler(transactionServices, offsetStore), new TxnMarkersHandler(markers),
                        new TransactionAdminHandler(transactionServices.coordinator(), replicas, Time.SYSTEM)),
                new ReplicaApis(new ReassignmentHandler(controller, topics), new LogDirsHandler(replicas),
                        new TopicPartitionsHandler(topics, metadata)));
    }

    /** The response to send, completed later for requests that wait (fetch long-polls). */
    public CompletableFuture<Response> dispatch(Request request) {
        ApiKeys key = request.apiKey();
        short version = request.version();
        if (key == ApiKeys.API_VERSIONS) {
            boolean supported = SupportedApis.isSupported(key, version);
            // A client newer than us reads the error and our ranges from a v0 body, then retries.
            ApiMessage body = apiVersions.handle(supported);
            return CompletableFuture.completedFuture(charged(request, body, supported ? version : 0, 0));
        }
        if (!SupportedApis.isSupported(key, version)) {
            String supported = SupportedApis.range(key).map(Object::toString).orElse("none");
            // Every such request is logged, naming the client: it is an API or version someone needs and we lack.
            log.warn("{} is not supported (supported: {}): answered UNSUPPORTED_VERSION", request, supported);
            return CompletableFuture.completedFuture(failed(request, new UnsupportedVersionException(
                    key + " v" + version + " is not supported; supported: " + supported)));
        }
        long started = System.nanoTime();
        CompletableFuture<? extends ApiMessage> result;
        try {
            // Without an authorizer a request goes straight to its handler: nothing is allocated or looked up for it.
            result = authorization == RequestAuthorization.NONE ? handle(request, key, version)
                    : authorization.handle(request, authorized -> handle(authorized, key, version));
        } catch (RuntimeException e) {
            result = CompletableFuture.failedFuture(e);
        }
        long handlerNanos = System.nanoTime() - started; // the thread's time: a wait in a purgatory is not counted
        boolean unanswered = key == ApiKeys.PRODUCE && ((ProduceRequestData) request.body().data()).acks() == 0;
        return result.handle((answer, error) -> {
            if (unanswered && (error != null
                    || ProduceHandler.failedWithoutAnswer((ProduceRequestData) request.body().data(), (ProduceResponseData) answer))) {
                // As Kafka: the client reads no response, so closing its connection is the only way to tell it.
                log.info("closing the connection of {}: an acks=0 produce failed: {}", request, error != null ? error : answer);
                return Response.closeConnection(request);
            }
            // Errors count against the client's quotas too, as in Kafka.
            ApiMessage body = error != null ? errorBody(request, error) : unanswered ? null : answer; // acks=0: nothing on the wire
            return charged(request, body, version, handlerNanos);
        });
    }

    /** The response to send, its client charged for the request (and throttled if over a quota). */
    private Response charged(Request request, ApiMessage body, short version, long handlerNanos) {
        QuotaThrottle.Throttled charged = throttle.charge(request, body, version, handlerNanos);
        if (charged.throttleTimeMs() == 0) {
            return body == null ? Response.none(request) : respond(request, body, version);
        }
        return Response.throttled(request, body == null ? null : send(request, charged.body(), version), charged.throttleTimeMs());
    }

    private CompletableFuture<? extends ApiMessage> handle(Request request, ApiKeys key, short version) {
        ApiMessage data = request.body().data();
        return switch (key) {
            case METADATA -> done(metadata.handle((MetadataRequestData) data, request.session().listener()));
            case DESCRIBE_CLUSTER -> done(metadata.describeCluster((DescribeClusterRequestData) data, request.session().listener()));
            case PRODUCE -> produce.handle((ProduceRequestData) data, version);
            case FETCH -> fetch.handle((FetchRequestData) data, version, request.session());
            case LIST_OFFSETS -> done(listOffsets.handle((ListOffsetsRequestData) data, version));
            case DELETE_RECORDS -> done(deleteRecords.handle((DeleteRecordsRequestData) data));
            case CREATE_TOPICS -> done(topicAdmin.createTopics((CreateTopicsRequestData) data));
            case DELETE_TOPICS -> done(topicAdmin.deleteTopics((DeleteTopicsRequestData) data));
            case CREATE_PARTITIONS -> done(topicAdmin.createPartitions((CreatePartitionsRequestData) data));
            case DESCRIBE_CONFIGS -> done(configs.describe((DescribeConfigsRequestData) data));
            case INCREMENTAL_ALTER_CONFIGS -> done(configs.alter((IncrementalAlterConfigsRequestData) data));
            case ALTER_CONFIGS -> done(configs.replace((AlterConfigsRequestData) data));
            case LIST_CONFIG_RESOURCES -> done(configResources.list((ListConfigResourcesRequestData) data, version));
            case INIT_PRODUCER_ID -> ((InitProducerIdRequestData) data).transactionalId() != null
                    ? transactions.coordinator().initProducerId((InitProducerIdRequestData) data)
                    : done(producerIds.handle((InitProducerIdRequestData) data));
            case ADD_PARTITIONS_TO_TXN -> transactions.coordinator().addPartitions((AddPartitionsToTxnRequestData) data, version);
            case ADD_OFFSETS_TO_TXN -> transactions.coordinator().addOffsets((AddOffsetsToTxnRequestData) data);
            case END_TXN -> transactions.coordinator().endTransaction((EndTxnRequestData) data, version);
            case WRITE_TXN_MARKERS -> transactions.markers().handle((WriteTxnMarkersRequestData) data);
            case TXN_OFFSET_COMMIT -> groups.offsets().commitTransactional((TxnOffsetCommitRequestData) data, version);
            case LIST_TRANSACTIONS -> done(transactions.admin().list((ListTransactionsRequestData) data));
            case DESCRIBE_TRANSACTIONS -> done(transactions.admin().describe((DescribeTransactionsRequestData) data));
            case DESCRIBE_PRODUCERS -> done(transactions.admin().describeProducers((DescribeProducersRequestData) data));
            case OFFSET_FOR_LEADER_EPOCH -> done(leaderEpochs.handle((OffsetForLeaderEpochRequestData) data));
            case FIND_COORDINATOR -> done(groups.coordinator().handle((FindCoordinatorRequestData) data, version, request.session().listener()));
            case JOIN_GROUP -> groups.membership().join((JoinGroupRequestData) data, request);
            case SYNC_GROUP -> groups.membership().sync((SyncGroupRequestData) data);
            case HEARTBEAT -> done(groups.membership().heartbeat((HeartbeatRequestData) data));
            case LEAVE_GROUP -> groups.membership().leave((LeaveGroupRequestData) data, version);
            case CONSUMER_GROUP_HEARTBEAT -> groups.consumer().heartbeat((ConsumerGroupHeartbeatRequestData) data, request);
            case CONSUMER_GROUP_DESCRIBE -> done(groups.consumer().describe((ConsumerGroupDescribeRequestData) data));
            case LIST_GROUPS -> done(groups.admin().list((ListGroupsRequestData) data));
            case DESCRIBE_GROUPS -> done(groups.admin().describe((DescribeGroupsRequestData) data, version));
            case DELETE_GROUPS -> groups.admin().delete((DeleteGroupsRequestData) data);
            case OFFSET_COMMIT -> groups.offsets().commit((OffsetCommitRequestData) data, version);
            case OFFSET_FETCH -> done(groups.offsets().fetch((OffsetFetchRequestData) data, version));
            case OFFSET_DELETE -> groups.offsets().delete((OffsetDeleteRequestData) data);
            case DESCRIBE_CLIENT_QUOTAS -> done(clientQuotas.describe((DescribeClientQuotasRequestData) data));
            case ALTER_CLIENT_QUOTAS -> done(clientQuotas.alter((AlterClientQuotasRequestData) data));
            case DESCRIBE_USER_SCRAM_CREDENTIALS -> done(scramCredentials.describe((DescribeUserScramCredentialsRequestData) data));
            case ALTER_USER_SCRAM_CREDENTIALS -> done(scramCredentials.alter((AlterUserScramCredentialsRequestData) data,
                    request.session().principal()));
            case ALTER_PARTITION_REASSIGNMENTS -> replicaAdmin.reassignments().alter((AlterPartitionReassignmentsRequestData) data);
            case LIST_PARTITION_REASSIGNMENTS -> done(replicaAdmin.reassignments().list((ListPartitionReassignmentsRequestData) data));
            case ELECT_LEADERS -> replicaAdmin.reassignments().elect((ElectLeadersRequestData) data, version);
            case DESCRIBE_LOG_DIRS -> done(replicaAdmin.logDirs().describe((DescribeLogDirsRequestData) data));
            case ALTER_REPLICA_LOG_DIRS -> done(replicaAdmin.logDirs().alter((AlterReplicaLogDirsRequestData) data));
            case DESCRIBE_TOPIC_PARTITIONS -> done(replicaAdmin.topicPartitions().describe((DescribeTopicPartitionsRequestData) data));
            case CREATE_DELEGATION_TOKEN -> done(delegationTokens.create((CreateDelegationTokenRequestData) data, request.session(), version));
            case RENEW_DELEGATION_TOKEN -> done(delegationTokens.renew((RenewDelegationTokenRequestData) data, request.session()));
            case EXPIRE_DELEGATION_TOKEN -> done(delegationTokens.expire((ExpireDelegationTokenRequestData) data, request.session()));
            case DESCRIBE_DELEGATION_TOKEN -> done(delegationTokens.describe((DescribeDelegationTokenRequestData) data, request.session(), version));
            case DESCRIBE_ACLS -> done(acls.describe((DescribeAclsRequest) request.body()));
            case CREATE_ACLS -> done(acls.create((CreateAclsRequestData) data));
            case DELETE_ACLS -> done(acls.delete((DeleteAclsRequest) request.body()));
            // Authentication happens on the network thread; here the connection is past it (or never needed it).
            case SASL_HANDSHAKE -> done(new SaslHandshakeResponseData().setErrorCode(Errors.ILLEGAL_SASL_STATE.code()));
            case SASL_AUTHENTICATE -> done(new SaslAuthenticateResponseData().setErrorCode(Errors.ILLEGAL_SASL_STATE.code())
                    .setErrorMessage("SaslAuthenticate request received after successful authentication"));
            default -> CompletableFuture.failedFuture(new UnsupportedVersionException(key + " is not implemented"));
        };
    }

    private static <T extends ApiMessage> CompletableFuture<T> done(T response) {
        return CompletableFuture.completedFuture(response);
    }

    private static Response respond(Request request, ApiMessage body, short version) {
        return Response.of(request, send(request, body, version));
    }

    private static Send send(Request request, ApiMessage body, short version) {
        return SendBuilder.buildResponseSend(request.header().toResponseHeader(), body, version);
    }

    private static Response failed(Request request, Throwable error) {
        return respond(request, errorBody(request, error), request.version());
    }

    private static ApiMessage errorBody(Request request, Throwable error) {
        Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null ? error.getCause() : error;
        if (Errors.forException(cause) == Errors.UNKNOWN_SERVER_ERROR) {
            log.error("{} failed", request, cause);
        }
        return request.body().getErrorResponse(0, cause).data();
    }
}

package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.tributary.broker.controller.ClusterView;
import io.tributary.broker.controller.PartitionState;
import io.tributary.broker.group.GroupServices;
import io.tributary.broker.group.OffsetStore;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.txn.TransactionServices;
import io.tributary.broker.txn.TransactionStateStore;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.FindCoordinatorResponseData.Coordinator;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FindCoordinatorRequest.CoordinatorType;

/**
 * FindCoordinator: the coordinator of a group is the current leader of its {@code __consumer_offsets} partition,
 * that of a transactional id the leader of its {@code __transaction_state} partition (COORDINATOR_NOT_AVAILABLE
 * while it has none); each topic is created on the first lookup of its kind. Share groups are not implemented, so
 * their keys get an error. v0–3 ask for one key, v4+ for a batch.
 */
final class CoordinatorHandler {
    private static final short FIRST_BATCHED_VERSION = 4;

    private final BrokerIdentity broker;
    private final GroupServices groups;
    private final ClusterView cluster;
    private final ReplicaManager replicas;
    private final TransactionServices transactions;

    CoordinatorHandler(BrokerIdentity broker, GroupServices groups, TransactionServices transactions, ClusterView cluster,
                       ReplicaManager replicas) {
        this.broker = broker;
        this.groups = groups;
        this.transactions = transactions;
        this.cluster = cluster;
        this.replicas = replicas;
    }

    /** Coordinators are named by their address on {@code listener}, the one the client connected to. */
    FindCoordinatorResponseData handle(FindCoordinatorRequestData request, short version, ListenerName listener) {
        FindCoordinatorResponseData response = new FindCoordinatorResponseData();
        if (version < FIRST_BATCHED_VERSION) {
            Coordinator found = find(request.key(), request.keyType(), listener);
            return response.setErrorCode(found.errorCode()).setErrorMessage(found.errorMessage())
                    .setNodeId(found.nodeId()).setHost(found.host()).setPort(found.port());
        }
        List<Coordinator> coordinators = new ArrayList<>();
        for (String key : request.coordinatorKeys()) {
            coordinators.add(find(key, request.keyType(), listener));
        }
        return response.setCoordinators(coordinators);
    }

    private Coordinator find(String key, byte keyType, ListenerName listener) {
        Coordinator coordinator = new Coordinator().setKey(key);
        boolean transactional = keyType == CoordinatorType.TRANSACTION.id();
        Errors error = keyType == CoordinatorType.GROUP.id() || transactional ? Errors.NONE : Errors.INVALID_REQUEST;
        if (error == Errors.NONE && (key == null || key.isEmpty())) {
            error = Errors.INVALID_REQUEST;
        }
        if (error != Errors.NONE) {
            return coordinator.setErrorCode(error.code()).setErrorMessage(error == Errors.INVALID_REQUEST
                    ? "only consumer groups and transactional ids that are not empty have a coordinator here" : error.message())
                    .setNodeId(-1).setHost("").setPort(-1);
        }
        try {
            if (transactional) {
                transactions.ensureStateTopic();
            } else {
                groups.ensureOffsetsTopic();
            }
        } catch (RuntimeException e) {
            return coordinator.setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE.code()).setErrorMessage(e.getMessage())
                    .setNodeId(-1).setHost("").setPort(-1);
        }
        TopicPartition partition = transactional
                ? new TopicPartition(TransactionStateStore.TOPIC, transactions.partitionFor(key))
                : new TopicPartition(OffsetStore.TOPIC, groups.partitionFor(key));
        Optional<ClusterView.Endpoint> leader = replicas.leaderEpoch(partition) >= 0 ? broker.on(listener)
                : cluster.partitionState(partition)
                        .filter(state -> state.hasLeader() && state.leader() != broker.nodeId()) // not leading here
                        .flatMap(state -> cluster.broker(state.leader()))
                        .flatMap(endpoint -> endpoint.on(listener));
        if (leader.isEmpty()) {
            return coordinator.setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE.code())
                    .setErrorMessage(partition + " has no leader").setNodeId(-1).setHost("").setPort(-1);
        }
        return coordinator.setNodeId(leader.get().id()).setHost(leader.get().host()).setPort(leader.get().port());
    }
}

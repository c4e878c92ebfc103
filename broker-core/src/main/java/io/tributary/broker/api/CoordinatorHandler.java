package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.FindCoordinatorResponseData.Coordinator;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FindCoordinatorRequest.CoordinatorType;

/**
 * FindCoordinator: the coordinator of a group is the leader of its {@code __consumer_offsets}
 * partition, which on one broker is always this broker. Transactions and share groups are not
 * implemented, so their keys get an error. v0–3 ask for one key, v4+ for a batch.
 */
final class CoordinatorHandler {
    private static final short FIRST_BATCHED_VERSION = 4;

    private final BrokerIdentity broker;

    CoordinatorHandler(BrokerIdentity broker) {
        this.broker = broker;
    }

    FindCoordinatorResponseData handle(FindCoordinatorRequestData request, short version) {
        FindCoordinatorResponseData response = new FindCoordinatorResponseData();
        if (version < FIRST_BATCHED_VERSION) {
            Coordinator found = find(request.key(), request.keyType());
            return response.setErrorCode(found.errorCode()).setErrorMessage(found.errorMessage())
                    .setNodeId(found.nodeId()).setHost(found.host()).setPort(found.port());
        }
        List<Coordinator> coordinators = new ArrayList<>();
        for (String key : request.coordinatorKeys()) {
            coordinators.add(find(key, request.keyType()));
        }
        return response.setCoordinators(coordinators);
    }

    private Coordinator find(String key, byte keyType) {
        Coordinator coordinator = new Coordinator().setKey(key);
        Errors error = keyType == CoordinatorType.GROUP.id() ? Errors.NONE
                : keyType == CoordinatorType.TRANSACTION.id() ? Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
                : Errors.INVALID_REQUEST;
        if (error == Errors.NONE && (key == null || key.isEmpty())) {
            error = Errors.INVALID_REQUEST;
        }
        if (error != Errors.NONE) {
            return coordinator.setErrorCode(error.code()).setErrorMessage(error == Errors.INVALID_REQUEST
                    ? "only consumer groups with a non-empty id have a coordinator here" : "transactions are not implemented")
                    .setNodeId(-1).setHost("").setPort(-1);
        }
        return coordinator.setNodeId(broker.nodeId()).setHost(broker.host()).setPort(broker.port());
    }
}

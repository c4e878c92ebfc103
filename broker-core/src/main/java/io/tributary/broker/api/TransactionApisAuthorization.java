package io.tributary.broker.api;

import static org.apache.kafka.common.acl.AclOperation.CLUSTER_ACTION;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;

import java.util.function.UnaryOperator;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.message.AddOffsetsToTxnRequestData;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.message.DescribeTransactionsRequestData;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.message.ListTransactionsResponseData;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.resource.ResourceType;

/**
 * What the transaction APIs need, as Kafka checks it: WRITE on the transactional id for AddPartitionsToTxn (and
 * WRITE on each topic), AddOffsetsToTxn (and READ on the group), EndTxn and TxnOffsetCommit (and READ on the group
 * and each topic); CLUSTER_ACTION for the brokers' verify-only AddPartitionsToTxn (v4 and later); DESCRIBE on each
 * transactional id for DescribeTransactions, whose ListTransactions lists only those; READ on each topic for
 * DescribeProducers. A refusal fails the whole request with Kafka's error.
 */
final class TransactionApisAuthorization {

    private TransactionApisAuthorization() {
    }

    static UnaryOperator<ApiMessage> addPartitions(RequestAccess access, AddPartitionsToTxnRequestData request, short version) {
        if (version >= 4) {
            access.requireOnCluster(CLUSTER_ACTION);
            return RequestAccess.UNCHANGED;
        }
        requireTransactionalId(access, request.v3AndBelowTransactionalId());
        request.v3AndBelowTopics().forEach(topic -> requireTopic(access, WRITE, topic.name()));
        return RequestAccess.UNCHANGED;
    }

    static UnaryOperator<ApiMessage> addOffsets(RequestAccess access, AddOffsetsToTxnRequestData request) {
        requireTransactionalId(access, request.transactionalId());
        access.requireOnGroup(READ, request.groupId());
        return RequestAccess.UNCHANGED;
    }

    static UnaryOperator<ApiMessage> endTxn(RequestAccess access, EndTxnRequestData request) {
        requireTransactionalId(access, request.transactionalId());
        return RequestAccess.UNCHANGED;
    }

    static UnaryOperator<ApiMessage> txnOffsetCommit(RequestAccess access, TxnOffsetCommitRequestData request) {
        requireTransactionalId(access, request.transactionalId());
        access.requireOnGroup(READ, request.groupId());
        request.topics().forEach(topic -> requireTopic(access, READ, topic.name()));
        return RequestAccess.UNCHANGED;
    }

    static UnaryOperator<ApiMessage> describeTransactions(RequestAccess access, DescribeTransactionsRequestData request) {
        request.transactionalIds().forEach(id -> {
            if (!access.may(DESCRIBE, ResourceType.TRANSACTIONAL_ID, id)) {
                throw new TransactionalIdAuthorizationException("Not authorized to describe transactional id " + id);
            }
        });
        return RequestAccess.UNCHANGED;
    }

    static UnaryOperator<ApiMessage> listTransactions(RequestAccess access) {
        return message -> {
            ((ListTransactionsResponseData) message).transactionStates()
                    .removeIf(state -> !access.may(DESCRIBE, ResourceType.TRANSACTIONAL_ID, state.transactionalId()));
            return message;
        };
    }

    static UnaryOperator<ApiMessage> describeProducers(RequestAccess access, DescribeProducersRequestData request) {
        request.topics().forEach(topic -> requireTopic(access, READ, topic.name()));
        return RequestAccess.UNCHANGED;
    }

    private static void requireTransactionalId(RequestAccess access, String transactionalId) {
        if (!access.may(WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId)) {
            throw new TransactionalIdAuthorizationException("Not authorized to use transactional id " + transactionalId);
        }
    }

    private static void requireTopic(RequestAccess access, org.apache.kafka.common.acl.AclOperation operation, String topic) {
        if (!access.may(operation, ResourceType.TOPIC, topic)) {
            throw new TopicAuthorizationException("Not authorized to access topic: " + topic);
        }
    }
}

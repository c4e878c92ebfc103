package io.tributary.broker.api;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import io.tributary.broker.log.ProducerStateManager.ProducerView;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.txn.TransactionCoordinator;
import io.tributary.broker.txn.TransactionRecord;
import io.tributary.broker.txn.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.message.DescribeProducersResponseData;
import org.apache.kafka.common.message.DescribeTransactionsRequestData;
import org.apache.kafka.common.message.DescribeTransactionsResponseData;
import org.apache.kafka.common.message.ListTransactionsRequestData;
import org.apache.kafka.common.message.ListTransactionsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;

/**
 * What Kafka's {@code kafka-transactions} tool asks: ListTransactions and DescribeTransactions (of the ids this
 * broker coordinates) and DescribeProducers (of the partitions it leads, as their producer state has them).
 */
final class TransactionAdminHandler {
    private final TransactionCoordinator coordinator;
    private final ReplicaManager replicas;
    private final Time time;

    TransactionAdminHandler(TransactionCoordinator coordinator, ReplicaManager replicas, Time time) {
        this.coordinator = coordinator;
        this.replicas = replicas;
        this.time = time;
    }

    ListTransactionsResponseData list(ListTransactionsRequestData request) {
        ListTransactionsResponseData response = new ListTransactionsResponseData();
        Set<String> states = new HashSet<>();
        for (String filter : request.stateFilters()) {
            boolean known = false;
            for (TransactionState state : TransactionState.values()) {
                known |= state.displayName().equals(filter);
            }
            if (known) {
                states.add(filter);
            } else {
                response.unknownStateFilters().add(filter);
            }
        }
        Pattern idPattern;
        try {
            idPattern = request.transactionalIdPattern() == null || request.transactionalIdPattern().isEmpty()
                    ? null : Pattern.compile(request.transactionalIdPattern());
        } catch (PatternSyntaxException e) {
            return response.setErrorCode(Errors.INVALID_REGULAR_EXPRESSION.code());
        }
        long now = time.milliseconds();
        for (TransactionRecord txn : coordinator.all()) {
            boolean matches = (states.isEmpty() && request.stateFilters().isEmpty() || states.contains(txn.state().displayName()))
                    && (request.producerIdFilters().isEmpty() || request.producerIdFilters().contains(txn.producerId()))
                    && (request.durationFilter() < 0 || (txn.state() == TransactionState.ONGOING
                            && now - txn.startMs() >= request.durationFilter()))
                    && (idPattern == null || idPattern.matcher(txn.transactionalId()).matches());
            if (matches) {
                response.transactionStates().add(new ListTransactionsResponseData.TransactionState()
                        .setTransactionalId(txn.transactionalId()).setProducerId(txn.producerId())
                        .setTransactionState(txn.state().displayName()));
            }
        }
        return response;
    }

    DescribeTransactionsResponseData describe(DescribeTransactionsRequestData request) {
        DescribeTransactionsResponseData response = new DescribeTransactionsResponseData();
        Map<String, TransactionRecord> known = new TreeMap<>();
        coordinator.all().forEach(txn -> known.put(txn.transactionalId(), txn));
        for (String id : request.transactionalIds()) {
            DescribeTransactionsResponseData.TransactionState state = new DescribeTransactionsResponseData.TransactionState()
                    .setTransactionalId(id);
            Errors error = coordinator.coordinatorError(id);
            TransactionRecord txn = known.get(id);
            if (error == Errors.NONE && txn == null) {
                error = Errors.TRANSACTIONAL_ID_NOT_FOUND;
            }
            if (error != Errors.NONE) {
                response.transactionStates().add(state.setErrorCode(error.code()));
                continue;
            }
            Map<String, List<Integer>> byTopic = new TreeMap<>();
            txn.partitions().forEach(tp -> byTopic.computeIfAbsent(tp.topic(), t -> new java.util.ArrayList<>()).add(tp.partition()));
            DescribeTransactionsResponseData.TopicDataCollection topics = new DescribeTransactionsResponseData.TopicDataCollection();
            byTopic.forEach((topic, partitions) -> topics.add(new DescribeTransactionsResponseData.TopicData()
                    .setTopic(topic).setPartitions(partitions)));
            response.transactionStates().add(state.setTransactionState(txn.state().displayName())
                    .setTransactionTimeoutMs(txn.timeoutMs()).setTransactionStartTimeMs(txn.startMs())
                    .setProducerId(txn.producerId()).setProducerEpoch(txn.producerEpoch()).setTopics(topics));
        }
        return response;
    }

    DescribeProducersResponseData describeProducers(DescribeProducersRequestData request) {
        DescribeProducersResponseData response = new DescribeProducersResponseData();
        for (DescribeProducersRequestData.TopicRequest topic : request.topics()) {
            DescribeProducersResponseData.TopicResponse topicResponse = new DescribeProducersResponseData.TopicResponse()
                    .setName(topic.name());
            for (int index : topic.partitionIndexes()) {
                DescribeProducersResponseData.PartitionResponse partition = new DescribeProducersResponseData.PartitionResponse()
                        .setPartitionIndex(index);
                try {
                    for (ProducerView producer : replicas.activeProducers(new TopicPartition(topic.name(), index))) {
                        partition.activeProducers().add(new DescribeProducersResponseData.ProducerState()
                                .setProducerId(producer.producerId()).setProducerEpoch(producer.epoch())
                                .setLastSequence(producer.lastSequence()).setLastTimestamp(producer.lastWriteMs())
                                .setCoordinatorEpoch(producer.coordinatorEpoch())
                                .setCurrentTxnStartOffset(producer.currentTxnStartOffset()));
                    }
                } catch (RuntimeException e) {
                    partition.setErrorCode(Errors.forException(e).code()).setErrorMessage(e.getMessage());
                }
                topicResponse.partitions().add(partition);
            }
            response.topics().add(topicResponse);
        }
        return response;
    }
}

package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.group.OffsetStore;
import io.tributary.broker.txn.TransactionCoordinator;
import io.tributary.broker.txn.TransactionRecord;
import io.tributary.broker.txn.TransactionServices;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.AddOffsetsToTxnRequestData;
import org.apache.kafka.common.message.AddOffsetsToTxnResponseData;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnPartitionResult;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnPartitionResultCollection;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnResult;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnTopicResult;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnTopicResultCollection;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.message.EndTxnResponseData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.Errors;

/**
 * The transaction coordinator's APIs: InitProducerId with a transactional id, AddPartitionsToTxn (v0–3 from
 * producers, v4+ batched from brokers: the verify-only check of KIP-890, or the adding of a partition a producer of
 * transaction version 2 writes to), AddOffsetsToTxn (adds the group's {@code __consumer_offsets} partition) and EndTxn
 * (v5+: transaction version 2). Each answers once {@code __transaction_state} has the change.
 */
final class TransactionHandler {
    private static final short FIRST_BATCHED_ADD_PARTITIONS_VERSION = 4;
    private static final short FIRST_EPOCH_BUMPING_END_TXN_VERSION = 5;

    private final TransactionServices transactions;
    private final TransactionCoordinator coordinator;
    private final OffsetStore offsets;

    TransactionHandler(TransactionServices transactions, OffsetStore offsets) {
        this.transactions = transactions;
        this.coordinator = transactions.coordinator();
        this.offsets = offsets;
    }

    CompletableFuture<InitProducerIdResponseData> initProducerId(InitProducerIdRequestData request) {
        if (request.enable2Pc()) {
            return CompletableFuture.completedFuture(new InitProducerIdResponseData()
                    .setErrorCode(Errors.UNSUPPORTED_VERSION.code()).setProducerId(-1).setProducerEpoch((short) -1));
        }
        return coordinator.initProducerId(request.transactionalId(), request.transactionTimeoutMs(), request.producerId(),
                request.producerEpoch()).thenApply(result -> new InitProducerIdResponseData()
                .setErrorCode(result.error().code()).setProducerId(result.producerId()).setProducerEpoch(result.producerEpoch()));
    }

    CompletableFuture<AddPartitionsToTxnResponseData> addPartitions(AddPartitionsToTxnRequestData request, short version) {
        if (version < FIRST_BATCHED_ADD_PARTITIONS_VERSION) {
            Set<TopicPartition> added = partitions(request.v3AndBelowTopics());
            return coordinator.addPartitions(request.v3AndBelowTransactionalId(), request.v3AndBelowProducerId(),
                    request.v3AndBelowProducerEpoch(), added, (short) 0).thenApply(error -> new AddPartitionsToTxnResponseData()
                    .setResultsByTopicV3AndBelow(topicResults(added, error)));
        }
        List<CompletableFuture<AddPartitionsToTxnResult>> results = new ArrayList<>();
        for (AddPartitionsToTxnTransaction txn : request.transactions()) {
            Set<TopicPartition> asked = partitions(txn.topics());
            CompletableFuture<Map<TopicPartition, Errors>> outcome = txn.verifyOnly()
                    ? CompletableFuture.completedFuture(coordinator.verifyPartitions(txn.transactionalId(), txn.producerId(),
                            txn.producerEpoch(), asked))
                    // A broker adds partitions for producers of transaction version 2 only (KIP-890 part 2).
                    : coordinator.addPartitions(txn.transactionalId(), txn.producerId(), txn.producerEpoch(), asked,
                            TransactionRecord.EPOCH_BUMPING_VERSION).thenApply(error -> uniform(asked, error));
            results.add(outcome.thenApply(errors -> new AddPartitionsToTxnResult().setTransactionalId(txn.transactionalId())
                    .setTopicResults(topicResults(errors))));
        }
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).thenApply(done -> {
            AddPartitionsToTxnResponseData response = new AddPartitionsToTxnResponseData();
            results.forEach(result -> response.resultsByTransaction().add(result.join()));
            return response;
        });
    }

    CompletableFuture<AddOffsetsToTxnResponseData> addOffsets(AddOffsetsToTxnRequestData request) {
        TopicPartition offsetsPartition = new TopicPartition(OffsetStore.TOPIC, offsets.partitionFor(request.groupId()));
        offsets.ensureTopic();
        return coordinator.addPartitions(request.transactionalId(), request.producerId(), request.producerEpoch(),
                Set.of(offsetsPartition), (short) 0).thenApply(error -> new AddOffsetsToTxnResponseData().setErrorCode(error.code()));
    }

    /** EndTxn; from v5 on (transaction version 2) the answer names the producer id and epoch to go on with. */
    CompletableFuture<EndTxnResponseData> endTransaction(EndTxnRequestData request, short version) {
        return coordinator.endTransaction(request.transactionalId(), request.producerId(), request.producerEpoch(),
                request.committed(), version >= FIRST_EPOCH_BUMPING_END_TXN_VERSION).thenApply(result -> new EndTxnResponseData()
                .setErrorCode(result.error().code()).setProducerId(result.producerId()).setProducerEpoch(result.producerEpoch()));
    }

    private static Set<TopicPartition> partitions(Iterable<AddPartitionsToTxnTopic> topics) {
        Set<TopicPartition> partitions = new HashSet<>();
        topics.forEach(topic -> topic.partitions().forEach(p -> partitions.add(new TopicPartition(topic.name(), p))));
        return partitions;
    }

    private static Map<TopicPartition, Errors> uniform(Set<TopicPartition> partitions, Errors error) {
        Map<TopicPartition, Errors> errors = new java.util.HashMap<>();
        partitions.forEach(partition -> errors.put(partition, error));
        return errors;
    }

    private static AddPartitionsToTxnTopicResultCollection topicResults(Set<TopicPartition> partitions, Errors error) {
        return topicResults(uniform(partitions, error));
    }

    private static AddPartitionsToTxnTopicResultCollection topicResults(Map<TopicPartition, Errors> errors) {
        AddPartitionsToTxnTopicResultCollection topics = new AddPartitionsToTxnTopicResultCollection();
        errors.forEach((partition, error) -> {
            AddPartitionsToTxnTopicResult topic = topics.find(partition.topic());
            if (topic == null) {
                topic = new AddPartitionsToTxnTopicResult().setName(partition.topic())
                        .setResultsByPartition(new AddPartitionsToTxnPartitionResultCollection());
                topics.add(topic);
            }
            topic.resultsByPartition().add(new AddPartitionsToTxnPartitionResult()
                    .setPartitionIndex(partition.partition()).setPartitionErrorCode(error.code()));
        });
        return topics;
    }
}

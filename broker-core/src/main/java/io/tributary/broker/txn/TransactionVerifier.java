package io.tributary.broker.txn;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.IntFunction;
import io.tributary.broker.controller.ClusterView;
import io.tributary.broker.coordinator.CoordinatorLoader;
import io.tributary.broker.replica.BrokerChannels;
import io.tributary.broker.replica.BrokerConnector;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTransactionCollection;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The partition leader's half of KIP-890: before a transactional write opens a producer's transaction on a partition,
 * the transaction's coordinator either confirms that the partition is in it (part 1, producers of transaction version
 * 0 or 1, which added it themselves: the verify-only AddPartitionsToTxn) or adds it (part 2, producers of version 2,
 * which leave adding to the leader). Asked of this broker's own coordinator directly, or of another broker over the
 * inter-broker listener (AddPartitionsToTxn v5) on one thread of its own. Per partition NONE, or why not.
 */
public final class TransactionVerifier implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TransactionVerifier.class);
    static final short VERSION = 5;

    private final int localId;
    private final TransactionCoordinator coordinator;
    private final Function<String, Integer> statePartitions;
    private final Function<TopicPartition, OptionalInt> leaders;
    private final BrokerChannels channels;
    private final ExecutorService remote = Executors.newSingleThreadExecutor(CoordinatorLoader.daemon("tributary-txn-verifier"));

    TransactionVerifier(int localId, TransactionCoordinator coordinator, Function<String, Integer> statePartitions,
                        Function<TopicPartition, OptionalInt> leaders, IntFunction<Optional<ClusterView.Endpoint>> brokers,
                        BrokerConnector connector) {
        this.localId = localId;
        this.coordinator = coordinator;
        this.statePartitions = statePartitions;
        this.leaders = leaders;
        this.channels = new BrokerChannels(brokers, connector, "txn-verifier-" + localId);
    }

    /** Whether each of {@code partitions} is in the open transaction of {@code producerId} at {@code producerEpoch}. */
    public CompletableFuture<Map<TopicPartition, Errors>> verify(String transactionalId, long producerId,
                                                                 short producerEpoch, Set<TopicPartition> partitions) {
        return ask(false, transactionalId, producerId, producerEpoch, partitions);
    }

    /**
     * Adds {@code partitions} to the transaction of {@code producerId} at {@code producerEpoch}, which begins if none is
     * open (a producer of transaction version 2): NONE per partition once the coordinator has them.
     */
    public CompletableFuture<Map<TopicPartition, Errors>> add(String transactionalId, long producerId,
                                                              short producerEpoch, Set<TopicPartition> partitions) {
        return ask(true, transactionalId, producerId, producerEpoch, partitions);
    }

    private CompletableFuture<Map<TopicPartition, Errors>> ask(boolean add, String transactionalId, long producerId,
                                                               short producerEpoch, Set<TopicPartition> partitions) {
        OptionalInt leader = leaders.apply(new TopicPartition(Topic.TRANSACTION_STATE_TOPIC_NAME,
                statePartitions.apply(transactionalId)));
        if (leader.isEmpty()) {
            return CompletableFuture.completedFuture(uniform(partitions, Errors.COORDINATOR_NOT_AVAILABLE));
        }
        if (leader.getAsInt() == localId) {
            return add ? coordinator.addPartitions(transactionalId, producerId, producerEpoch, partitions,
                            TransactionRecord.EPOCH_BUMPING_VERSION).thenApply(error -> uniform(partitions, error))
                    : CompletableFuture.completedFuture(coordinator.verifyPartitions(transactionalId, producerId,
                            producerEpoch, partitions));
        }
        return CompletableFuture.supplyAsync(() -> askBroker(leader.getAsInt(), add, transactionalId, producerId,
                producerEpoch, partitions), remote);
    }

    private Map<TopicPartition, Errors> askBroker(int brokerId, boolean add, String transactionalId, long producerId,
                                                  short producerEpoch, Set<TopicPartition> partitions) {
        AddPartitionsToTxnTopicCollection topics = new AddPartitionsToTxnTopicCollection();
        partitions.forEach(tp -> {
            AddPartitionsToTxnTopic topic = topics.find(tp.topic());
            if (topic == null) {
                topic = new AddPartitionsToTxnTopic().setName(tp.topic());
                topics.add(topic);
            }
            topic.partitions().add(tp.partition());
        });
        AddPartitionsToTxnTransactionCollection transactions = new AddPartitionsToTxnTransactionCollection();
        transactions.add(new AddPartitionsToTxnTransaction().setTransactionalId(transactionalId).setProducerId(producerId)
                .setProducerEpoch(producerEpoch).setVerifyOnly(!add).setTopics(topics));
        AddPartitionsToTxnResponseData response;
        try {
            response = (AddPartitionsToTxnResponseData) channels.send(brokerId, ApiKeys.ADD_PARTITIONS_TO_TXN, VERSION,
                    new AddPartitionsToTxnRequestData().setTransactions(transactions));
        } catch (IOException e) {
            log.debug("cannot {} the transaction of {} with broker {}: {}", add ? "add to" : "verify", transactionalId,
                    brokerId, e.getMessage());
            return uniform(partitions, Errors.COORDINATOR_NOT_AVAILABLE);
        }
        AddPartitionsToTxnResult result = response.resultsByTransaction().find(transactionalId);
        if (response.errorCode() != Errors.NONE.code() || result == null) {
            Errors error = Errors.forCode(response.errorCode());
            return uniform(partitions, error == Errors.NONE ? Errors.UNKNOWN_SERVER_ERROR : error);
        }
        Map<TopicPartition, Errors> errors = uniform(partitions, Errors.UNKNOWN_SERVER_ERROR);
        result.topicResults().forEach(topic -> topic.resultsByPartition().forEach(p -> errors.replace(
                new TopicPartition(topic.name(), p.partitionIndex()), Errors.forCode(p.partitionErrorCode()))));
        return errors;
    }

    private static Map<TopicPartition, Errors> uniform(Set<TopicPartition> partitions, Errors error) {
        Map<TopicPartition, Errors> errors = new HashMap<>();
        partitions.forEach(partition -> errors.put(partition, error));
        return errors;
    }

    @Override
    public void close() {
        remote.shutdownNow();
        channels.close();
    }
}

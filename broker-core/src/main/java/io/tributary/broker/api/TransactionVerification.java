package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.log.VerificationGuard;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.txn.TransactionVerifier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * The KIP-890 check of one produce request, as a partition leader makes it: each partition whose batches would open
 * their producer's transaction here (it has none open on this partition) gets a {@link VerificationGuard} from its
 * producer state, and the transaction's coordinator is asked, once per producer, whether those partitions are in
 * the producer's open transaction. A partition the coordinator does not confirm is refused (INVALID_TXN_STATE, or
 * the producer's fencing error); the coordinator's transient errors become NOT_ENOUGH_REPLICAS, which producers of
 * every version retry, as Kafka maps them. Partitions whose transaction is open here need no question, nor do
 * batches of an epoch older than one the partition has seen (the append refuses them as fenced).
 */
final class TransactionVerification {
    private final CompletableFuture<Outcome> result;

    /** Per partition: the error that refuses it, or the guard its append must carry (none for plain batches). */
    record Outcome(Map<TopicPartition, Errors> errors, Map<TopicPartition, VerificationGuard> guards) {
        Optional<Errors> error(TopicPartition partition) {
            return Optional.ofNullable(errors.get(partition));
        }

        VerificationGuard guard(TopicPartition partition) {
            return guards.get(partition);
        }
    }

    private record Producer(long producerId, short epoch) {
    }

    private TransactionVerification(CompletableFuture<Outcome> result) {
        this.result = result;
    }

    static TransactionVerification start(String transactionalId, List<Map.Entry<TopicPartition, MemoryRecords>> partitions,
                                         ReplicaManager replicas, TransactionVerifier verifier) {
        Map<TopicPartition, Errors> errors = new HashMap<>();
        Map<TopicPartition, VerificationGuard> guards = new HashMap<>();
        Map<Producer, Set<TopicPartition>> toVerify = new HashMap<>();
        for (Map.Entry<TopicPartition, MemoryRecords> entry : partitions) {
            TopicPartition partition = entry.getKey();
            RecordBatch first = firstBatch(entry.getValue());
            if (first == null || !first.isTransactional()) {
                continue;
            }
            if (transactionalId == null) {
                errors.put(partition, Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED); // as Kafka: no id, no transaction
                continue;
            }
            VerificationGuard guard;
            try {
                guard = replicas.startVerification(partition, first.producerId(), first.producerEpoch());
            } catch (RuntimeException e) {
                continue; // not the leader, or unknown: the append reports it
            }
            guards.put(partition, guard);
            if (guard.needsVerification()) {
                toVerify.computeIfAbsent(new Producer(first.producerId(), first.producerEpoch()), p -> new java.util.HashSet<>())
                        .add(partition);
            }
        }
        if (toVerify.isEmpty()) {
            return new TransactionVerification(CompletableFuture.completedFuture(new Outcome(errors, guards)));
        }
        List<CompletableFuture<Map<TopicPartition, Errors>>> asks = new ArrayList<>();
        toVerify.forEach((producer, asked) -> asks.add(verifier.verify(transactionalId, producer.producerId(),
                producer.epoch(), asked).exceptionally(e -> uniform(asked, Errors.COORDINATOR_NOT_AVAILABLE))));
        return new TransactionVerification(CompletableFuture.allOf(asks.toArray(CompletableFuture[]::new)).thenApply(done -> {
            asks.forEach(ask -> ask.join().forEach((partition, error) -> {
                if (error != Errors.NONE) {
                    errors.put(partition, forProducer(error));
                }
            }));
            return new Outcome(errors, guards);
        }));
    }

    /** The first batch, or null if there is none or the bytes are not batches (the append's validation says why). */
    private static RecordBatch firstBatch(MemoryRecords records) {
        try {
            return records.firstBatch();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static Errors forProducer(Errors error) {
        return switch (error) {
            case COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS, NOT_COORDINATOR, CONCURRENT_TRANSACTIONS ->
                    Errors.NOT_ENOUGH_REPLICAS;
            default -> error;
        };
    }

    private static Map<TopicPartition, Errors> uniform(Set<TopicPartition> partitions, Errors error) {
        Map<TopicPartition, Errors> uniform = new HashMap<>();
        partitions.forEach(partition -> uniform.put(partition, error));
        return uniform;
    }

    boolean isDone() {
        return result.isDone();
    }

    CompletableFuture<Outcome> result() {
        return result;
    }
}

package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.log.VerificationGuard;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.txn.TransactionVerifier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * The KIP-890 check of one produce request, as a partition leader makes it: each partition whose batches would open
 * their producer's transaction here (it has none open on this partition at the batch's epoch) gets a
 * {@link VerificationGuard} from its producer state, and the transaction's coordinator is asked, once per producer,
 * whether those partitions are in the producer's open transaction ({@link Mode#VERIFY}, producers of transaction
 * version 0 and 1, which added them themselves), or to add them ({@link Mode#ADD}, producers of version 2: Produce
 * v12 and later). A partition the coordinator does not confirm is refused (INVALID_TXN_STATE, or the producer's
 * fencing error); the coordinator's transient errors become NOT_ENOUGH_REPLICAS, which producers of every version
 * retry, as Kafka maps them. When adding, CONCURRENT_TRANSACTIONS (the producer's previous transaction is still
 * being completed: a producer of version 2 begins the next one as soon as EndTxn answers) is asked again here a few
 * times, {@value #ADD_RETRY_BACKOFF_MS} ms apart, before the producer is told to retry. Partitions whose transaction
 * is open here need no question, nor do batches of an epoch older than one the partition has seen (the append refuses
 * them as fenced).
 */
final class TransactionVerification {
    /** Kafka's add.partitions.to.txn.retry.backoff.ms and .max.ms defaults: 20 ms apart, for 100 ms. */
    static final long ADD_RETRY_BACKOFF_MS = 20;
    static final int ADD_ATTEMPTS = 5;
    private static final Executor RETRY_DELAY = CompletableFuture.delayedExecutor(ADD_RETRY_BACKOFF_MS, TimeUnit.MILLISECONDS);

    /** What the coordinator is asked for a partition a transactional batch would open its transaction on. */
    enum Mode {
        /** Nothing: transaction.partition.verification.enable is off (producers of version 0 and 1 only). */
        NONE,
        /** Whether the producer added the partition to its transaction. */
        VERIFY,
        /** To add the partition to the producer's transaction (transaction version 2). */
        ADD;

        static Mode of(short produceVersion, boolean verificationEnabled) {
            return produceVersion >= FIRST_ADDING_PRODUCE_VERSION ? ADD : verificationEnabled ? VERIFY : NONE;
        }
    }

    /** Produce v12: the producer speaks transaction version 2 and leaves adding its partitions to their leaders. */
    static final short FIRST_ADDING_PRODUCE_VERSION = 12;

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
                                         ReplicaManager replicas, TransactionVerifier verifier, Mode mode) {
        Map<TopicPartition, Errors> errors = new HashMap<>();
        Map<TopicPartition, RecordBatch> opening = new HashMap<>();
        for (Map.Entry<TopicPartition, MemoryRecords> entry : partitions) {
            RecordBatch first = firstBatch(entry.getValue());
            if (first == null || !first.isTransactional()) {
                continue;
            }
            if (transactionalId == null) {
                errors.put(entry.getKey(), Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED); // as Kafka: no id, no transaction
            } else if (mode != Mode.NONE) {
                opening.put(entry.getKey(), first);
            }
        }
        Outcome outcome = new Outcome(errors, new HashMap<>());
        if (opening.isEmpty()) {
            return new TransactionVerification(CompletableFuture.completedFuture(outcome));
        }
        return new TransactionVerification(ask(transactionalId, opening, replicas, verifier, mode, outcome, 1));
    }

    /** Takes the guards of {@code opening}, asks the coordinator, and asks again what is still CONCURRENT_TRANSACTIONS. */
    private static CompletableFuture<Outcome> ask(String transactionalId, Map<TopicPartition, RecordBatch> opening,
                                                  ReplicaManager replicas, TransactionVerifier verifier, Mode mode,
                                                  Outcome outcome, int attempt) {
        Map<Producer, Set<TopicPartition>> toAsk = new HashMap<>();
        opening.forEach((partition, first) -> {
            VerificationGuard guard;
            try {
                guard = replicas.startVerification(partition, first.producerId(), first.producerEpoch(), mode == Mode.ADD);
            } catch (RuntimeException e) {
                return; // not the leader, or unknown: the append reports it
            }
            outcome.guards().put(partition, guard);
            if (guard.needsVerification()) {
                toAsk.computeIfAbsent(new Producer(first.producerId(), first.producerEpoch()), p -> new HashSet<>()).add(partition);
            }
        });
        if (toAsk.isEmpty()) {
            return CompletableFuture.completedFuture(outcome);
        }
        List<CompletableFuture<Map<TopicPartition, Errors>>> asks = new ArrayList<>();
        toAsk.forEach((producer, asked) -> asks.add((mode == Mode.ADD
                ? verifier.add(transactionalId, producer.producerId(), producer.epoch(), asked)
                : verifier.verify(transactionalId, producer.producerId(), producer.epoch(), asked))
                .exceptionally(e -> uniform(asked, Errors.COORDINATOR_NOT_AVAILABLE))));
        return CompletableFuture.allOf(asks.toArray(CompletableFuture[]::new)).thenCompose(done -> {
            Map<TopicPartition, RecordBatch> again = new HashMap<>();
            asks.forEach(ask -> ask.join().forEach((partition, error) -> {
                if (error == Errors.CONCURRENT_TRANSACTIONS && mode == Mode.ADD && attempt < ADD_ATTEMPTS) {
                    again.put(partition, opening.get(partition));
                } else if (error != Errors.NONE) {
                    outcome.errors().put(partition, forProducer(error, mode));
                }
            }));
            if (again.isEmpty()) {
                return CompletableFuture.completedFuture(outcome);
            }
            return CompletableFuture.supplyAsync(() -> again, RETRY_DELAY).thenCompose(retried ->
                    ask(transactionalId, retried, replicas, verifier, mode, outcome, attempt + 1));
        });
    }

    /** The first batch, or null if there is none or the bytes are not batches (the append's validation says why). */
    private static RecordBatch firstBatch(MemoryRecords records) {
        try {
            return records.firstBatch();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** A coordinator's error as the producer must get it, as Kafka translates it. */
    static Errors forProducer(Errors error, Mode mode) {
        return switch (error) {
            case COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS, NOT_COORDINATOR, NETWORK_EXCEPTION -> Errors.NOT_ENOUGH_REPLICAS;
            // Producers of version 2 meet it whenever they begin a transaction while the last one completes: they retry it.
            case CONCURRENT_TRANSACTIONS -> mode == Mode.ADD ? error : Errors.NOT_ENOUGH_REPLICAS;
            case PRODUCER_FENCED -> Errors.INVALID_PRODUCER_EPOCH; // what producers expect from a partition leader
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

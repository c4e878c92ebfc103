package io.tributary.broker.api;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.api.TopicLookup.Found;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.log.LogAppendInfo;
import io.tributary.broker.log.VerificationGuard;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.txn.TransactionVerifier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceRequestData.PartitionProduceData;
import org.apache.kafka.common.message.ProduceRequestData.TopicProduceData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.ProduceResponseData.PartitionProduceResponse;
import org.apache.kafka.common.message.ProduceResponseData.TopicProduceResponse;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.requests.ProduceRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Produce: validates and appends each partition's batches as received, through the replica
 * manager (which leads the partition or refuses). acks=1 answers after the leader's append;
 * acks=-1 waits until the ISR has the records, or fails the partition with the replication error;
 * acks=0 gets no response at all. A partition's error never affects the others in the request.
 * Internal topics are refused (INVALID_TOPIC_EXCEPTION, as in Kafka): only the broker writes them.
 * Transactional batches that would open their producer's transaction on a partition are appended only once the
 * transaction's coordinator has confirmed that the partition is in it, or (Produce v12+, transaction version 2) has
 * added it ({@link TransactionVerification}, KIP-890).
 */
final class ProduceHandler {
    private static final Logger log = LoggerFactory.getLogger(ProduceHandler.class);
    private static final short FIRST_VERSION_BY_TOPIC_ID = 13;

    private final TopicLookup lookup;
    private final ReplicaManager replicas;
    private final TransactionVerifier verifier;
    private final boolean verificationEnabled;

    /** @param verificationEnabled transaction.partition.verification.enable (see {@link TransactionVerification.Mode}) */
    ProduceHandler(TopicManager topics, ReplicaManager replicas, TransactionVerifier verifier, boolean verificationEnabled) {
        this.lookup = new TopicLookup(topics);
        this.replicas = replicas;
        this.verifier = verifier;
        this.verificationEnabled = verificationEnabled;
    }

    /** A partition to append to, and where its response goes. */
    private record Pending(TopicPartition partition, PartitionProduceData data, List<PartitionProduceResponse> responses,
                           int slot) {
    }

    /** @return the response; for acks=0 the dispatcher only looks for errors in it (see {@link #failedWithoutAnswer}) */
    CompletableFuture<ProduceResponseData> handle(ProduceRequestData request, short version) {
        boolean byId = version >= FIRST_VERSION_BY_TOPIC_ID;
        Errors requestError = requestError(request);
        ProduceResponseData response = new ProduceResponseData();
        List<Pending> pending = new ArrayList<>();
        for (TopicProduceData topicData : request.topicData()) {
            Found found = lookup.find(topicData.name(), topicData.topicId(), byId);
            List<PartitionProduceResponse> partitions = new ArrayList<>();
            for (PartitionProduceData partitionData : topicData.partitionData()) {
                if (requestError != Errors.NONE || found.topic().isEmpty()) {
                    partitions.add(error(partitionData.index(), requestError != Errors.NONE ? requestError : found.error(), null));
                    continue;
                }
                if (Topic.isInternal(found.topic().get().name())) {
                    // Only the broker writes its internal topics: a forged offset commit would apply on the next load.
                    partitions.add(error(partitionData.index(), Errors.INVALID_TOPIC_EXCEPTION,
                            "Cannot append to internal topic " + found.topic().get().name()));
                    continue;
                }
                TopicPartition partition = new TopicPartition(found.topic().get().name(), partitionData.index());
                pending.add(new Pending(partition, partitionData, partitions, partitions.size()));
                partitions.add(null); // filled once appended
            }
            response.responses().add(new TopicProduceResponse()
                    .setName(byId ? "" : topicData.name())
                    .setTopicId(topicData.topicId())
                    .setPartitionResponses(partitions));
        }
        TransactionVerification verification = TransactionVerification.start(request.transactionalId(), pending.stream()
                .map(p -> Map.entry(p.partition(), (MemoryRecords) p.data().records())).toList(), replicas, verifier,
                TransactionVerification.Mode.of(version, verificationEnabled));
        if (!verification.isDone()) {
            // Appended after this handler returns, when the request's buffer may be reused: copy the records out.
            pending.forEach(p -> p.data().setRecords(copyOf((MemoryRecords) p.data().records())));
        }
        return verification.result().thenCompose(verified -> appendAll(pending, verified, request, version, response));
    }

    private CompletableFuture<ProduceResponseData> appendAll(List<Pending> pending, TransactionVerification.Outcome verified,
                                                             ProduceRequestData request, short version,
                                                             ProduceResponseData response) {
        Map<TopicPartition, Long> awaited = new HashMap<>();
        Map<TopicPartition, PartitionProduceResponse> appended = new HashMap<>();
        for (Pending p : pending) {
            Optional<Errors> refused = verified.error(p.partition());
            Appended result = refused.isPresent()
                    ? new Appended(error(p.data().index(), refused.get(), "The transaction's coordinator did not confirm "
                    + "that it holds this partition: " + refused.get().message()), -1)
                    : append(p.partition(), p.data(), request.acks(), version, verified.guard(p.partition()));
            p.responses().set(p.slot(), result.response());
            if (result.nextOffset() >= 0) {
                awaited.put(p.partition(), result.nextOffset());
                appended.put(p.partition(), result.response());
            }
        }
        if (request.acks() != -1 || awaited.isEmpty()) { // acks=0: the dispatcher sends nothing, or closes on an error
            return CompletableFuture.completedFuture(response);
        }
        return replicas.awaitReplication(awaited, request.timeoutMs()).thenApply(errors -> {
            errors.forEach((partition, error) -> {
                if (error != Errors.NONE) {
                    appended.get(partition).setErrorCode(error.code()).setErrorMessage(error.message());
                }
            });
            return response;
        });
    }

    private static MemoryRecords copyOf(MemoryRecords records) {
        ByteBuffer copy = ByteBuffer.allocate(records.sizeInBytes());
        copy.put(records.buffer().duplicate()).flip();
        return MemoryRecords.readableRecords(copy);
    }

    /**
     * Whether an acks=0 produce failed somewhere: such a client reads no response, so Kafka closes its
     * connection instead, the only way it can learn that its records were refused.
     */
    static boolean failedWithoutAnswer(ProduceRequestData request, ProduceResponseData response) {
        return request.acks() == 0 && response.responses().stream().flatMap(topic -> topic.partitionResponses().stream())
                .anyMatch(partition -> partition.errorCode() != Errors.NONE.code());
    }

    /** A partition's response and, after a successful append, the offset that follows it (-1 otherwise). */
    private record Appended(PartitionProduceResponse response, long nextOffset) {
    }

    private static Errors requestError(ProduceRequestData request) {
        short acks = request.acks();
        if (acks != 0 && acks != 1 && acks != -1) {
            return Errors.INVALID_REQUIRED_ACKS;
        }
        return Errors.NONE;
    }

    private Appended append(TopicPartition partition, PartitionProduceData data, short acks, short version,
                            VerificationGuard guard) {
        try {
            ProduceRequest.validateRecords(version, data.records());
            MemoryRecords records = (MemoryRecords) data.records();
            LogAppendInfo info = guard == null ? replicas.appendAsLeader(partition, records, acks)
                    : replicas.appendVerified(partition, records, acks, guard);
            replicas.topicStats().recordProduced(partition.topic(), info.recordCount(), data.records().sizeInBytes());
            PartitionProduceResponse response = new PartitionProduceResponse()
                    .setIndex(data.index())
                    .setBaseOffset(info.firstOffset())
                    .setLogAppendTimeMs(info.logAppendTime())
                    .setLogStartOffset(replicas.logStartOffset(partition));
            return new Appended(response, info.lastOffset() < 0 ? -1 : info.lastOffset() + 1);
        } catch (RuntimeException e) {
            Errors error = Errors.forException(e);
            if (error == Errors.UNKNOWN_SERVER_ERROR) {
                log.error("append to {} failed", partition, e);
            } else {
                log.debug("append to {} rejected: {}", partition, e.getMessage());
            }
            return new Appended(error(data.index(), error, e.getMessage()), -1);
        }
    }

    static PartitionProduceResponse error(int partition, Errors error, String message) {
        return new PartitionProduceResponse()
                .setIndex(partition)
                .setErrorCode(error.code())
                .setErrorMessage(message)
                .setBaseOffset(-1)
                .setLogAppendTimeMs(-1)
                .setLogStartOffset(-1);
    }
}

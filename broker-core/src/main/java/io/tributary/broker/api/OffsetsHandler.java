package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.ToIntFunction;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.cluster.TopicManager.TopicState;
import io.tributary.broker.group.CommittedOffset;
import io.tributary.broker.group.OffsetCommit;
import io.tributary.broker.group.OffsetManager;
import io.tributary.broker.group.OffsetStore;
import io.tributary.broker.txn.TransactionVerifier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitRequestData.OffsetCommitRequestPartition;
import org.apache.kafka.common.message.OffsetCommitRequestData.OffsetCommitRequestTopic;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.message.OffsetCommitResponseData.OffsetCommitResponsePartition;
import org.apache.kafka.common.message.OffsetCommitResponseData.OffsetCommitResponseTopic;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetDeleteResponseData;
import org.apache.kafka.common.message.OffsetDeleteResponseData.OffsetDeleteResponsePartition;
import org.apache.kafka.common.message.OffsetDeleteResponseData.OffsetDeleteResponseTopic;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData.OffsetFetchRequestGroup;
import org.apache.kafka.common.message.OffsetFetchRequestData.OffsetFetchRequestTopics;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.message.OffsetFetchResponseData.OffsetFetchResponseGroup;
import org.apache.kafka.common.message.OffsetFetchResponseData.OffsetFetchResponsePartition;
import org.apache.kafka.common.message.OffsetFetchResponseData.OffsetFetchResponsePartitions;
import org.apache.kafka.common.message.OffsetFetchResponseData.OffsetFetchResponseTopic;
import org.apache.kafka.common.message.OffsetFetchResponseData.OffsetFetchResponseTopics;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic;
import org.apache.kafka.common.message.TxnOffsetCommitResponseData;
import org.apache.kafka.common.message.TxnOffsetCommitResponseData.TxnOffsetCommitResponsePartition;
import org.apache.kafka.common.message.TxnOffsetCommitResponseData.TxnOffsetCommitResponseTopic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.OffsetFetchResponse;

/**
 * OffsetCommit, TxnOffsetCommit, OffsetFetch and OffsetDelete. Topics are named (or, from OffsetCommit and
 * OffsetFetch v10, identified by topic id); partitions of unknown topics get an error and are
 * never stored. OffsetFetch v8+ batches several groups in one request.
 */
final class OffsetsHandler {
    private static final short FIRST_VERSION_BY_TOPIC_ID = 10;
    private static final short FIRST_FETCH_VERSION_WITH_GROUPS = 8;

    /** TxnOffsetCommit v5: the producer speaks transaction version 2 and leaves adding the offsets partition to us. */
    private static final short FIRST_ADDING_TXN_OFFSET_COMMIT_VERSION = 5;

    private final TopicManager topics;
    private final OffsetManager offsets;
    private final TransactionVerifier transactions;
    private final ToIntFunction<String> offsetsPartitionOf;

    /**
     * @param transactions       adds a group's offsets partition to the transaction of a TxnOffsetCommit v5+
     * @param offsetsPartitionOf the {@code __consumer_offsets} partition of a group
     */
    OffsetsHandler(TopicManager topics, OffsetManager offsets, TransactionVerifier transactions,
                   ToIntFunction<String> offsetsPartitionOf) {
        this.topics = topics;
        this.offsets = offsets;
        this.transactions = transactions;
        this.offsetsPartitionOf = offsetsPartitionOf;
    }

    /** The topic a request names, or the error for it. */
    private record ResolvedTopic(Optional<TopicState> topic, Errors error) {
        boolean hasPartition(int partition) {
            return topic.isPresent() && partition >= 0 && partition < topic.get().partitionCount();
        }
    }

    private ResolvedTopic resolve(String name, Uuid id, boolean byId) {
        Optional<TopicState> topic = byId ? topics.topic(id) : topics.topic(name);
        Errors error = topic.isPresent() ? Errors.NONE : byId ? Errors.UNKNOWN_TOPIC_ID : Errors.UNKNOWN_TOPIC_OR_PARTITION;
        return new ResolvedTopic(topic, error);
    }

    // ---- OffsetCommit

    /** Completes once the commit is replicated (or failed). */
    CompletableFuture<OffsetCommitResponseData> commit(OffsetCommitRequestData request, short version) {
        boolean byId = version >= FIRST_VERSION_BY_TOPIC_ID;
        Map<TopicPartition, OffsetCommit.Position> positions = new LinkedHashMap<>();
        Map<TopicPartition, Errors> rejected = new HashMap<>();
        for (OffsetCommitRequestTopic topic : request.topics()) {
            ResolvedTopic resolved = resolve(topic.name(), topic.topicId(), byId);
            String name = resolved.topic().map(TopicState::name).orElse(topic.name());
            for (OffsetCommitRequestPartition partition : topic.partitions()) {
                TopicPartition tp = new TopicPartition(name, partition.partitionIndex());
                if (resolved.hasPartition(partition.partitionIndex())) {
                    positions.put(tp, new OffsetCommit.Position(partition.committedOffset(),
                            partition.committedLeaderEpoch(), partition.committedMetadata()));
                } else {
                    rejected.put(tp, resolved.topic().isPresent() ? Errors.UNKNOWN_TOPIC_OR_PARTITION : resolved.error());
                }
            }
        }
        CompletableFuture<Map<TopicPartition, Errors>> committed = positions.isEmpty()
                ? CompletableFuture.completedFuture(Map.of())
                : offsets.commit(new OffsetCommit(request.groupId(), request.memberId(), request.groupInstanceId(),
                        request.generationIdOrMemberEpoch(), positions));
        return committed.thenApply(results -> commitResponse(request, byId, rejected, results));
    }

    private OffsetCommitResponseData commitResponse(OffsetCommitRequestData request, boolean byId, Map<TopicPartition, Errors> rejected,
                                                    Map<TopicPartition, Errors> results) {
        OffsetCommitResponseData response = new OffsetCommitResponseData();
        for (OffsetCommitRequestTopic topic : request.topics()) {
            String name = resolve(topic.name(), topic.topicId(), byId).topic().map(TopicState::name).orElse(topic.name());
            OffsetCommitResponseTopic topicResponse = new OffsetCommitResponseTopic().setName(topic.name()).setTopicId(topic.topicId());
            for (OffsetCommitRequestPartition partition : topic.partitions()) {
                TopicPartition tp = new TopicPartition(name, partition.partitionIndex());
                Errors error = rejected.getOrDefault(tp, results.getOrDefault(tp, Errors.NONE));
                topicResponse.partitions().add(new OffsetCommitResponsePartition()
                        .setPartitionIndex(partition.partitionIndex()).setErrorCode(error.code()));
            }
            response.topics().add(topicResponse);
        }
        return response;
    }

    // ---- TxnOffsetCommit

    /**
     * A transaction's offset commits: completes once appended (they count at the transaction's COMMIT marker). From v5
     * on (transaction version 2) the group's offsets partition is first added to the transaction, as Kafka does; until
     * the transaction coordinator has it, every partition gets the (retriable, or fencing) error.
     */
    CompletableFuture<TxnOffsetCommitResponseData> commitTransactional(TxnOffsetCommitRequestData request, short version) {
        if (version < FIRST_ADDING_TXN_OFFSET_COMMIT_VERSION || request.groupId() == null || request.groupId().isEmpty()) {
            return commitTransactional(request, Errors.NONE);
        }
        TopicPartition offsetsPartition = new TopicPartition(OffsetStore.TOPIC, offsetsPartitionOf.applyAsInt(request.groupId()));
        return transactions.add(request.transactionalId(), request.producerId(), request.producerEpoch(), Set.of(offsetsPartition))
                .exceptionally(e -> Map.of(offsetsPartition, Errors.COORDINATOR_NOT_AVAILABLE))
                .thenCompose(added -> commitTransactional(request, TransactionVerification.forProducer(
                        added.getOrDefault(offsetsPartition, Errors.UNKNOWN_SERVER_ERROR), TransactionVerification.Mode.ADD)));
    }

    /** @param refusal NONE, or the error every partition gets without an append */
    private CompletableFuture<TxnOffsetCommitResponseData> commitTransactional(TxnOffsetCommitRequestData request,
                                                                               Errors refusal) {
        Map<TopicPartition, OffsetCommit.Position> positions = new LinkedHashMap<>();
        Map<TopicPartition, Errors> rejected = new HashMap<>();
        for (TxnOffsetCommitRequestTopic topic : request.topics()) {
            ResolvedTopic resolved = resolve(topic.name(), topic.topicId(), false);
            for (TxnOffsetCommitRequestPartition partition : topic.partitions()) {
                TopicPartition tp = new TopicPartition(topic.name(), partition.partitionIndex());
                if (refusal != Errors.NONE) {
                    rejected.put(tp, refusal);
                } else if (resolved.hasPartition(partition.partitionIndex())) {
                    positions.put(tp, new OffsetCommit.Position(partition.committedOffset(),
                            partition.committedLeaderEpoch(), partition.committedMetadata()));
                } else {
                    rejected.put(tp, Errors.UNKNOWN_TOPIC_OR_PARTITION);
                }
            }
        }
        CompletableFuture<Map<TopicPartition, Errors>> committed;
        try {
            committed = positions.isEmpty() ? CompletableFuture.completedFuture(Map.of())
                    : offsets.commitTransactional(new OffsetCommit(request.groupId(), request.memberId(),
                            request.groupInstanceId(), request.generationIdOrMemberEpoch(), positions),
                            request.producerId(), request.producerEpoch());
        } catch (ApiException e) {
            Errors error = Errors.forException(e);
            positions.keySet().forEach(tp -> rejected.put(tp, error));
            committed = CompletableFuture.completedFuture(Map.of());
        }
        return committed.thenApply(results -> {
            TxnOffsetCommitResponseData response = new TxnOffsetCommitResponseData();
            for (TxnOffsetCommitRequestTopic topic : request.topics()) {
                TxnOffsetCommitResponseTopic topicResponse = new TxnOffsetCommitResponseTopic().setName(topic.name());
                for (TxnOffsetCommitRequestPartition partition : topic.partitions()) {
                    TopicPartition tp = new TopicPartition(topic.name(), partition.partitionIndex());
                    Errors error = rejected.getOrDefault(tp, results.getOrDefault(tp, Errors.NONE));
                    topicResponse.partitions().add(new TxnOffsetCommitResponsePartition()
                            .setPartitionIndex(partition.partitionIndex()).setErrorCode(error.code()));
                }
                response.topics().add(topicResponse);
            }
            return response;
        });
    }

    // ---- OffsetFetch

    OffsetFetchResponseData fetch(OffsetFetchRequestData request, short version) {
        if (version < FIRST_FETCH_VERSION_WITH_GROUPS) {
            return fetchOneGroup(request);
        }
        boolean byId = version >= FIRST_VERSION_BY_TOPIC_ID;
        OffsetFetchResponseData response = new OffsetFetchResponseData();
        for (OffsetFetchRequestGroup group : request.groups()) {
            response.groups().add(fetchGroup(group, byId, request.requireStable()));
        }
        return response;
    }

    private OffsetFetchResponseData fetchOneGroup(OffsetFetchRequestData request) {
        OffsetFetchResponseData response = new OffsetFetchResponseData();
        Map<String, List<Integer>> requested = null;
        if (request.topics() != null) {
            requested = new LinkedHashMap<>();
            for (OffsetFetchRequestData.OffsetFetchRequestTopic topic : request.topics()) {
                requested.computeIfAbsent(topic.name(), t -> new ArrayList<>()).addAll(topic.partitionIndexes());
            }
        }
        Map<TopicPartition, CommittedOffset> found = offsets.fetch(request.groupId(), partitionsOf(requested));
        for (Map.Entry<String, List<Integer>> topic : requestedOrFound(requested, found).entrySet()) {
            OffsetFetchResponseTopic topicResponse = new OffsetFetchResponseTopic().setName(topic.getKey());
            for (int partition : topic.getValue()) {
                CommittedOffset offset = found.get(new TopicPartition(topic.getKey(), partition));
                topicResponse.partitions().add(new OffsetFetchResponsePartition().setPartitionIndex(partition)
                        .setCommittedOffset(offset == null ? OffsetFetchResponse.INVALID_OFFSET : offset.offset())
                        .setCommittedLeaderEpoch(offset == null ? -1 : offset.leaderEpoch())
                        .setMetadata(offset == null ? OffsetFetchResponse.NO_METADATA : offset.metadata()));
            }
            response.topics().add(topicResponse);
        }
        return response;
    }

    /** One group of a batched OffsetFetch; a group this broker does not coordinate gets its error alone. */
    private OffsetFetchResponseGroup fetchGroup(OffsetFetchRequestGroup group, boolean byId, boolean requireStable) {
        try {
            return fetchCoordinatedGroup(group, byId, requireStable);
        } catch (ApiException e) {
            return new OffsetFetchResponseGroup().setGroupId(group.groupId()).setErrorCode(Errors.forException(e).code());
        }
    }

    /** With {@code requireStable}, a partition an open transaction has committed an offset of gets UNSTABLE_OFFSET_COMMIT. */
    private OffsetFetchResponseGroup fetchCoordinatedGroup(OffsetFetchRequestGroup group, boolean byId, boolean requireStable) {
        OffsetFetchResponseGroup response = new OffsetFetchResponseGroup().setGroupId(group.groupId());
        Errors memberError = offsets.checkFetcher(group.groupId(), group.memberId(), group.memberEpoch());
        if (memberError != Errors.NONE) {
            return response.setErrorCode(memberError.code());
        }
        Map<String, List<Integer>> requested = null;
        Map<String, Errors> unknownIds = new LinkedHashMap<>();
        if (group.topics() != null) {
            requested = new LinkedHashMap<>();
            for (OffsetFetchRequestTopics topic : group.topics()) {
                ResolvedTopic resolved = resolve(topic.name(), topic.topicId(), byId);
                if (byId && resolved.topic().isEmpty()) {
                    unknownIds.put(topic.topicId().toString(), resolved.error());
                    continue;
                }
                String name = resolved.topic().map(TopicState::name).orElse(topic.name());
                requested.computeIfAbsent(name, t -> new ArrayList<>()).addAll(topic.partitionIndexes());
            }
        }
        Map<TopicPartition, CommittedOffset> found = offsets.fetch(group.groupId(), partitionsOf(requested));
        for (Map.Entry<String, List<Integer>> topic : requestedOrFound(requested, found).entrySet()) {
            Optional<TopicState> state = topics.topic(topic.getKey());
            if (byId && state.isEmpty()) {
                continue; // a deleted topic has no id to report it under
            }
            OffsetFetchResponseTopics topicResponse = new OffsetFetchResponseTopics().setName(topic.getKey())
                    .setTopicId(state.map(TopicState::id).orElse(Uuid.ZERO_UUID));
            for (int partition : topic.getValue()) {
                TopicPartition tp = new TopicPartition(topic.getKey(), partition);
                CommittedOffset offset = found.get(tp);
                boolean unstable = requireStable && offsets.hasPendingTransactionalOffset(group.groupId(), tp);
                topicResponse.partitions().add(new OffsetFetchResponsePartitions().setPartitionIndex(partition)
                        .setErrorCode(unstable ? Errors.UNSTABLE_OFFSET_COMMIT.code() : Errors.NONE.code())
                        .setCommittedOffset(offset == null ? OffsetFetchResponse.INVALID_OFFSET : offset.offset())
                        .setCommittedLeaderEpoch(offset == null ? -1 : offset.leaderEpoch())
                        .setMetadata(offset == null ? OffsetFetchResponse.NO_METADATA : offset.metadata()));
            }
            response.topics().add(topicResponse);
        }
        for (OffsetFetchRequestTopics topic : group.topics() == null ? List.<OffsetFetchRequestTopics>of() : group.topics()) {
            Errors error = unknownIds.get(topic.topicId().toString());
            if (error != null) {
                OffsetFetchResponseTopics topicResponse = new OffsetFetchResponseTopics().setTopicId(topic.topicId());
                topic.partitionIndexes().forEach(p -> topicResponse.partitions().add(new OffsetFetchResponsePartitions()
                        .setPartitionIndex(p).setCommittedOffset(OffsetFetchResponse.INVALID_OFFSET)
                        .setMetadata(OffsetFetchResponse.NO_METADATA).setErrorCode(error.code())));
                response.topics().add(topicResponse);
            }
        }
        return response;
    }

    private static Optional<Collection<TopicPartition>> partitionsOf(Map<String, List<Integer>> requested) {
        if (requested == null) {
            return Optional.empty();
        }
        List<TopicPartition> partitions = new ArrayList<>();
        requested.forEach((topic, indexes) -> indexes.forEach(p -> partitions.add(new TopicPartition(topic, p))));
        return Optional.of(partitions);
    }

    /** The requested partitions by topic, or (for "all topics") every partition with a commit. */
    private static Map<String, List<Integer>> requestedOrFound(Map<String, List<Integer>> requested,
                                                               Map<TopicPartition, CommittedOffset> found) {
        if (requested != null) {
            return requested;
        }
        Map<String, List<Integer>> all = new TreeMap<>();
        found.keySet().forEach(tp -> all.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp.partition()));
        all.values().forEach(list -> list.sort(Integer::compare));
        return all;
    }

    // ---- OffsetDelete

    /** Answered once the tombstones are replicated. */
    CompletableFuture<OffsetDeleteResponseData> delete(OffsetDeleteRequestData request) {
        List<TopicPartition> partitions = new ArrayList<>();
        request.topics().forEach(topic -> topic.partitions().forEach(p ->
                partitions.add(new TopicPartition(topic.name(), p.partitionIndex()))));
        return offsets.deleteOffsets(request.groupId(), partitions).thenApply(OffsetsHandler::deleted);
    }

    private static OffsetDeleteResponseData deleted(OffsetManager.DeleteResult result) {
        OffsetDeleteResponseData response = new OffsetDeleteResponseData().setErrorCode(result.error().code());
        if (result.error() != Errors.NONE) {
            return response;
        }
        Map<String, OffsetDeleteResponseTopic> byTopic = new LinkedHashMap<>();
        result.partitions().forEach((tp, error) -> byTopic.computeIfAbsent(tp.topic(),
                t -> new OffsetDeleteResponseTopic().setName(t)).partitions().add(
                new OffsetDeleteResponsePartition().setPartitionIndex(tp.partition()).setErrorCode(error.code())));
        byTopic.values().forEach(response.topics()::add);
        return response;
    }
}

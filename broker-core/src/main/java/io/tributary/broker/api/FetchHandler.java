package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.api.TopicLookup.Found;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.fetch.FetchContext;
import io.tributary.broker.fetch.FetchSessions;
import io.tributary.broker.log.AbortedTxn;
import io.tributary.broker.log.FetchDataInfo;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.network.Session;
import io.tributary.broker.purgatory.DelayedFetch;
import io.tributary.broker.purgatory.Purgatory;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.replica.ReplicaManager.LeaderRead;
import io.tributary.broker.security.FollowerCheck;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchRequestData.FetchPartition;
import org.apache.kafka.common.message.FetchRequestData.FetchTopic;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.FetchResponseData.FetchableTopicResponse;
import org.apache.kafka.common.message.FetchResponseData.PartitionData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.requests.FetchRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetch for consumers and followers: reads each partition this broker leads as file slices, up to
 * its high watermark for consumers and up to its log end for followers (whose fetch offset tells
 * the replica manager how far they are), within the partition's and the response's max.bytes — though the first batch
 * found is always returned whole so that a large batch cannot stall a consumer. With less than
 * min.bytes available the fetch waits in the purgatory, woken by appends, until max.wait.ms.
 * Incremental fetch sessions (KIP-227, {@link FetchSessions}) decide which partitions are read (a session's, or the
 * request's) and which of those are answered (only the changed ones, in a session).
 */
final class FetchHandler {
    private static final Logger log = LoggerFactory.getLogger(FetchHandler.class);
    private static final short FIRST_VERSION_BY_TOPIC_ID = 13;
    private static final byte READ_COMMITTED = 1;

    private final TopicLookup lookup;
    private final ReplicaManager replicas;
    private final Purgatory<TopicPartition> fetchWaiters;
    private final FollowerCheck followers;
    private final FetchSessions sessions;

    FetchHandler(TopicManager topics, ReplicaManager replicas, Purgatory<TopicPartition> fetchWaiters, FollowerCheck followers,
                 FetchSessions sessions) {
        this.lookup = new TopicLookup(topics);
        this.sessions = sessions;
        this.followers = followers;
        this.replicas = replicas;
        this.fetchWaiters = fetchWaiters;
    }

    CompletableFuture<FetchResponseData> handle(FetchRequestData request, short version, Session session) {
        boolean byId = version >= FIRST_VERSION_BY_TOPIC_ID;
        int replicaId = FetchRequest.replicaId(request);
        if (FetchRequest.isValidBrokerId(replicaId) && !followers.mayFollow(replicaId, session)) {
            log.warn("refused a replica fetch as broker {} from {} ({} on listener {}): not that broker",
                    replicaId, session.clientAddress().getHostAddress(), session.principal(), session.listener().value());
            return CompletableFuture.completedFuture(refused(request, byId));
        }
        FetchContext context = sessions.open(request, version, FetchRequest.isValidBrokerId(replicaId));
        List<FetchTopic> topics = context.topics();
        Read first = read(request, topics, byId);
        if (first.complete(request, topics)) {
            countBytesOut(replicaId, first);
            return CompletableFuture.completedFuture(context.respond(first.response()));
        }
        CompletableFuture<FetchResponseData> result = new CompletableFuture<>();
        DelayedFetch<Read> delayed = new DelayedFetch<>(request.maxWaitMs(), () -> read(request, topics, byId),
                read -> read.complete(request, topics), read -> {
                    countBytesOut(replicaId, read);
                    result.complete(context.respond(read.response()));
                });
        fetchWaiters.tryCompleteElseWatch(delayed, partitions(topics, byId));
        return result;
    }

    /** Kafka's answer to a follower fetch without the right to replicate: TOPIC_AUTHORIZATION_FAILED everywhere. */
    private static FetchResponseData refused(FetchRequestData request, boolean byId) {
        FetchResponseData response = new FetchResponseData().setSessionId(0);
        for (FetchTopic fetchTopic : request.topics()) {
            List<PartitionData> partitions = new ArrayList<>();
            fetchTopic.partitions().forEach(p -> partitions.add(error(p.partition(), Errors.TOPIC_AUTHORIZATION_FAILED)));
            response.responses().add(new FetchableTopicResponse()
                    .setTopic(byId ? "" : fetchTopic.topic())
                    .setTopicId(fetchTopic.topicId())
                    .setPartitions(partitions));
        }
        return response;
    }

    /** Bytes sent to a consumer, once per answered fetch (a delayed fetch reads more than once); followers are not counted. */
    private void countBytesOut(int replicaId, Read read) {
        if (!FetchRequest.isValidBrokerId(replicaId)) {
            read.bytesByTopic().forEach(replicas.topicStats()::recordFetched);
        }
    }

    /** One pass over the requested partitions. */
    private record Read(FetchResponseData response, long bytes, boolean hasError, Map<String, Long> bytesByTopic) {
        boolean complete(FetchRequestData request, List<FetchTopic> topics) {
            return request.maxWaitMs() <= 0 || bytes >= request.minBytes() || hasError || topics.isEmpty();
        }
    }

    private Read read(FetchRequestData request, List<FetchTopic> topics, boolean byId) {
        FetchResponseData response = new FetchResponseData().setSessionId(0);
        long bytes = 0;
        boolean hasError = false;
        Map<String, Long> bytesByTopic = new HashMap<>();
        for (FetchTopic fetchTopic : topics) {
            Found found = lookup.find(fetchTopic.topic(), fetchTopic.topicId(), byId);
            List<PartitionData> partitions = new ArrayList<>();
            for (FetchPartition fetchPartition : fetchTopic.partitions()) {
                PartitionData data;
                if (found.topic().isEmpty()) {
                    data = error(fetchPartition.partition(), found.error());
                } else {
                    int responseBytesLeft = (int) Math.max(0, request.maxBytes() - bytes);
                    data = readPartition(new TopicPartition(found.topic().get().name(), fetchPartition.partition()),
                            fetchPartition, responseBytesLeft, bytes == 0, request.isolationLevel(), FetchRequest.replicaId(request));
                }
                hasError |= data.errorCode() != Errors.NONE.code();
                int partitionBytes = data.records() == null ? 0 : data.records().sizeInBytes();
                bytes += partitionBytes;
                if (partitionBytes > 0) {
                    bytesByTopic.merge(found.topic().get().name(), (long) partitionBytes, Long::sum);
                }
                partitions.add(data);
            }
            response.responses().add(new FetchableTopicResponse()
                    .setTopic(byId ? "" : fetchTopic.topic())
                    .setTopicId(fetchTopic.topicId())
                    .setPartitions(partitions));
        }
        return new Read(response, bytes, hasError, bytesByTopic);
    }

    private PartitionData readPartition(TopicPartition partition, FetchPartition request, int responseBytesLeft,
                                        boolean minOneBatch, byte isolationLevel, int replicaId) {
        boolean follower = FetchRequest.isValidBrokerId(replicaId);
        LeaderRead leader;
        try {
            leader = follower
                    ? replicas.followerRead(partition, replicaId, request.fetchOffset(), request.currentLeaderEpoch())
                    : replicas.leaderRead(partition, request.currentLeaderEpoch(), isolationLevel == READ_COMMITTED);
        } catch (RuntimeException e) {
            return error(partition.partition(), Errors.forException(e));
        }
        PartitionLog partitionLog = leader.log();
        long highWatermark = leader.highWatermark();
        long lastStable = leader.lastStableOffset();
        boolean readCommitted = !follower && isolationLevel == READ_COMMITTED;
        PartitionData data = new PartitionData()
                .setPartitionIndex(partition.partition())
                .setAbortedTransactions(readCommitted ? List.of() : null);
        if (follower && replicas.leaderThrottled(partition, replicaId)) {
            // Over leader.replication.throttled.rate: a throttled follower outside the ISR gets its positions only.
            return data.setHighWatermark(highWatermark).setLastStableOffset(lastStable)
                    .setLogStartOffset(partitionLog.logStartOffset()).setRecords(MemoryRecords.EMPTY);
        }
        try {
            int maxBytes = Math.min(request.partitionMaxBytes(), responseBytesLeft);
            long limit = follower ? Long.MAX_VALUE : readCommitted ? lastStable : highWatermark;
            FetchDataInfo info = partitionLog.read(request.fetchOffset(), maxBytes, limit, minOneBatch);
            if (follower) {
                replicas.recordLeaderReplication(partition, replicaId, info.records().sizeInBytes());
            }
            if (readCommitted && info.records().sizeInBytes() > 0) {
                data.setAbortedTransactions(abortedTransactions(partitionLog, request.fetchOffset(), lastStable));
            }
            return data.setHighWatermark(highWatermark)
                    .setLastStableOffset(lastStable)
                    .setLogStartOffset(info.logStartOffset())
                    .setRecords(info.records());
        } catch (RuntimeException e) {
            return data.setErrorCode(Errors.forException(e).code())
                    .setHighWatermark(highWatermark)
                    .setLastStableOffset(lastStable)
                    .setLogStartOffset(partitionLog.logStartOffset())
                    .setRecords(MemoryRecords.EMPTY);
        }
    }

    /** What a read_committed consumer must skip among the records it gets: aborted transactions in [fetchOffset, LSO). */
    private static List<FetchResponseData.AbortedTransaction> abortedTransactions(PartitionLog partitionLog, long fetchOffset,
                                                                                   long lastStable) {
        List<FetchResponseData.AbortedTransaction> aborted = new ArrayList<>();
        for (AbortedTxn txn : partitionLog.abortedTxns(fetchOffset, lastStable)) {
            aborted.add(new FetchResponseData.AbortedTransaction().setProducerId(txn.producerId()).setFirstOffset(txn.firstOffset()));
        }
        return aborted;
    }

    static PartitionData error(int partition, Errors error) {
        return new PartitionData()
                .setPartitionIndex(partition)
                .setErrorCode(error.code())
                .setHighWatermark(-1)
                .setLastStableOffset(-1)
                .setLogStartOffset(-1)
                .setRecords(MemoryRecords.EMPTY);
    }

    private Set<TopicPartition> partitions(List<FetchTopic> topics, boolean byId) {
        Set<TopicPartition> partitions = new LinkedHashSet<>();
        for (FetchTopic fetchTopic : topics) {
            lookup.find(fetchTopic.topic(), fetchTopic.topicId(), byId).topic().ifPresent(topic ->
                    fetchTopic.partitions().forEach(p -> partitions.add(new TopicPartition(topic.name(), p.partition()))));
        }
        return partitions;
    }
}

package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.io.UncheckedIOException;
import io.tributary.broker.api.TopicLookup.Found;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.fetch.FetchContext;
import io.tributary.broker.fetch.FetchSessions;
import io.tributary.broker.log.AbortedTxn;
import io.tributary.broker.log.FetchDataInfo;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.log.remote.RemoteLogReader;
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
import org.apache.kafka.common.errors.OffsetMovedToTieredStorageException;
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
 *
 * <p>A consumer fetching below the local start of a tiered log is answered from remote storage on the
 * {@link RemoteLogReader}'s threads, never on the handler's: the response waits for that read up to
 * {@code remote.fetch.max.wait.ms} (then goes without its records), and, as in Kafka, only the first such partition of
 * a fetch is read remotely; the others come back empty and are fetched again. A session hears of such a partition
 * as of any other: the records read remotely are its change, and the log start offset it is told is always the
 * whole log's (remote part included), never the local one.
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
    private final Optional<RemoteReads> remoteReads;

    /** The reader of tiered logs' remote parts, and how long a fetch waits for it. */
    record RemoteReads(RemoteLogReader reader, long maxWaitMs) {
    }

    FetchHandler(TopicManager topics, ReplicaManager replicas, Purgatory<TopicPartition> fetchWaiters, FollowerCheck followers,
                 FetchSessions sessions, Optional<RemoteReads> remoteReads) {
        this.lookup = new TopicLookup(topics);
        this.sessions = sessions;
        this.followers = followers;
        this.replicas = replicas;
        this.fetchWaiters = fetchWaiters;
        this.remoteReads = remoteReads;
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
            return finish(first, replicaId).thenApply(context::respond);
        }
        CompletableFuture<FetchResponseData> result = new CompletableFuture<>();
        DelayedFetch<Read> delayed = new DelayedFetch<>(request.maxWaitMs(), () -> read(request, topics, byId),
                read -> read.complete(request, topics), read -> finish(read, replicaId).thenApply(context::respond)
                        .whenComplete((response, failure) -> {
                            if (failure != null) {
                                result.completeExceptionally(failure);
                            } else {
                                result.complete(response);
                            }
                        }));
        fetchWaiters.tryCompleteElseWatch(delayed, partitions(topics, byId));
        return result;
    }

    /** The response once the first remote read of {@code read}, if any, is done (or has taken too long). */
    private CompletableFuture<FetchResponseData> finish(Read read, int replicaId) {
        if (read.remote().isEmpty() || remoteReads.isEmpty()) {
            countBytesOut(replicaId, read.bytesByTopic());
            return CompletableFuture.completedFuture(read.response());
        }
        RemoteFetch remote = read.remote().get(0);
        RemoteReads reads = remoteReads.get();
        return reads.reader().read(remote.log(), remote.fetchOffset(), remote.maxBytes(), remote.minOneBatch(), remote.limit(),
                        remote.readCommitted())
                .orTimeout(reads.maxWaitMs(), TimeUnit.MILLISECONDS)
                .handle((answer, failure) -> {
                    Map<String, Long> bytesOut = new HashMap<>(read.bytesByTopic());
                    if (failure == null) {
                        remote.data().setRecords(answer.records());
                        if (remote.readCommitted()) {
                            remote.data().setAbortedTransactions(answer.abortedTxns().stream().map(txn ->
                                    new FetchResponseData.AbortedTransaction().setProducerId(txn.producerId())
                                            .setFirstOffset(txn.firstOffset())).toList());
                        }
                        bytesOut.merge(remote.log().topicPartition().topic(), (long) answer.records().sizeInBytes(), Long::sum);
                    } else if (!(unwrap(failure) instanceof TimeoutException)) {
                        remote.data().setErrorCode(Errors.forException(unwrap(failure)).code());
                    }
                    countBytesOut(replicaId, bytesOut);
                    return read.response();
                });
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return cause instanceof UncheckedIOException io ? io.getCause() : cause;
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
    private void countBytesOut(int replicaId, Map<String, Long> bytesByTopic) {
        if (!FetchRequest.isValidBrokerId(replicaId)) {
            bytesByTopic.forEach(replicas.topicStats()::recordFetched);
        }
    }

    /** One pass over the requested partitions; those to read from remote storage wait in {@code remote}. */
    private record Read(FetchResponseData response, long bytes, boolean hasError, Map<String, Long> bytesByTopic,
                        List<RemoteFetch> remote) {
        boolean complete(FetchRequestData request, List<FetchTopic> topics) {
            return request.maxWaitMs() <= 0 || bytes >= request.minBytes() || hasError || topics.isEmpty()
                    || !remote.isEmpty();
        }
    }

    /** A partition whose records are in remote storage: its response {@code data} gets them once read. */
    private record RemoteFetch(PartitionLog log, PartitionData data, long fetchOffset, int maxBytes, boolean minOneBatch,
                               long limit, boolean readCommitted) {
    }

    private Read read(FetchRequestData request, List<FetchTopic> topics, boolean byId) {
        FetchResponseData response = new FetchResponseData().setSessionId(0);
        long bytes = 0;
        boolean hasError = false;
        Map<String, Long> bytesByTopic = new HashMap<>();
        List<RemoteFetch> remote = new ArrayList<>();
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
                            fetchPartition, responseBytesLeft, bytes == 0, request.isolationLevel(), FetchRequest.replicaId(request),
                            remote);
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
        return new Read(response, bytes, hasError, bytesByTopic, remote);
    }

    private PartitionData readPartition(TopicPartition partition, FetchPartition request, int responseBytesLeft,
                                        boolean minOneBatch, byte isolationLevel, int replicaId, List<RemoteFetch> remote) {
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
        } catch (OffsetMovedToTieredStorageException e) {
            data.setHighWatermark(highWatermark).setLastStableOffset(lastStable)
                    .setLogStartOffset(partitionLog.logStartOffset()).setRecords(MemoryRecords.EMPTY);
            if (follower || remoteReads.isEmpty()) {
                return data.setErrorCode(Errors.OFFSET_MOVED_TO_TIERED_STORAGE.code());
            }
            // Read after this pass, and only the first such partition (as Kafka does): the others come back empty.
            int maxBytes = Math.min(request.partitionMaxBytes(), responseBytesLeft);
            remote.add(new RemoteFetch(partitionLog, data, request.fetchOffset(), maxBytes, minOneBatch,
                    readCommitted ? lastStable : highWatermark, readCommitted));
            return data;
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

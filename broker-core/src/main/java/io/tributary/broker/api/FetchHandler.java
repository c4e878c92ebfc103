package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.api.TopicLookup.Found;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.log.FetchDataInfo;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.purgatory.DelayedFetch;
import io.tributary.broker.purgatory.Purgatory;
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

/**
 * Fetch for consumers: reads each partition up to its high watermark (the log end on one broker)
 * as file slices, within the partition's and the response's max.bytes — though the first batch
 * found is always returned whole so that a large batch cannot stall a consumer. With less than
 * min.bytes available the fetch waits in the purgatory, woken by appends, until max.wait.ms.
 * Fetch sessions are declined (session id 0), so every request is a full fetch.
 */
final class FetchHandler {
    private static final short FIRST_VERSION_BY_TOPIC_ID = 13;
    private static final byte READ_COMMITTED = 1;

    private final TopicManager topics;
    private final TopicLookup lookup;
    private final Purgatory<TopicPartition> fetchWaiters;

    FetchHandler(TopicManager topics, Purgatory<TopicPartition> fetchWaiters) {
        this.topics = topics;
        this.lookup = new TopicLookup(topics);
        this.fetchWaiters = fetchWaiters;
    }

    CompletableFuture<FetchResponseData> handle(FetchRequestData request, short version) {
        boolean byId = version >= FIRST_VERSION_BY_TOPIC_ID;
        if (FetchRequest.replicaId(request) >= 0) {
            return CompletableFuture.completedFuture(new FetchResponseData()
                    .setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code())); // replication is not part of this broker yet
        }
        Read first = read(request, byId);
        if (first.complete(request)) {
            return CompletableFuture.completedFuture(first.response());
        }
        CompletableFuture<FetchResponseData> result = new CompletableFuture<>();
        DelayedFetch<Read> delayed = new DelayedFetch<>(request.maxWaitMs(), () -> read(request, byId),
                read -> read.complete(request), read -> result.complete(read.response()));
        fetchWaiters.tryCompleteElseWatch(delayed, partitions(request, byId));
        return result;
    }

    /** One pass over the requested partitions. */
    private record Read(FetchResponseData response, long bytes, boolean hasError) {
        boolean complete(FetchRequestData request) {
            return request.maxWaitMs() <= 0 || bytes >= request.minBytes() || hasError || request.topics().isEmpty();
        }
    }

    private Read read(FetchRequestData request, boolean byId) {
        FetchResponseData response = new FetchResponseData().setSessionId(0);
        long bytes = 0;
        boolean hasError = false;
        for (FetchTopic fetchTopic : request.topics()) {
            Found found = lookup.find(fetchTopic.topic(), fetchTopic.topicId(), byId);
            List<PartitionData> partitions = new ArrayList<>();
            for (FetchPartition fetchPartition : fetchTopic.partitions()) {
                PartitionData data;
                if (found.topic().isEmpty()) {
                    data = error(fetchPartition.partition(), found.error());
                } else {
                    int responseBytesLeft = (int) Math.max(0, request.maxBytes() - bytes);
                    data = readPartition(new TopicPartition(found.topic().get().name(), fetchPartition.partition()),
                            fetchPartition, responseBytesLeft, bytes == 0, request.isolationLevel());
                }
                hasError |= data.errorCode() != Errors.NONE.code();
                bytes += data.records() == null ? 0 : data.records().sizeInBytes();
                partitions.add(data);
            }
            response.responses().add(new FetchableTopicResponse()
                    .setTopic(byId ? "" : fetchTopic.topic())
                    .setTopicId(fetchTopic.topicId())
                    .setPartitions(partitions));
        }
        return new Read(response, bytes, hasError);
    }

    private PartitionData readPartition(TopicPartition partition, FetchPartition request, int responseBytesLeft,
                                        boolean minOneBatch, byte isolationLevel) {
        PartitionLog partitionLog = topics.log(partition).orElse(null);
        if (partitionLog == null) {
            return error(partition.partition(), Errors.UNKNOWN_TOPIC_OR_PARTITION);
        }
        Errors epochError = LeaderEpochs.check(request.currentLeaderEpoch());
        if (epochError != Errors.NONE) {
            return error(partition.partition(), epochError);
        }
        PartitionData data = new PartitionData()
                .setPartitionIndex(partition.partition())
                .setAbortedTransactions(isolationLevel == READ_COMMITTED ? List.of() : null);
        try {
            long highWatermark = partitionLog.logEndOffset();
            int maxBytes = Math.min(request.partitionMaxBytes(), responseBytesLeft);
            FetchDataInfo info = partitionLog.read(request.fetchOffset(), maxBytes, highWatermark, minOneBatch);
            return data.setHighWatermark(highWatermark)
                    .setLastStableOffset(highWatermark)
                    .setLogStartOffset(info.logStartOffset())
                    .setRecords(info.records());
        } catch (RuntimeException e) {
            return data.setErrorCode(Errors.forException(e).code())
                    .setHighWatermark(partitionLog.logEndOffset())
                    .setLastStableOffset(partitionLog.logEndOffset())
                    .setLogStartOffset(partitionLog.logStartOffset())
                    .setRecords(MemoryRecords.EMPTY);
        }
    }

    private static PartitionData error(int partition, Errors error) {
        return new PartitionData()
                .setPartitionIndex(partition)
                .setErrorCode(error.code())
                .setHighWatermark(-1)
                .setLastStableOffset(-1)
                .setLogStartOffset(-1)
                .setRecords(MemoryRecords.EMPTY);
    }

    private Set<TopicPartition> partitions(FetchRequestData request, boolean byId) {
        Set<TopicPartition> partitions = new LinkedHashSet<>();
        for (FetchTopic fetchTopic : request.topics()) {
            lookup.find(fetchTopic.topic(), fetchTopic.topicId(), byId).topic().ifPresent(topic ->
                    fetchTopic.partitions().forEach(p -> partitions.add(new TopicPartition(topic.name(), p.partition()))));
        }
        return partitions;
    }
}

package io.tributary.broker.replica;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import io.tributary.broker.controller.ClusterView.Endpoint;
import io.tributary.broker.log.remote.RemoteAuxState;
import io.tributary.broker.log.remote.RemoteStorage;
import org.apache.kafka.clients.FetchSessionHandler;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsRequestData.ListOffsetsPartition;
import org.apache.kafka.common.message.ListOffsetsRequestData.ListOffsetsTopic;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.message.ListOffsetsResponseData.ListOffsetsPartitionResponse;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderPartition;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderTopic;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderTopicCollection;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.apache.kafka.common.utils.internals.LogContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A thread that keeps some of this broker's follower replicas in step with one leader broker.
 * A partition added here first asks the leader where its own latest leader epoch ends
 * (OffsetForLeaderEpoch) and truncates what the leader does not have; then it fetches from its
 * log end, with this broker's id as replica id, {@code replica.fetch.max.bytes} per partition, and
 * a long poll at the leader, in an incremental fetch session (KIP-227: after the first full fetch only the
 * partitions whose fetch offset moved are sent, and only those that changed come back; kafka-clients'
 * FetchSessionHandler keeps the session, as in Kafka's followers). Fetched batches are appended only while the
 * partition still follows that leader at the epoch the fetch was made for.
 */
final class ReplicaFetcher extends Thread {
    private static final short FETCH_VERSION = 12;
    private static final short OFFSET_FOR_LEADER_EPOCH_VERSION = 4;
    /** The first version that knows EARLIEST_LOCAL_TIMESTAMP. */
    private static final short LIST_OFFSETS_VERSION = 8;
    /**
     * The longest wait of a partition that failed again and again (its local log throws, or the remote copy below the
     * leader's local start is damaged): a repair takes a person or a later copy, so retrying every
     * replica.fetch.backoff.ms would only fill the log.
     */
    private static final long MAX_FAILURE_BACKOFF_MS = 30_000;
    private static final Logger log = LoggerFactory.getLogger(ReplicaFetcher.class);

    private final int leaderId;
    private final ReplicationConfig config;
    private final IntFunction<Optional<Endpoint>> endpoints;
    private final ReplicationThrottle throttle;
    /** Where the remote parts of tiered logs are, if tiered storage is on. */
    private final Optional<RemoteStorage> remoteStorage;
    private final Map<TopicPartition, Fetching> partitions = new ConcurrentHashMap<>();
    private final Object changed = new Object();
    private volatile boolean running = true;
    private volatile BrokerChannel channel;
    /** The incremental fetch session with the leader (KIP-227): only partitions whose fetch offset moved are sent. */
    private final FetchSessionHandler session;

    /**
     * A partition being fetched at a leader epoch; truncation comes first. After an error it waits until
     * {@code retryAtNanos} (its own backoff, as Kafka delays a partition in error: the others go on), and after
     * {@code failures} failures of its own in a row (its log threw, or a restart from remote storage failed), each retry
     * waits twice as long as the one before.
     */
    private record Fetching(Partition partition, int leaderEpoch, boolean truncated, long retryAtNanos, int failures) {
        Fetching(Partition partition, int leaderEpoch) {
            this(partition, leaderEpoch, false, 0, 0);
        }

        boolean waiting(long nowNanos) {
            return retryAtNanos - nowNanos > 0;
        }

        /** Truncation done: fetching. */
        Fetching fetchingNow() {
            return new Fetching(partition, leaderEpoch, true, retryAtNanos, failures);
        }

        /** After an error: truncation again if {@code truncateAgain}, once {@code backoffMs} have passed. */
        Fetching retryAfter(long backoffMs, boolean truncateAgain) {
            return new Fetching(partition, leaderEpoch, truncated && !truncateAgain,
                    System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoffMs), failures);
        }

        /**
         * After a failure of this partition's own (its log threw, or a restart from remote storage failed): the backoff
         * doubles with each one in a row, up to a limit; truncation again first if {@code truncateAgain}.
         */
        Fetching failed(long backoffMs, boolean truncateAgain) {
            long waitMs = Math.min(backoffMs << Math.min(failures, 20), Math.max(backoffMs, MAX_FAILURE_BACKOFF_MS));
            return new Fetching(partition, leaderEpoch, truncated && !truncateAgain,
                    System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs), failures + 1);
        }

        long retryInMs() {
            return Math.max(0, TimeUnit.NANOSECONDS.toMillis(retryAtNanos - System.nanoTime()));
        }
    }

    ReplicaFetcher(String name, int leaderId, ReplicationConfig config, IntFunction<Optional<Endpoint>> endpoints,
                   ReplicationThrottle throttle, Optional<RemoteStorage> remoteStorage) {
        super(name);
        setDaemon(true);
        this.remoteStorage = remoteStorage;
        this.leaderId = leaderId;
        this.config = config;
        this.endpoints = endpoints;
        this.throttle = throttle;
        this.session = new FetchSessionHandler(new LogContext("[" + name + "] "), leaderId);
    }

    void add(Partition partition, int leaderEpoch) {
        partitions.put(partition.topicPartition(), new Fetching(partition, leaderEpoch));
        synchronized (changed) {
            changed.notifyAll();
        }
    }

    void remove(TopicPartition partition) {
        partitions.remove(partition);
    }

    boolean isIdle() {
        return partitions.isEmpty();
    }

    /**
     * Stops the thread without interrupting it (an interrupt would close the log's file channels
     * mid-write): closing the socket ends a fetch in flight.
     */
    void shutdown() {
        running = false;
        synchronized (changed) {
            changed.notifyAll();
        }
        BrokerChannel open = channel;
        if (open != null) {
            try {
                open.close();
            } catch (IOException e) {
                log.debug("closing the connection to broker {}: {}", leaderId, e.toString());
            }
        }
    }

    @Override
    public void run() {
        while (running) {
            try {
                if (partitions.isEmpty()) {
                    synchronized (changed) {
                        if (running) {
                            changed.wait(100);
                        }
                    }
                    continue;
                }
                if (channel == null) {
                    connect();
                }
                truncate();
                fetch();
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                if (running) {
                    log.debug("fetching from broker {} failed: {}", leaderId, e.toString());
                    session.handleError(e);
                    closeChannel();
                    backOff();
                }
            }
        }
        closeChannel();
    }

    private void connect() throws IOException {
        Endpoint leader = endpoints.apply(leaderId).orElseThrow(() -> new IOException("broker " + leaderId + " is not registered"));
        channel = BrokerChannel.connect(leader.host(), leader.port(), config.fetchWaitMaxMs() + 10_000,
                "replica-fetcher-" + config.brokerId(), config.connector());
    }

    private void truncate() throws IOException {
        long now = System.nanoTime();
        List<Fetching> pending = partitions.values().stream().filter(f -> !f.truncated() && !f.waiting(now)).toList();
        if (pending.isEmpty()) {
            return;
        }
        OffsetForLeaderTopicCollection topics = new OffsetForLeaderTopicCollection();
        for (Fetching fetching : pending) {
            TopicPartition tp = fetching.partition().topicPartition();
            OffsetForLeaderTopic topic = topics.find(tp.topic());
            if (topic == null) {
                topic = new OffsetForLeaderTopic().setTopic(tp.topic());
                topics.add(topic);
            }
            topic.partitions().add(new OffsetForLeaderPartition().setPartition(tp.partition())
                    .setCurrentLeaderEpoch(fetching.leaderEpoch()).setLeaderEpoch(fetching.partition().epochs().latestEpoch()));
        }
        var response = (OffsetForLeaderEpochResponseData) channel.send(ApiKeys.OFFSET_FOR_LEADER_EPOCH, OFFSET_FOR_LEADER_EPOCH_VERSION,
                new OffsetForLeaderEpochRequestData().setReplicaId(config.brokerId()).setTopics(topics));
        Map<TopicPartition, Fetching> byPartition = new HashMap<>();
        pending.forEach(f -> byPartition.put(f.partition().topicPartition(), f));
        for (var topic : response.topics()) {
            for (var result : topic.partitions()) {
                Fetching fetching = byPartition.get(new TopicPartition(topic.topic(), result.partition()));
                if (fetching == null || result.errorCode() != Errors.NONE.code()) {
                    continue; // retried on the next round; a new state will replace a fenced epoch
                }
                try {
                    fetching.partition().truncateTo(truncationOffset(fetching.partition(), result), fetching.leaderEpoch());
                } catch (RuntimeException e) {
                    failed(fetching, "truncating", e);
                    continue;
                }
                partitions.replace(fetching.partition().topicPartition(), fetching, fetching.fetchingNow());
            }
        }
    }

    /**
     * This partition's own log failed (a write refused, a damaged segment...): it alone waits and truncates again, as
     * Kafka's fetcher takes a partition in error out of the round, while the others are fetched on.
     */
    private void failed(Fetching fetching, String doing, RuntimeException e) {
        Fetching retry = fetching.failed(config.fetchBackoffMs(), true);
        partitions.replace(fetching.partition().topicPartition(), fetching, retry);
        log.warn("{} {} from broker {} failed, trying again in {} ms", doing, fetching.partition().topicPartition(), leaderId,
                retry.retryInMs(), e);
    }

    /**
     * Where to cut the local log: at the end the leader reports for the latest epoch both know
     * (KIP-101/279), or, if the leader knows none of our epochs, back to the start: fetching again
     * is always safe, keeping records the leader never had is not.
     */
    private static long truncationOffset(Partition partition, OffsetForLeaderEpochResponseData.EpochEndOffset leaderEnd) {
        long logEnd = partition.log().logEndOffset();
        if (partition.epochs().latestEpoch() < 0) {
            return logEnd == 0 ? 0 : partition.log().localLogStartOffset();
        }
        if (leaderEnd.leaderEpoch() < 0 || leaderEnd.endOffset() < 0) {
            return partition.log().localLogStartOffset();
        }
        long offset = Math.min(leaderEnd.endOffset(), logEnd);
        LeaderEpochCache.EpochEnd local = partition.epochs().endOffsetFor(leaderEnd.leaderEpoch(), logEnd);
        if (local.epoch() == leaderEnd.leaderEpoch()) {
            offset = Math.min(offset, local.endOffset());
        }
        return offset;
    }

    private void fetch() throws IOException {
        Map<TopicPartition, Fetching> requested = new HashMap<>();
        FetchSessionHandler.Builder builder = session.newBuilder();
        boolean throttleExceeded = throttle.exceeded();
        long now = System.nanoTime();
        for (Fetching fetching : partitions.values()) {
            if (!fetching.truncated() || fetching.waiting(now) || throttleExceeded && fetching.partition().throttledAsFollower()) {
                continue; // waiting for truncation, after an error, or over follower.replication.throttled.rate
            }
            TopicPartition tp = fetching.partition().topicPartition();
            requested.put(tp, fetching);
            builder.add(tp, new FetchRequest.PartitionData(Uuid.ZERO_UUID, fetching.partition().log().logEndOffset(),
                    FetchRequest.INVALID_LOG_START_OFFSET, config.fetchMaxBytes(), Optional.of(fetching.leaderEpoch())));
        }
        if (requested.isEmpty()) {
            backOff(); // waiting for truncation answers or after errors
            return;
        }
        FetchSessionHandler.FetchRequestData sessionRequest = builder.build();
        FetchRequestData request = FetchRequest.Builder.forReplica(FETCH_VERSION, config.brokerId(), -1, config.fetchWaitMaxMs(), 1,
                        sessionRequest.toSend())
                .setMaxBytes(config.fetchResponseMaxBytes())
                .removed(sessionRequest.toForget())
                .replaced(sessionRequest.toReplace())
                .metadata(sessionRequest.metadata())
                .build(FETCH_VERSION).data();
        var response = (FetchResponseData) channel.send(ApiKeys.FETCH, FETCH_VERSION, request);
        Errors error = Errors.forCode(response.errorCode());
        boolean answered = session.handleResponse(FetchResponse.of(response), FETCH_VERSION);
        if (error != Errors.NONE && error != Errors.FETCH_SESSION_ID_NOT_FOUND && error != Errors.INVALID_FETCH_SESSION_EPOCH) {
            throw new IOException("fetch from broker " + leaderId + " failed: " + error);
        }
        if (!answered) {
            return; // the session is gone or out of step (the leader restarted, or evicted it): the next fetch is a full one
        }
        for (FetchResponseData.FetchableTopicResponse topic : response.responses()) {
            for (FetchResponseData.PartitionData data : topic.partitions()) {
                TopicPartition tp = new TopicPartition(topic.topic(), data.partitionIndex());
                Fetching fetching = requested.get(tp);
                // Not if it stopped meanwhile (a new leader, or the replica moved away and its log is being deleted).
                if (fetching != null && partitions.get(tp) == fetching) {
                    if (fetching.partition().throttledAsFollower()) {
                        throttle.record(((MemoryRecords) data.records()).sizeInBytes());
                    }
                    try {
                        handle(fetching, data);
                    } catch (RuntimeException e) {
                        failed(fetching, "appending what was fetched of", e);
                    }
                }
            }
        }
    }

    /** Appends what the leader sent; after an error, the partition waits its backoff (the others are fetched on). */
    private void handle(Fetching fetching, FetchResponseData.PartitionData data) throws IOException {
        Partition partition = fetching.partition();
        TopicPartition tp = partition.topicPartition();
        Errors error = Errors.forCode(data.errorCode());
        if (error == Errors.NONE) {
            partition.appendAsFollower(completeBatches((MemoryRecords) data.records()), data.highWatermark(),
                    data.logStartOffset(), fetching.leaderEpoch());
            if (fetching.failures() > 0) {
                partitions.replace(tp, fetching, new Fetching(partition, fetching.leaderEpoch()).fetchingNow());
            }
        } else if (error == Errors.OFFSET_MOVED_TO_TIERED_STORAGE) {
            restartFromRemoteStorage(fetching);
        } else if (error == Errors.OFFSET_OUT_OF_RANGE && data.logStartOffset() > partition.log().logEndOffset()) {
            // The leader no longer has what we would fetch next (retention or DeleteRecords): start over at its log start.
            partition.truncateFullyAndStartAt(data.logStartOffset(), fetching.leaderEpoch());
        } else if (error == Errors.OFFSET_OUT_OF_RANGE) {
            // Our log end is beyond the leader's: the divergence is found again (OffsetForLeaderEpoch, then truncation)
            // in the next round, at once, as Kafka's fetcher handles an out-of-range partition without a backoff.
            log.debug("fetching {} from broker {}: {}, truncating again", tp, leaderId, error);
            partitions.replace(tp, fetching, fetching.retryAfter(0, true));
        } else {
            // This partition waits (a new leader, a fenced epoch...).
            log.debug("fetching {} from broker {}: {}", tp, leaderId, error);
            partitions.replace(tp, fetching, fetching.retryAfter(config.fetchBackoffMs(), false));
        }
    }

    /**
     * The leader's local log starts beyond what we would fetch next, the rest is in remote storage (KIP-405): restart at
     * the end of the remote copy below its local log start, with that copy's producer state and leader epochs. Consumers
     * read the remote part from the leader; no replica holds it. If the copy is damaged beyond what {@link RemoteAuxState}
     * works around, or the remote storage fails, the partition tries again later (one warning per try, naming the file
     * and what is wrong); the other partitions are fetched on meanwhile.
     */
    private void restartFromRemoteStorage(Fetching fetching) throws IOException {
        Partition partition = fetching.partition();
        TopicPartition tp = partition.topicPartition();
        long leaderStart;
        try {
            leaderStart = leaderLocalLogStart(tp, fetching.leaderEpoch());
        } catch (ApiException e) {
            log.debug("the local log start of {} at broker {}: {}", tp, leaderId, e.toString());
            partitions.replace(tp, fetching, fetching.retryAfter(config.fetchBackoffMs(), false));
            return;
        }
        RemoteAuxState start;
        try {
            Optional<RemoteAuxState> below = remoteStorage.isPresent()
                    ? RemoteAuxState.below(remoteStorage.get(), tp, leaderStart, System.currentTimeMillis()) : Optional.empty();
            if (below.isEmpty()) {
                log.info("{}: no remote copy holds offset {}, below broker {}'s local log start", tp, leaderStart - 1, leaderId);
            }
            start = below.orElse(RemoteAuxState.nothingAt(leaderStart));
        } catch (IOException | RuntimeException e) {
            Fetching retry = fetching.failed(config.fetchBackoffMs(), false);
            partitions.replace(tp, fetching, retry);
            log.warn("{}: cannot restart at broker {}'s local log start {} from the remote copy below it, trying again in "
                    + "{} ms: {}", tp, leaderId, leaderStart, retry.retryInMs(), e.getMessage() == null ? e : e.getMessage());
            return;
        }
        partition.truncateFullyAndStartAt(start, fetching.leaderEpoch());
        if (fetching.failures() > 0) {
            partitions.replace(tp, fetching, new Fetching(partition, fetching.leaderEpoch()).fetchingNow());
        }
    }

    /**
     * The leader's local log start offset (ListOffsets EARLIEST_LOCAL_TIMESTAMP, as Kafka's followers ask it).
     *
     * @throws ApiException the leader's error
     */
    private long leaderLocalLogStart(TopicPartition tp, int leaderEpoch) throws IOException {
        ListOffsetsRequestData request = new ListOffsetsRequestData().setReplicaId(config.brokerId())
                .setTopics(List.of(new ListOffsetsTopic().setName(tp.topic()).setPartitions(List.of(new ListOffsetsPartition()
                        .setPartitionIndex(tp.partition()).setCurrentLeaderEpoch(leaderEpoch)
                        .setTimestamp(ListOffsetsRequest.EARLIEST_LOCAL_TIMESTAMP)))));
        var response = (ListOffsetsResponseData) channel.send(ApiKeys.LIST_OFFSETS, LIST_OFFSETS_VERSION, request);
        ListOffsetsPartitionResponse answer = response.topics().get(0).partitions().get(0);
        if (answer.errorCode() != Errors.NONE.code()) {
            throw Errors.forCode(answer.errorCode()).exception();
        }
        return answer.offset();
    }

    /** The whole batches of a fetched slice: the leader may cut the last one short at the byte limit. */
    private static MemoryRecords completeBatches(MemoryRecords records) {
        int valid = 0;
        for (MutableRecordBatch batch : records.batches()) {
            valid += batch.sizeInBytes();
        }
        if (valid == records.sizeInBytes()) {
            return records;
        }
        ByteBuffer buffer = records.buffer().duplicate();
        buffer.limit(buffer.position() + valid);
        return MemoryRecords.readableRecords(buffer.slice());
    }

    private void backOff() {
        synchronized (changed) {
            try {
                if (running) {
                    changed.wait(config.fetchBackoffMs());
                }
            } catch (InterruptedException e) {
                running = false;
            }
        }
    }

    private void closeChannel() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                log.debug("closing the connection to broker {}: {}", leaderId, e.toString());
            }
            channel = null;
        }
    }
}

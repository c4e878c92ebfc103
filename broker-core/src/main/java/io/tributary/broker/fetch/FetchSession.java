package io.tributary.broker.fetch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.common.message.FetchRequestData.FetchPartition;
import org.apache.kafka.common.message.FetchRequestData.FetchTopic;
import org.apache.kafka.common.message.FetchRequestData.ForgottenTopic;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.FetchResponseData.FetchableTopicResponse;
import org.apache.kafka.common.message.FetchResponseData.PartitionData;
import org.apache.kafka.common.requests.FetchMetadata;
import org.apache.kafka.common.requests.FetchResponse;

/**
 * One fetcher's session: its partitions in the order they are read (a partition that returned records goes to the
 * back, so that response max.bytes cannot starve the ones behind it), and the epoch its next incremental fetch must
 * carry. Its partitions and epoch are guarded by its own lock; its place in the cache ({@link #lastUse},
 * {@link #worth}) by the cache's lock, which is always taken first.
 */
final class FetchSession {
    private final int id;
    private final boolean privileged;
    private final boolean byTopicId;
    private final long createdMs;
    private final Map<SessionPartition, CachedPartition> partitions;
    private int epoch = FetchMetadata.nextEpoch(FetchMetadata.INITIAL_EPOCH);

    /** Guarded by the cache: its keys in the cache's orderings, null while not in them. */
    FetchSessionCache.LastUse lastUse;
    FetchSessionCache.Worth worth;

    FetchSession(int id, boolean privileged, boolean byTopicId, long createdMs, Map<SessionPartition, CachedPartition> partitions) {
        this.id = id;
        this.privileged = privileged;
        this.byTopicId = byTopicId;
        this.createdMs = createdMs;
        this.partitions = partitions;
    }

    int id() {
        return id;
    }

    /** Followers' sessions are privileged: they may evict consumers' sessions, and only old ones can evict them. */
    boolean privileged() {
        return privileged;
    }

    boolean byTopicId() {
        return byTopicId;
    }

    long createdMs() {
        return createdMs;
    }

    synchronized int epoch() {
        return epoch;
    }

    synchronized void nextEpoch() {
        epoch = FetchMetadata.nextEpoch(epoch);
    }

    synchronized int size() {
        return partitions.size();
    }

    /** Applies an incremental fetch: its partitions are added or take their new request, the forgotten ones go. */
    synchronized void update(List<FetchTopic> topics, List<ForgottenTopic> forgotten) {
        for (FetchTopic topic : topics) {
            for (FetchPartition partition : topic.partitions()) {
                SessionPartition key = new SessionPartition(topic.topicId(), topic.topic(), partition.partition());
                CachedPartition cached = partitions.get(key);
                if (cached == null) {
                    partitions.put(key, new CachedPartition(key, partition));
                } else {
                    cached.update(partition);
                }
            }
        }
        for (ForgottenTopic topic : forgotten) {
            topic.partitions().forEach(p -> partitions.remove(new SessionPartition(topic.topicId(), topic.topic(), p)));
        }
    }

    /** The session's partitions in reading order. */
    synchronized List<CachedPartition> partitions() {
        return new ArrayList<>(partitions.values());
    }

    /** Remembers what a full fetch's answer told of each partition. */
    synchronized void told(FetchResponseData read) {
        forEachAnswered(read.responses(), CachedPartition::mustRespond);
    }

    /**
     * What of an incremental fetch's reading must be answered (see {@link CachedPartition#mustRespond}), remembered
     * as told; partitions that returned records are read after all the others next time.
     */
    synchronized List<FetchableTopicResponse> changed(List<FetchableTopicResponse> read) {
        List<FetchableTopicResponse> changed = new ArrayList<>();
        for (FetchableTopicResponse topic : read) {
            List<PartitionData> answered = new ArrayList<>();
            for (PartitionData data : topic.partitions()) {
                SessionPartition key = new SessionPartition(topic.topicId(), topic.topic(), data.partitionIndex());
                CachedPartition partition = partitions.get(key);
                if (partition != null && partition.mustRespond(data)) {
                    answered.add(data);
                    if (FetchResponse.recordsSize(data) > 0) {
                        partitions.put(key, partitions.remove(key));
                    }
                }
            }
            if (!answered.isEmpty()) {
                changed.add(topic.setPartitions(answered));
            }
        }
        return changed;
    }

    /** The last answer of these partitions never reached the fetcher: the next one goes out whatever it says. */
    synchronized void untold(List<FetchableTopicResponse> unsent) {
        forEachAnswered(unsent, (partition, data) -> partition.untold());
    }

    private void forEachAnswered(List<FetchableTopicResponse> answers, BiConsumer<CachedPartition, PartitionData> action) {
        for (FetchableTopicResponse topic : answers) {
            for (PartitionData data : topic.partitions()) {
                CachedPartition partition = partitions.get(new SessionPartition(topic.topicId(), topic.topic(), data.partitionIndex()));
                if (partition != null) {
                    action.accept(partition, data);
                }
            }
        }
    }

    /** The partitions of a new session, in the order of the full fetch that opened it. */
    static Map<SessionPartition, CachedPartition> partitionsOf(List<FetchTopic> topics) {
        Map<SessionPartition, CachedPartition> partitions = new LinkedHashMap<>();
        for (FetchTopic topic : topics) {
            for (FetchPartition partition : topic.partitions()) {
                SessionPartition key = new SessionPartition(topic.topicId(), topic.topic(), partition.partition());
                partitions.put(key, new CachedPartition(key, partition));
            }
        }
        return partitions;
    }

    @Override
    public String toString() {
        return "fetch session " + id + (privileged ? " (follower)" : "");
    }
}

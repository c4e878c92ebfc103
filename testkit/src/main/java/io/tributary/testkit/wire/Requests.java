package io.tributary.testkit.wire;

import java.util.List;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.record.internal.MemoryRecords;

/** Typed request bodies that tests send through a {@link RawConnection}. */
public final class Requests {
    private Requests() {
    }

    /** Fetch v12 and older: topics by name, and the replica id (a follower's claim) in the body. */
    public static final short FOLLOWER_FETCH_VERSION = 12;

    /** A fetch of partition 0 of {@code topic} from {@code offset} as follower {@code replicaId}, for {@link #FOLLOWER_FETCH_VERSION}. */
    public static FetchRequestData followerFetch(String topic, int replicaId, long offset) {
        FetchRequestData request = new FetchRequestData().setReplicaId(replicaId).setMaxWaitMs(0).setMinBytes(1)
                .setMaxBytes(1 << 20).setIsolationLevel((byte) 0);
        request.topics().add(new FetchRequestData.FetchTopic().setTopic(topic).setPartitions(List.of(
                new FetchRequestData.FetchPartition().setPartition(0).setFetchOffset(offset).setPartitionMaxBytes(1 << 20))));
        return request;
    }

    /** A produce of {@code records} to partition 0 of {@code topic}, addressed by name. */
    public static ProduceRequestData produce(String topic, short acks, MemoryRecords records) {
        return produce(topic, 0, acks, records);
    }

    /** A produce of {@code records} to one partition of {@code topic}, addressed by name. */
    public static ProduceRequestData produce(String topic, int partition, short acks, MemoryRecords records) {
        ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
        topics.add(new ProduceRequestData.TopicProduceData().setName(topic).setPartitionData(List.of(
                new ProduceRequestData.PartitionProduceData().setIndex(partition).setRecords(records))));
        return new ProduceRequestData().setAcks(acks).setTimeoutMs(10_000).setTopicData(topics);
    }
}

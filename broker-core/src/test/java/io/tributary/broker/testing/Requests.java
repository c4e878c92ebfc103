package io.tributary.broker.testing;

import java.util.List;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.record.internal.MemoryRecords;

/** Typed request bodies that tests send through a {@link RawConnection}. */
public final class Requests {
    private Requests() {
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

package io.tributary.broker.status;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.tributary.broker.controller.ClusterView;
import io.tributary.broker.controller.PartitionState;
import io.tributary.broker.replica.BrokerChannels;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsRequestData.ListOffsetsPartition;
import org.apache.kafka.common.message.ListOffsetsRequestData.ListOffsetsTopic;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end offsets (high watermarks: what a consumer reading uncommitted data can read, as {@code kafka-consumer-groups}
 * counts lag) of partitions anywhere in the cluster, asked of their leaders with ListOffsets over the inter-broker
 * listener, this broker included. A partition without a leader, or whose leader does not answer, has none.
 * One caller at a time.
 */
final class EndOffsets implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EndOffsets.class);
    private static final short VERSION = 7;

    private final ClusterView cluster;
    private final BrokerChannels channels;

    EndOffsets(ClusterView cluster, BrokerChannels channels) {
        this.cluster = cluster;
        this.channels = channels;
    }

    synchronized Map<TopicPartition, Long> of(Collection<TopicPartition> partitions) {
        Map<Integer, List<TopicPartition>> byLeader = new HashMap<>();
        for (TopicPartition partition : partitions) {
            cluster.partitionState(partition).filter(PartitionState::hasLeader)
                    .ifPresent(state -> byLeader.computeIfAbsent(state.leader(), id -> new ArrayList<>()).add(partition));
        }
        Map<TopicPartition, Long> ends = new HashMap<>();
        byLeader.forEach((leader, led) -> {
            try {
                ListOffsetsResponseData response = (ListOffsetsResponseData) channels.send(leader, ApiKeys.LIST_OFFSETS, VERSION,
                        latest(led));
                for (ListOffsetsResponseData.ListOffsetsTopicResponse topic : response.topics()) {
                    for (ListOffsetsResponseData.ListOffsetsPartitionResponse answer : topic.partitions()) {
                        if (answer.errorCode() == Errors.NONE.code()) {
                            ends.put(new TopicPartition(topic.name(), answer.partitionIndex()), answer.offset());
                        }
                    }
                }
            } catch (IOException e) {
                log.debug("broker {} did not tell the end offsets of {}: {}", leader, led, e.getMessage());
            }
        });
        return ends;
    }

    private static ListOffsetsRequestData latest(List<TopicPartition> partitions) {
        Map<String, ListOffsetsTopic> topics = new LinkedHashMap<>();
        for (TopicPartition partition : partitions) {
            topics.computeIfAbsent(partition.topic(), name -> new ListOffsetsTopic().setName(name)).partitions()
                    .add(new ListOffsetsPartition().setPartitionIndex(partition.partition())
                            .setTimestamp(ListOffsetsRequest.LATEST_TIMESTAMP));
        }
        return new ListOffsetsRequestData().setReplicaId(ListOffsetsRequest.CONSUMER_REPLICA_ID)
                .setTopics(new ArrayList<>(topics.values()));
    }

    @Override
    public void close() {
        channels.close();
    }
}

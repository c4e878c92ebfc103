package io.tributary.broker.api;

import io.tributary.broker.replica.LeaderEpochCache.EpochEnd;
import io.tributary.broker.replica.ReplicaManager;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderPartition;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderTopic;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData.EpochEndOffset;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResult;
import org.apache.kafka.common.protocol.Errors;

/**
 * OffsetForLeaderEpoch (KIP-101), answered by the leader: where a given leader epoch ends in its
 * log — the latest epoch at or below the one asked for and the offset where the next one starts.
 * Followers truncate to it after a leader change; consumers use it to detect truncation.
 */
final class OffsetForLeaderEpochHandler {
    private final ReplicaManager replicas;

    OffsetForLeaderEpochHandler(ReplicaManager replicas) {
        this.replicas = replicas;
    }

    OffsetForLeaderEpochResponseData handle(OffsetForLeaderEpochRequestData request) {
        OffsetForLeaderEpochResponseData response = new OffsetForLeaderEpochResponseData();
        for (OffsetForLeaderTopic topic : request.topics()) {
            OffsetForLeaderTopicResult result = new OffsetForLeaderTopicResult().setTopic(topic.topic());
            for (OffsetForLeaderPartition partition : topic.partitions()) {
                result.partitions().add(endOf(new TopicPartition(topic.topic(), partition.partition()), partition));
            }
            response.topics().add(result);
        }
        return response;
    }

    private EpochEndOffset endOf(TopicPartition tp, OffsetForLeaderPartition partition) {
        EpochEndOffset result = new EpochEndOffset().setPartition(partition.partition());
        try {
            EpochEnd end = replicas.endOffsetFor(tp, partition.currentLeaderEpoch(), partition.leaderEpoch());
            return result.setLeaderEpoch(end.epoch()).setEndOffset(end.endOffset());
        } catch (RuntimeException e) {
            return result.setErrorCode(Errors.forException(e).code()).setLeaderEpoch(-1).setEndOffset(-1);
        }
    }
}

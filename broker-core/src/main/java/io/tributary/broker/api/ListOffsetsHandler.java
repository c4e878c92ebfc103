package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.tributary.broker.api.TopicLookup.Found;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.replica.ReplicaManager;
import io.tributary.broker.replica.ReplicaManager.LeaderRead;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsRequestData.ListOffsetsPartition;
import org.apache.kafka.common.message.ListOffsetsRequestData.ListOffsetsTopic;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.message.ListOffsetsResponseData.ListOffsetsPartitionResponse;
import org.apache.kafka.common.message.ListOffsetsResponseData.ListOffsetsTopicResponse;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.FileRecords.TimestampAndOffset;
import org.apache.kafka.common.requests.ListOffsetsRequest;

/**
 * ListOffsets, answered by the partition's leader: earliest (on a tiered log, in remote storage), earliest local,
 * latest (the high watermark), latest tiered (the last offset in remote storage; -1 if none), the first offset at
 * or after a timestamp, and the offset of the largest timestamp. Without tiered storage, "earliest local" is the
 * earliest and the tiered spec finds nothing (-1).
 */
final class ListOffsetsHandler {
    private static final long NOT_FOUND = -1;
    private static final short FIRST_VERSION_WITH_LEADER_EPOCH = 4;

    private final TopicLookup lookup;
    private final ReplicaManager replicas;

    ListOffsetsHandler(TopicManager topics, ReplicaManager replicas) {
        this.lookup = new TopicLookup(topics);
        this.replicas = replicas;
    }

    ListOffsetsResponseData handle(ListOffsetsRequestData request, short version) {
        ListOffsetsResponseData response = new ListOffsetsResponseData();
        for (ListOffsetsTopic topic : request.topics()) {
            Found found = lookup.find(topic.name(), null, false);
            List<ListOffsetsPartitionResponse> partitions = new ArrayList<>();
            for (ListOffsetsPartition partition : topic.partitions()) {
                if (found.topic().isEmpty()) {
                    partitions.add(result(partition, found.error(), NOT_FOUND, NOT_FOUND, -1));
                } else {
                    partitions.add(lookUp(new TopicPartition(found.topic().get().name(), partition.partitionIndex()), partition,
                            request.isolationLevel() == IsolationLevel.READ_COMMITTED.id()));
                }
                if (version < FIRST_VERSION_WITH_LEADER_EPOCH) {
                    partitions.get(partitions.size() - 1).setLeaderEpoch(-1);
                }
            }
            response.topics().add(new ListOffsetsTopicResponse().setName(topic.name()).setPartitions(partitions));
        }
        return response;
    }

    /** LATEST is the last stable offset for read_committed ({@code readCommitted}), the high watermark otherwise. */
    private ListOffsetsPartitionResponse lookUp(TopicPartition topicPartition, ListOffsetsPartition partition, boolean readCommitted) {
        try {
            LeaderRead leader = replicas.leaderRead(topicPartition, partition.currentLeaderEpoch(), readCommitted);
            PartitionLog partitionLog = leader.log();
            int epoch = leader.leaderEpoch();
            long timestamp = partition.timestamp();
            if (timestamp == ListOffsetsRequest.EARLIEST_TIMESTAMP) {
                return result(partition, Errors.NONE, NOT_FOUND, partitionLog.logStartOffset(), epoch);
            }
            if (timestamp == ListOffsetsRequest.EARLIEST_LOCAL_TIMESTAMP) {
                return result(partition, Errors.NONE, NOT_FOUND, partitionLog.localLogStartOffset(), epoch);
            }
            if (timestamp == ListOffsetsRequest.LATEST_TIERED_TIMESTAMP) {
                long remoteEnd = partitionLog.remoteLogEndOffset();
                return result(partition, Errors.NONE, NOT_FOUND, remoteEnd == PartitionLog.NOTHING_REMOTE ? NOT_FOUND : remoteEnd - 1,
                        epoch);
            }
            if (timestamp == ListOffsetsRequest.LATEST_TIMESTAMP) {
                return result(partition, Errors.NONE, NOT_FOUND, leader.lastStableOffset(), epoch);
            }
            if (timestamp == ListOffsetsRequest.MAX_TIMESTAMP) {
                return found(partition, partitionLog.maxTimestampAndOffset(), epoch);
            }
            if (timestamp < 0) {
                return result(partition, Errors.NONE, NOT_FOUND, NOT_FOUND, epoch); // tiered-storage specs
            }
            return found(partition, partitionLog.offsetForTimestamp(timestamp), epoch);
        } catch (RuntimeException e) {
            return result(partition, Errors.forException(e), NOT_FOUND, NOT_FOUND, -1);
        }
    }

    private static ListOffsetsPartitionResponse found(ListOffsetsPartition partition, Optional<TimestampAndOffset> found, int epoch) {
        return found.map(f -> result(partition, Errors.NONE, f.timestamp, f.offset, epoch))
                .orElseGet(() -> result(partition, Errors.NONE, NOT_FOUND, NOT_FOUND, epoch));
    }

    private static ListOffsetsPartitionResponse result(ListOffsetsPartition partition, Errors error, long timestamp, long offset,
                                                       int leaderEpoch) {
        return new ListOffsetsPartitionResponse()
                .setPartitionIndex(partition.partitionIndex())
                .setErrorCode(error.code())
                .setTimestamp(timestamp)
                .setOffset(offset)
                .setLeaderEpoch(error == Errors.NONE ? leaderEpoch : -1);
    }
}

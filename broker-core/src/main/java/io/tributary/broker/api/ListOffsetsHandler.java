package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.tributary.broker.api.TopicLookup.Found;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.log.PartitionLog;
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
 * ListOffsets: earliest, latest, the first offset at or after a timestamp, and the offset of the
 * largest timestamp. Without tiered storage, "earliest local" is the earliest and the tiered
 * specs find nothing (-1).
 */
final class ListOffsetsHandler {
    private static final long NOT_FOUND = -1;
    private static final short FIRST_VERSION_WITH_LEADER_EPOCH = 4;

    private final TopicManager topics;
    private final TopicLookup lookup;

    ListOffsetsHandler(TopicManager topics) {
        this.topics = topics;
        this.lookup = new TopicLookup(topics);
    }

    ListOffsetsResponseData handle(ListOffsetsRequestData request, short version) {
        ListOffsetsResponseData response = new ListOffsetsResponseData();
        for (ListOffsetsTopic topic : request.topics()) {
            Found found = lookup.find(topic.name(), null, false);
            List<ListOffsetsPartitionResponse> partitions = new ArrayList<>();
            for (ListOffsetsPartition partition : topic.partitions()) {
                Optional<PartitionLog> partitionLog = found.topic()
                        .flatMap(t -> topics.log(new TopicPartition(t.name(), partition.partitionIndex())));
                if (partitionLog.isEmpty()) {
                    Errors error = found.topic().isPresent() ? Errors.UNKNOWN_TOPIC_OR_PARTITION : found.error();
                    partitions.add(result(partition, error, NOT_FOUND, NOT_FOUND));
                } else {
                    partitions.add(lookUp(partitionLog.get(), partition));
                }
                if (version < FIRST_VERSION_WITH_LEADER_EPOCH) {
                    partitions.get(partitions.size() - 1).setLeaderEpoch(-1);
                }
            }
            response.topics().add(new ListOffsetsTopicResponse().setName(topic.name()).setPartitions(partitions));
        }
        return response;
    }

    private static ListOffsetsPartitionResponse lookUp(PartitionLog partitionLog, ListOffsetsPartition partition) {
        Errors epochError = LeaderEpochs.check(partition.currentLeaderEpoch());
        if (epochError != Errors.NONE) {
            return result(partition, epochError, NOT_FOUND, NOT_FOUND);
        }
        try {
            long timestamp = partition.timestamp();
            if (timestamp == ListOffsetsRequest.EARLIEST_TIMESTAMP || timestamp == ListOffsetsRequest.EARLIEST_LOCAL_TIMESTAMP) {
                return result(partition, Errors.NONE, NOT_FOUND, partitionLog.logStartOffset());
            }
            if (timestamp == ListOffsetsRequest.LATEST_TIMESTAMP) {
                return result(partition, Errors.NONE, NOT_FOUND, partitionLog.logEndOffset());
            }
            if (timestamp == ListOffsetsRequest.MAX_TIMESTAMP) {
                return found(partition, partitionLog.maxTimestampAndOffset());
            }
            if (timestamp < 0) {
                return result(partition, Errors.NONE, NOT_FOUND, NOT_FOUND); // tiered-storage specs
            }
            return found(partition, partitionLog.offsetForTimestamp(timestamp));
        } catch (RuntimeException e) {
            return result(partition, Errors.forException(e), NOT_FOUND, NOT_FOUND);
        }
    }

    private static ListOffsetsPartitionResponse found(ListOffsetsPartition partition, Optional<TimestampAndOffset> found) {
        return found.map(f -> result(partition, Errors.NONE, f.timestamp, f.offset))
                .orElseGet(() -> result(partition, Errors.NONE, NOT_FOUND, NOT_FOUND));
    }

    private static ListOffsetsPartitionResponse result(ListOffsetsPartition partition, Errors error, long timestamp, long offset) {
        return new ListOffsetsPartitionResponse()
                .setPartitionIndex(partition.partitionIndex())
                .setErrorCode(error.code())
                .setTimestamp(timestamp)
                .setOffset(offset)
                .setLeaderEpoch(error == Errors.NONE ? MetadataHandler.LEADER_EPOCH : -1);
    }
}

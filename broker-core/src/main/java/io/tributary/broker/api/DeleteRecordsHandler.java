package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.List;
import io.tributary.broker.api.TopicLookup.Found;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.replica.ReplicaManager;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DeleteRecordsRequestData.DeleteRecordsPartition;
import org.apache.kafka.common.message.DeleteRecordsRequestData.DeleteRecordsTopic;
import org.apache.kafka.common.message.DeleteRecordsResponseData;
import org.apache.kafka.common.message.DeleteRecordsResponseData.DeleteRecordsPartitionResult;
import org.apache.kafka.common.message.DeleteRecordsResponseData.DeleteRecordsPartitionResultCollection;
import org.apache.kafka.common.message.DeleteRecordsResponseData.DeleteRecordsTopicResult;
import org.apache.kafka.common.protocol.Errors;

/**
 * DeleteRecords, answered by each partition's leader: moves the log start offset up to the requested
 * offset (-1: the high watermark) and deletes the segments wholly below it. The new start offsets are
 * checkpointed before the answer, so deleted records stay deleted after a crash. The low watermark
 * returned is the leader's log start; followers follow it on their next fetch (Kafka instead waits up
 * to the request's timeout for every replica to have moved).
 */
final class DeleteRecordsHandler {
    private static final long UNKNOWN_LOW_WATERMARK = -1;

    private final TopicManager topics;
    private final TopicLookup lookup;
    private final ReplicaManager replicas;

    DeleteRecordsHandler(TopicManager topics, ReplicaManager replicas) {
        this.topics = topics;
        this.lookup = new TopicLookup(topics);
        this.replicas = replicas;
    }

    DeleteRecordsResponseData handle(DeleteRecordsRequestData request) {
        DeleteRecordsResponseData response = new DeleteRecordsResponseData();
        List<DeleteRecordsPartitionResult> moved = new ArrayList<>();
        for (DeleteRecordsTopic topic : request.topics()) {
            Found found = lookup.find(topic.name(), null, false);
            DeleteRecordsPartitionResultCollection results = new DeleteRecordsPartitionResultCollection();
            for (DeleteRecordsPartition partition : topic.partitions()) {
                DeleteRecordsPartitionResult result = found.topic().isEmpty()
                        ? result(partition, found.error(), UNKNOWN_LOW_WATERMARK)
                        : delete(new TopicPartition(topic.name(), partition.partitionIndex()), partition);
                if (result.errorCode() == Errors.NONE.code()) {
                    moved.add(result);
                }
                results.add(result);
            }
            response.topics().add(new DeleteRecordsTopicResult().setName(topic.name()).setPartitions(results));
        }
        if (!moved.isEmpty()) {
            checkpoint(moved);
        }
        return response;
    }

    private DeleteRecordsPartitionResult delete(TopicPartition topicPartition, DeleteRecordsPartition partition) {
        try {
            return result(partition, Errors.NONE, replicas.deleteRecordsBefore(topicPartition, partition.offset()));
        } catch (RuntimeException e) {
            return result(partition, Errors.forException(e), UNKNOWN_LOW_WATERMARK);
        }
    }

    // Readers already see the new starts; without the checkpoint a crash could bring the records back.
    private void checkpoint(List<DeleteRecordsPartitionResult> moved) {
        try {
            topics.checkpointLogStartOffsets();
        } catch (KafkaStorageException e) {
            moved.forEach(result -> result.setErrorCode(Errors.KAFKA_STORAGE_ERROR.code()).setLowWatermark(UNKNOWN_LOW_WATERMARK));
        }
    }

    private static DeleteRecordsPartitionResult result(DeleteRecordsPartition partition, Errors error, long lowWatermark) {
        return new DeleteRecordsPartitionResult().setPartitionIndex(partition.partitionIndex())
                .setErrorCode(error.code()).setLowWatermark(lowWatermark);
    }
}

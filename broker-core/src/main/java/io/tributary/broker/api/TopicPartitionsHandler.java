package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.cluster.TopicManager.TopicState;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.DescribeTopicPartitionsRequestData;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData.Cursor;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponsePartition;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopic;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DescribeTopicPartitions (KIP-966): the topics' partitions as Metadata describes them, in topic-name order from the
 * request's cursor, at most {@code ResponsePartitionLimit} partitions per response, with the cursor to go on from.
 * Without eligible leader replicas (a KRaft feature), the ELR lists are empty (clients read them, so never null). An empty topic list means every topic.
 */
final class TopicPartitionsHandler {
    private final TopicManager topics;
    private final MetadataHandler metadata;

    TopicPartitionsHandler(TopicManager topics, MetadataHandler metadata) {
        this.topics = topics;
        this.metadata = metadata;
    }

    DescribeTopicPartitionsResponseData describe(DescribeTopicPartitionsRequestData request) {
        List<String> names = new ArrayList<>();
        if (request.topics().isEmpty()) {
            topics.topics().forEach(topic -> names.add(topic.name()));
        } else {
            request.topics().forEach(topic -> names.add(topic.name()));
        }
        names.sort(Comparator.naturalOrder());
        var cursor = request.cursor();
        int remaining = Math.max(1, request.responsePartitionLimit());
        DescribeTopicPartitionsResponseData response = new DescribeTopicPartitionsResponseData();
        for (String name : names.stream().distinct().toList()) {
            if (cursor != null && name.compareTo(cursor.topicName()) < 0) {
                continue;
            }
            int first = cursor != null && name.equals(cursor.topicName()) ? cursor.partitionIndex() : 0;
            Optional<TopicState> topic = topics.topic(name);
            if (topic.isEmpty()) {
                response.topics().add(new DescribeTopicPartitionsResponseTopic().setName(name).setTopicId(Uuid.ZERO_UUID)
                        .setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()));
                continue;
            }
            if (remaining == 0) {
                response.setNextCursor(new Cursor().setTopicName(name).setPartitionIndex(first));
                break;
            }
            MetadataResponseTopic described = metadata.describe(topic.get());
            // Kafka fills the operations in every answer (the admin client shows them only when asked); all of them
            // here, the authorization step narrows them down where there are ACLs.
            DescribeTopicPartitionsResponseTopic result = new DescribeTopicPartitionsResponseTopic()
                    .setName(name).setTopicId(described.topicId()).setIsInternal(described.isInternal())
                    .setTopicAuthorizedOperations(AuthorizedOperations.all(ResourceType.TOPIC));
            for (MetadataResponsePartition partition : described.partitions()) {
                if (partition.partitionIndex() < first) {
                    continue;
                }
                if (remaining == 0) {
                    response.setNextCursor(new Cursor().setTopicName(name).setPartitionIndex(partition.partitionIndex()));
                    break;
                }
                result.partitions().add(new DescribeTopicPartitionsResponsePartition()
                        .setErrorCode(partition.errorCode())
                        .setPartitionIndex(partition.partitionIndex())
                        .setLeaderId(partition.leaderId())
                        .setLeaderEpoch(partition.leaderEpoch())
                        .setReplicaNodes(partition.replicaNodes())
                        .setIsrNodes(partition.isrNodes())
                        .setEligibleLeaderReplicas(List.of())
                        .setLastKnownElr(List.of())
                        .setOfflineReplicas(partition.offlineReplicas()));
                remaining--;
            }
            response.topics().add(result);
            if (response.nextCursor() != null) {
                break;
            }
        }
        return response;
    }
}

package io.tributary.broker.group;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.tributary.broker.group.consumer.Partitions;
import io.tributary.broker.group.consumer.SubscribableTopics;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.utils.Utils;

/**
 * The consumer protocol that classic consumers embed in JoinGroup (their subscription) and SyncGroup (their
 * assignment), read and written with kafka-clients' {@link ConsumerProtocol}, with partitions by topic id as consumer
 * groups keep them. Topics the cluster does not know are left out.
 */
final class EmbeddedConsumerProtocol {
    private EmbeddedConsumerProtocol() {
    }

    /** What a classic member subscribes to, and the partitions it says it owns. */
    record Subscription(List<String> topics, Map<Uuid, Set<Integer>> owned, String rackId) {
    }

    /** @throws RuntimeException (kafka-clients' SchemaException and others) if the metadata is not a consumer subscription */
    static Subscription subscription(byte[] metadata, SubscribableTopics topics) {
        ConsumerPartitionAssignor.Subscription subscription = ConsumerProtocol.deserializeSubscription(ByteBuffer.wrap(metadata));
        return new Subscription(List.copyOf(subscription.topics()), byId(subscription.ownedPartitions(), topics),
                subscription.rackId().orElse(null));
    }

    /**
     * The partitions of an assignment a classic leader handed out (none if it is empty: a member that never synced).
     *
     * @throws UnsupportedVersionException if it carries user data (a custom assignor's), which a consumer group would lose
     * @throws RuntimeException if it is not a consumer assignment
     */
    static Map<Uuid, Set<Integer>> assignedPartitions(byte[] assignment, SubscribableTopics topics) {
        if (assignment.length == 0) {
            return Map.of();
        }
        ConsumerPartitionAssignor.Assignment decoded = ConsumerProtocol.deserializeAssignment(ByteBuffer.wrap(assignment));
        if (decoded.userData() != null && decoded.userData().hasRemaining()) {
            throw new UnsupportedVersionException("the assignment carries user data of a custom assignor");
        }
        return byId(decoded.partitions(), topics);
    }

    /** {@code partitions} as a SyncGroup assignment, in the consumer protocol version of the member's {@code metadata}. */
    static byte[] assignment(Map<Uuid, Set<Integer>> partitions, SubscribableTopics topics, byte[] metadata) {
        List<TopicPartition> named = new ArrayList<>();
        partitions.forEach((topicId, ids) -> topics.byId(topicId).ifPresent(topic ->
                ids.stream().sorted().forEach(partition -> named.add(new TopicPartition(topic.name(), partition)))));
        short version = ConsumerProtocol.deserializeVersion(ByteBuffer.wrap(metadata));
        return Utils.toArray(ConsumerProtocol.serializeAssignment(new ConsumerPartitionAssignor.Assignment(named), version));
    }

    private static Map<Uuid, Set<Integer>> byId(List<TopicPartition> partitions, SubscribableTopics topics) {
        Map<Uuid, Set<Integer>> byId = new HashMap<>();
        for (TopicPartition partition : partitions) {
            topics.byName(partition.topic()).ifPresent(topic ->
                    byId.computeIfAbsent(topic.id(), id -> new HashSet<>()).add(partition.partition()));
        }
        return Partitions.copy(byId);
    }
}

package io.tributary.broker.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import io.tributary.broker.cluster.TopicAssignment;
import io.tributary.broker.cluster.TopicStore;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The partition health gauges as Kafka counts them, from a broker's view of a real ZooKeeper. */
class PartitionHealthTest {
    @RegisterExtension
    final ZooKeeperView zookeeper = new ZooKeeperView();

    /**
     * Kafka counts a partition under-replicated when its ISR is smaller than its replicas before the reassignment: the
     * replicas a reassignment adds are not in sync yet by design, and a long move must not look like a failure.
     */
    @Test
    void replicasBeingAddedByAReassignmentDoNotMakeAPartitionUnderReplicated() {
        var moving = TopicAssignment.Reassignment.moving(List.of(0, 1), List.of(0, 1, 2));
        TopicStore topics = new TopicStore(zookeeper.zk());
        topics.create(new TopicAssignment("moving", Uuid.randomUuid(), new TreeMap<>(Map.of(0, moving.getKey())),
                new TreeMap<>(Map.of(0, moving.getValue()))), Map.of());
        topics.create(new TopicAssignment("shrunk", Uuid.randomUuid(), new TreeMap<>(Map.of(0, List.of(0, 1)))), Map.of());
        PartitionStateStore states = new PartitionStateStore(zookeeper.zk());
        states.createIfAbsent(new TopicPartition("moving", 0), new PartitionState(0, 0, PartitionState.UNKNOWN_BROKER_EPOCH,
                List.of(0, 1), 1, 0, 0));
        states.createIfAbsent(new TopicPartition("shrunk", 0), new PartitionState(0, 0, PartitionState.UNKNOWN_BROKER_EPOCH,
                List.of(0), 1, 0, 0));
        Awaitility.await("both topics seen").atMost(Duration.ofSeconds(30))
                .until(() -> zookeeper.view().partitionStates().size() == 2 && !zookeeper.view().replicas("shrunk").isEmpty()
                        && !zookeeper.view().replicas("moving").isEmpty());

        assertThat(new PartitionHealth(zookeeper.view(), 0).underReplicatedPartitions()).as("shrunk-0 only").isEqualTo(1);
        assertThat(new PartitionHealth(zookeeper.view(), 1).underReplicatedPartitions()).as("counted by the leader only").isZero();
    }
}

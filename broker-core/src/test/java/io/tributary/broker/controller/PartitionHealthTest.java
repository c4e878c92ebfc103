package io.tributary.broker.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.TopicAssignment;
import io.tributary.broker.cluster.TopicStore;
import io.tributary.broker.cluster.ZkClient;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The partition health gauges as Kafka counts them, from a broker's view of a real ZooKeeper. */
class PartitionHealthTest {
    private static final int CONNECTION_TIMEOUT_MS = 30_000;

    @TempDir
    Path dir;
    private EmbeddedZooKeeper server;
    private ZkClient zk;
    private ClusterView view;

    @BeforeEach
    void start() throws Exception {
        server = EmbeddedZooKeeper.start(dir, 0);
        zk = ZkClient.connect(server.connectString(), 6_000, CONNECTION_TIMEOUT_MS);
        view = ClusterView.start(zk, CONNECTION_TIMEOUT_MS);
    }

    @AfterEach
    void stop() throws Exception {
        view.close();
        zk.close();
        server.close();
    }

    /**
     * Kafka counts a partition under-replicated when its ISR is smaller than its replicas before the reassignment: the
     * replicas a reassignment adds are not in sync yet by design, and a long move must not look like a failure.
     */
    @Test
    void replicasBeingAddedByAReassignmentDoNotMakeAPartitionUnderReplicated() {
        var moving = TopicAssignment.Reassignment.moving(List.of(0, 1), List.of(0, 1, 2));
        TopicStore topics = new TopicStore(zk);
        topics.create(new TopicAssignment("moving", Uuid.randomUuid(), new TreeMap<>(Map.of(0, moving.getKey())),
                new TreeMap<>(Map.of(0, moving.getValue()))), Map.of());
        topics.create(new TopicAssignment("shrunk", Uuid.randomUuid(), new TreeMap<>(Map.of(0, List.of(0, 1)))), Map.of());
        PartitionStateStore states = new PartitionStateStore(zk);
        states.createIfAbsent(new TopicPartition("moving", 0), new PartitionState(0, 0, PartitionState.UNKNOWN_BROKER_EPOCH,
                List.of(0, 1), 1, 0, 0));
        states.createIfAbsent(new TopicPartition("shrunk", 0), new PartitionState(0, 0, PartitionState.UNKNOWN_BROKER_EPOCH,
                List.of(0), 1, 0, 0));
        Awaitility.await("both topics seen").atMost(Duration.ofSeconds(30))
                .until(() -> view.partitionStates().size() == 2 && !view.replicas("shrunk").isEmpty() && !view.replicas("moving").isEmpty());

        assertThat(new PartitionHealth(view, 0).underReplicatedPartitions()).as("shrunk-0 only").isEqualTo(1);
        assertThat(new PartitionHealth(view, 1).underReplicatedPartitions()).as("counted by the leader only").isZero();
    }
}

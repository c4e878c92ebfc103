package io.tributary.broker.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.TopicStore;
import io.tributary.broker.cluster.ZkClient;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ControllerMovedException;
import org.apache.kafka.common.utils.Time;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two controllers against a real ZooKeeper server: broker 1 is elected, loses its session while it still believes
 * it is the controller (a pause past the session timeout), and broker 2 is elected in its place. Whatever broker 1
 * then writes as controller must be refused; broker 2's writes go through.
 */
class ControllerFencingTest {
    private static final TopicPartition PARTITION = new TopicPartition("fenced", 0);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dir;
    private EmbeddedZooKeeper server;
    private ZkClient first;
    private ZkClient second;

    @BeforeEach
    void start() throws Exception {
        server = EmbeddedZooKeeper.start(dir, 0);
        first = ZkClient.connect(server.connectString(), 4_000, 10_000);
        second = ZkClient.connect(server.connectString(), 4_000, 10_000);
    }

    @AfterEach
    void stop() {
        first.close();
        second.close();
        server.close();
    }

    @Test
    @Timeout(60)
    void aDeposedControllerCannotWritePartitionStates() throws Exception {
        second.write(TopicStore.topicPath(PARTITION.topic()), "{}".getBytes(StandardCharsets.UTF_8));
        PartitionStateStore secondStates = new PartitionStateStore(second);
        secondStates.createIfAbsent(PARTITION, new PartitionState(1, 0, 11, List.of(1, 2, 3), 0, -1, PartitionState.NOT_STORED));

        ControllerElection oldElection = new ControllerElection(first, 1, Time.SYSTEM);
        ControllerElection newElection = new ControllerElection(second, 2, Time.SYSTEM);
        var oldEpoch = oldElection.maybeElect().orElseThrow();
        assertThat(newElection.maybeElect()).as("broker 1 controls").isEmpty();

        expireSession(first);
        var newEpoch = Awaitility.await("broker 2 elected").atMost(TIMEOUT).pollInterval(Duration.ofMillis(100))
                .until(newElection::maybeElect, Optional::isPresent).orElseThrow();

        PartitionStateStore oldStates = new PartitionStateStore(first);
        Awaitility.await("broker 1 reconnected with a new session").atMost(TIMEOUT).pollInterval(Duration.ofMillis(100))
                .ignoreExceptions().until(() -> oldStates.read(PARTITION).isPresent());
        PartitionState stored = oldStates.read(PARTITION).orElseThrow();
        PartitionState deposedDecision = stored.withLeader(3, 33, List.of(3), 1);
        assertThatThrownBy(() -> oldStates.updateAsController(PARTITION, deposedDecision, oldEpoch))
                .as("a write of the controller of epoch " + oldEpoch.epoch() + " after epoch " + newEpoch.epoch() + " was elected")
                .isInstanceOf(ControllerMovedException.class);
        assertThatThrownBy(() -> oldStates.createIfAbsentAsController(new TopicPartition(PARTITION.topic(), 1), deposedDecision, oldEpoch))
                .as("nor may it create states").isInstanceOf(ControllerMovedException.class);
        assertThat(oldStates.read(new TopicPartition(PARTITION.topic(), 1))).isEmpty();
        assertThat(secondStates.read(PARTITION).orElseThrow()).as("unchanged").isEqualTo(stored);

        PartitionState decision = stored.withLeader(2, 22, List.of(2, 3), 2);
        assertThat(secondStates.updateAsController(PARTITION, decision, newEpoch)).as("the current controller's write").isPresent();
        assertThat(secondStates.read(PARTITION).orElseThrow().leader()).isEqualTo(2);
        assertThat(secondStates.updateAsController(PARTITION, decision, newEpoch)).as("a stale state version still loses").isEmpty();
    }

    /** Ends the client's ZooKeeper session on the server, as a pause past the session timeout would. */
    private static void expireSession(ZkClient client) throws Exception {
        ZooKeeper handle = client.curator().getZookeeperClient().getZooKeeper();
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper sameSession = new ZooKeeper(client.curator().getZookeeperClient().getCurrentConnectionString(), 4_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, handle.getSessionId(), handle.getSessionPasswd());
        assertThat(connected.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("attached to the session").isTrue();
        sameSession.close(); // closing any handle of a session ends it, for every handle
    }
}

package io.tributary.broker.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.ZkClient;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker restarted after a SIGKILL finds the {@code /controller} node of its earlier process, whose session
 * ZooKeeper keeps for a session timeout. Where that process is certainly gone (it hosted the embedded ZooKeeper), the
 * node is deleted and the new process can be elected at once; a node of another broker is never touched.
 */
@Timeout(60)
class EarlierControllerNodeTest {
    /** Long enough that nothing here can be an expiry. */
    private static final int SESSION_TIMEOUT_MS = 30_000;

    @TempDir
    Path dir;
    private EmbeddedZooKeeper server;
    private ZkClient earlier;
    private ZkClient restarted;

    @BeforeEach
    void start() throws Exception {
        server = EmbeddedZooKeeper.start(dir, 0);
        earlier = ZkClient.connect(server.connectString(), SESSION_TIMEOUT_MS, 10_000);
        restarted = ZkClient.connect(server.connectString(), SESSION_TIMEOUT_MS, 10_000);
    }

    @AfterEach
    void stop() {
        earlier.close();
        restarted.close();
        server.close();
    }

    @Test
    void theNodeOfAnEarlierProcessOfThisBrokerIsDeletedAndTheNewProcessElected() {
        assertThat(new ControllerElection(earlier, 1, Time.SYSTEM).maybeElect()).isPresent();
        ControllerElection election = new ControllerElection(restarted, 1, Time.SYSTEM);
        assertThat(election.maybeElect()).as("while the earlier process's node stands").isEmpty();

        election.deleteEarlierProcessesNode();

        assertThat(election.maybeElect()).as("the restarted process").hasValueSatisfying(epoch -> assertThat(epoch.epoch()).isEqualTo(2));
    }

    @Test
    void theNodeOfAnotherBrokerStays() {
        assertThat(new ControllerElection(earlier, 2, Time.SYSTEM).maybeElect()).isPresent();
        ControllerElection election = new ControllerElection(restarted, 1, Time.SYSTEM);

        election.deleteEarlierProcessesNode();

        assertThat(election.maybeElect()).as("broker 2 still controls").isEmpty();
        assertThat(ClusterView.controllerIdOf(restarted.read(ClusterView.CONTROLLER_PATH).orElseThrow().data())).isEqualTo(2);
    }

    @Test
    void itsOwnNodeStays() {
        ControllerElection election = new ControllerElection(restarted, 1, Time.SYSTEM);
        assertThat(election.maybeElect()).isPresent();

        election.deleteEarlierProcessesNode();

        assertThat(election.maybeElect()).as("still the controller, same epoch").hasValueSatisfying(epoch -> assertThat(epoch.epoch()).isEqualTo(1));
    }
}

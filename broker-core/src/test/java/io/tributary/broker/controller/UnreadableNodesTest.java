package io.tributary.broker.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.TopicStore;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.testing.CapturedLog;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node someone wrote garbage into (a topic's assignment here) is ignored with one warning naming it and the parse
 * error, and one more for each new version: the view reads it on every look-up, several times a second.
 */
@Timeout(60)
class UnreadableNodesTest {
    private static final int CONNECTION_TIMEOUT_MS = 10_000;

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

    @Test
    void anUnreadableAssignmentIsWarnedAboutOncePerVersion() throws Exception {
        String path = TopicStore.topicPath("garbled");
        try (CapturedLog log = CapturedLog.of(ClusterView.class)) {
            zk.curator().create().creatingParentsIfNeeded().forPath(path, "garbage{".getBytes(StandardCharsets.UTF_8));
            awaitWarnings(log, 1);
            for (int i = 0; i < 20; i++) {
                assertThat(view.assignment("garbled")).isEmpty();
            }
            assertThat(warnings(log)).singleElement().asString()
                    .contains("unreadable assignment " + path, "does not hold valid JSON");

            zk.curator().setData().forPath(path, "{\"version\":".getBytes(StandardCharsets.UTF_8));
            awaitWarnings(log, 2);
            for (int i = 0; i < 20; i++) {
                assertThat(view.assignment("garbled")).isEmpty();
            }
            assertThat(warnings(log)).hasSize(2);
        }
    }

    /** Reads the assignment until the view has the node's current version and has warned {@code count} times. */
    private void awaitWarnings(CapturedLog log, int count) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            view.assignment("garbled");
            return warnings(log).size() >= count;
        });
    }

    private static List<String> warnings(CapturedLog log) {
        return log.lines().stream().map(CapturedLog.Line::message).filter(line -> line.contains("unreadable")).toList();
    }
}

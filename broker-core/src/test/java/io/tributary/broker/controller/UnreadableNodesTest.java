package io.tributary.broker.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import io.tributary.broker.cluster.TopicStore;
import io.tributary.broker.testing.CapturedLog;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;

/**
 * A node someone wrote garbage into (a topic's assignment here) is ignored with one warning naming it and the parse
 * error, and one more for each new version: the view reads it on every look-up, several times a second.
 */
@Timeout(60)
class UnreadableNodesTest {
    @RegisterExtension
    final ZooKeeperView zookeeper = new ZooKeeperView();

    @Test
    void anUnreadableAssignmentIsWarnedAboutOncePerVersion() throws Exception {
        String path = TopicStore.topicPath("garbled");
        try (CapturedLog log = CapturedLog.of(ClusterView.class)) {
            zookeeper.zk().curator().create().creatingParentsIfNeeded().forPath(path, "garbage{".getBytes(StandardCharsets.UTF_8));
            awaitWarnings(log, 1);
            for (int i = 0; i < 20; i++) {
                assertThat(zookeeper.view().assignment("garbled")).isEmpty();
            }
            assertThat(warnings(log)).singleElement().asString()
                    .contains("unreadable assignment " + path, "does not hold valid JSON");

            zookeeper.zk().curator().setData().forPath(path, "{\"version\":".getBytes(StandardCharsets.UTF_8));
            awaitWarnings(log, 2);
            for (int i = 0; i < 20; i++) {
                assertThat(zookeeper.view().assignment("garbled")).isEmpty();
            }
            assertThat(warnings(log)).hasSize(2);
        }
    }

    /** Reads the assignment until the view has the node's current version and has warned {@code count} times. */
    private void awaitWarnings(CapturedLog log, int count) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            zookeeper.view().assignment("garbled");
            return warnings(log).size() >= count;
        });
    }

    private static List<String> warnings(CapturedLog log) {
        return log.lines().stream().map(CapturedLog.Line::message).filter(line -> line.contains("unreadable")).toList();
    }
}

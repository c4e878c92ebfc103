package io.tributary.broker.controller;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.ZkClient;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For each test: a real ZooKeeper server in a folder of its own, a client of it, and a broker's {@link ClusterView}
 * through that client; all stopped and deleted after the test.
 */
final class ZooKeeperView implements BeforeEachCallback, AfterEachCallback {
    private static final int CONNECTION_TIMEOUT_MS = 30_000;

    private Path dir;
    private EmbeddedZooKeeper server;
    private ZkClient zk;
    private ClusterView view;

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        dir = Files.createTempDirectory("zookeeper-view");
        server = EmbeddedZooKeeper.start(dir, 0);
        zk = ZkClient.connect(server.connectString(), 6_000, CONNECTION_TIMEOUT_MS);
        view = ClusterView.start(zk, CONNECTION_TIMEOUT_MS);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        view.close();
        zk.close();
        server.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    ZkClient zk() {
        return zk;
    }

    ClusterView view() {
        return view;
    }
}

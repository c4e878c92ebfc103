package io.tributary.broker.cluster;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * A real, single-node ZooKeeper server in the broker's JVM, for brokers started without
 * {@code zookeeper.connect}. Binds 127.0.0.1 only; port 0 picks a free port.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
    private static final int TICK_MS = 500;
    private static final int MAX_CLIENT_CONNECTIONS = 100;

    private final ZooKeeperServer server;
    private final ServerCnxnFactory connections;

    private EmbeddedZooKeeper(ZooKeeperServer server, ServerCnxnFactory connections) {
        this.server = server;
        this.connections = connections;
    }

    /** Starts a server whose snapshots and transaction log live in {@code dataDir}. */
    public static EmbeddedZooKeeper start(Path dataDir, int port) throws IOException {
        Files.createDirectories(dataDir);
        ZooKeeperServer server = new ZooKeeperServer(dataDir.toFile(), dataDir.toFile(), TICK_MS);
        server.setMinSessionTimeout(2 * TICK_MS);
        server.setMaxSessionTimeout(120_000);
        ServerCnxnFactory connections = ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", port), MAX_CLIENT_CONNECTIONS);
        try {
            connections.startup(server);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            connections.shutdown();
            throw new IOException("interrupted while starting ZooKeeper", e);
        }
        return new EmbeddedZooKeeper(server, connections);
    }

    public int port() {
        return connections.getLocalPort();
    }

    public String connectString() {
        return "127.0.0.1:" + port();
    }

    @Override
    public void close() {
        connections.shutdown();
        server.shutdown();
    }
}

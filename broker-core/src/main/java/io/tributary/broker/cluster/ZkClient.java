package io.tributary.broker.cluster;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The few ZooKeeper operations the broker needs, over Curator (which reconnects with
 * exponential backoff). Failures to reach ZooKeeper surface as kafka-clients'
 * {@link TimeoutException}, i.e. a retriable REQUEST_TIMED_OUT for the client. Thread-safe.
 */
public final class ZkClient implements AutoCloseable {
    private final CuratorFramework curator;

    private ZkClient(CuratorFramework curator) {
        this.curator = curator;
    }

    /**
     * Connects, waiting up to {@code connectionTimeoutMs} for the first session.
     *
     * @throws TimeoutException if ZooKeeper cannot be reached in time
     */
    public static ZkClient connect(String connectString, int sessionTimeoutMs, int connectionTimeoutMs) throws InterruptedException {
        CuratorFramework curator = CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs(sessionTimeoutMs)
                .connectionTimeoutMs(connectionTimeoutMs)
                .retryPolicy(new BoundedExponentialBackoffRetry(100, 5_000, 3))
                .build();
        curator.start();
        if (!curator.blockUntilConnected(connectionTimeoutMs, TimeUnit.MILLISECONDS)) {
            curator.close();
            throw new TimeoutException("could not connect to ZooKeeper at " + connectString + " within " + connectionTimeoutMs + " ms");
        }
        return new ZkClient(curator);
    }

    /** For Curator recipes (the ephemeral registration, the controller election, the cluster watches). */
    public CuratorFramework curator() {
        return curator;
    }

    public Optional<Versioned> read(String path) {
        try {
            Stat stat = new Stat();
            byte[] data = curator.getData().storingStatIn(stat).forPath(path);
            return Optional.of(new Versioned(data, stat.getVersion()));
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        } catch (Exception e) {
            throw unavailable("read " + path, e);
        }
    }

    public List<String> children(String path) {
        try {
            return curator.getChildren().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        } catch (Exception e) {
            throw unavailable("list " + path, e);
        }
    }

    /** @return false if the node already existed (it is left unchanged) */
    public boolean createIfAbsent(String path, byte[] data) {
        try {
            curator.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(path, data);
            return true;
        } catch (KeeperException.NodeExistsException e) {
            return false;
        } catch (Exception e) {
            throw unavailable("create " + path, e);
        }
    }

    /**
     * Creates {@code path} and any missing nodes between it and {@code ancestor}, but never
     * {@code ancestor} itself: if that is gone (deleted concurrently), nothing is created. This is
     * what keeps a child write racing with a recursive delete from resurrecting the parent.
     *
     * @return false if the node already existed or {@code ancestor} does not exist
     */
    public boolean createIfAbsentUnder(String ancestor, String path, byte[] data) {
        if (!path.startsWith(ancestor + "/")) {
            throw new IllegalArgumentException(path + " is not below " + ancestor);
        }
        String[] parts = path.substring(ancestor.length() + 1).split("/");
        StringBuilder current = new StringBuilder(ancestor);
        try {
            for (int i = 0; i < parts.length; i++) {
                current.append('/').append(parts[i]);
                boolean last = i == parts.length - 1;
                try {
                    curator.create().withMode(CreateMode.PERSISTENT).forPath(current.toString(), last ? data : new byte[0]);
                } catch (KeeperException.NodeExistsException e) {
                    if (last) {
                        return false;
                    }
                }
            }
            return true;
        } catch (KeeperException.NoNodeException e) {
            return false;
        } catch (Exception e) {
            throw unavailable("create " + path, e);
        }
    }

    /** Creates or overwrites a persistent node. */
    public void write(String path, byte[] data) {
        if (!createIfAbsent(path, data)) {
            try {
                curator.setData().forPath(path, data);
            } catch (Exception e) {
                throw unavailable("write " + path, e);
            }
        }
    }

    /**
     * Overwrites the node only if it is still at {@code expectedVersion}.
     *
     * @return false if someone else changed it first
     */
    public boolean compareAndSet(String path, byte[] data, int expectedVersion) {
        try {
            curator.setData().withVersion(expectedVersion).forPath(path, data);
            return true;
        } catch (KeeperException.BadVersionException e) {
            return false;
        } catch (Exception e) {
            throw unavailable("write " + path, e);
        }
    }

    /** Deletes the node and everything under it; absent is fine. */
    public void deleteRecursively(String path) {
        try {
            curator.delete().deletingChildrenIfNeeded().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            // already gone
        } catch (Exception e) {
            throw unavailable("delete " + path, e);
        }
    }

    private static TimeoutException unavailable(String what, Exception cause) {
        if (cause instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new TimeoutException("ZooKeeper unavailable: could not " + what + ": " + cause.getMessage(), cause);
    }

    @Override
    public void close() {
        curator.close();
    }

    /** A node's data and the version it was read at. */
    public record Versioned(byte[] data, int version) {
    }
}

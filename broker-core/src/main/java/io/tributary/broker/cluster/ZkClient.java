package io.tributary.broker.cluster;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.CuratorListener;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Environment;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

/**
 * The few ZooKeeper operations the broker needs, over Curator (which reconnects with
 * exponential backoff). Failures to reach ZooKeeper surface as kafka-clients'
 * {@link TimeoutException}, i.e. a retriable REQUEST_TIMED_OUT for the client. Thread-safe.
 *
 * <p>The server syncs its transaction log to disk once per write, and a busy disk can make each
 * sync take a second. Operations on many nodes at once (a topic's partition states, a deleted
 * topic's tree) therefore go as one multi-operation transaction: one sync, however many nodes.
 */
public final class ZkClient implements AutoCloseable {
    /** Operations per transaction, well under the server's 1 MiB request limit for our small nodes. */
    private static final int MAX_TRANSACTION_OPS = 500;

    private final CuratorFramework curator;
    private final int configuredSessionTimeoutMs;

    private ZkClient(CuratorFramework curator, int configuredSessionTimeoutMs) {
        this.curator = curator;
        this.configuredSessionTimeoutMs = configuredSessionTimeoutMs;
    }

    /**
     * Connects as a tool does: the nodes it creates are secure ({@link ZooKeeperAcls#SECURE}) exactly when this JVM
     * logs in to ZooKeeper with SASL, as Kafka's tools decided.
     *
     * @see #connect(String, int, int, ZooKeeperAcls)
     */
    public static ZkClient connect(String connectString, int sessionTimeoutMs, int connectionTimeoutMs) throws InterruptedException {
        return connect(connectString, sessionTimeoutMs, connectionTimeoutMs, ZooKeeperAcls.of(ZooKeeperLogin.section().isPresent()));
    }

    /**
     * Connects, waiting up to {@code connectionTimeoutMs} for the first session and, when this JVM logs in to
     * ZooKeeper with SASL ({@link ZooKeeperLogin}), for the login to be accepted. Every node this client creates
     * (its recipes' included) gets the ACL {@code acls} gives its path.
     *
     * @throws TimeoutException if ZooKeeper cannot be reached, or does not answer the login, in time
     * @throws ZooKeeperLoginException if ZooKeeper refuses the login
     */
    public static ZkClient connect(String connectString, int sessionTimeoutMs, int connectionTimeoutMs, ZooKeeperAcls acls)
            throws InterruptedException {
        Optional<String> loginSection = ZooKeeperLogin.section();
        CuratorFramework curator = CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs(sessionTimeoutMs)
                .connectionTimeoutMs(connectionTimeoutMs)
                .retryPolicy(new BoundedExponentialBackoffRetry(100, 5_000, 3))
                .aclProvider(acls)
                .zkClientConfig(ZooKeeperLogin.clientConfig())
                .build();
        CompletableFuture<Watcher.Event.KeeperState> login = new CompletableFuture<>();
        CuratorListener loginOutcome = (client, event) -> {
            WatchedEvent watched = event.getWatchedEvent();
            if (watched != null && (watched.getState() == Watcher.Event.KeeperState.SaslAuthenticated
                    || watched.getState() == Watcher.Event.KeeperState.AuthFailed)) {
                login.complete(watched.getState());
            }
        };
        curator.getCuratorListenable().addListener(loginOutcome);
        curator.start();
        try {
            if (!curator.blockUntilConnected(connectionTimeoutMs, TimeUnit.MILLISECONDS)) {
                throw new TimeoutException("could not connect to ZooKeeper at " + connectString + " within " + connectionTimeoutMs + " ms");
            }
            if (loginSection.isPresent()) {
                awaitLogin(login, connectString, loginSection.get(), connectionTimeoutMs);
            }
        } catch (InterruptedException | RuntimeException e) {
            curator.close();
            throw e;
        }
        curator.getCuratorListenable().removeListener(loginOutcome);
        return new ZkClient(curator, sessionTimeoutMs);
    }

    /** ZooKeeper's client logs in right after connecting and reports the outcome as an event, before any request. */
    private static void awaitLogin(CompletableFuture<Watcher.Event.KeeperState> login, String connectString, String section,
                                   int timeoutMs) throws InterruptedException {
        Watcher.Event.KeeperState outcome;
        try {
            outcome = login.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("ZooKeeper at " + connectString + " did not answer the SASL login (JAAS section " + section
                    + ") within " + timeoutMs + " ms");
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        if (outcome == Watcher.Event.KeeperState.AuthFailed) {
            throw new ZooKeeperLoginException("ZooKeeper at " + connectString + " refused the SASL login of JAAS section " + section
                    + " (" + System.getProperty(Environment.JAAS_CONF_KEY) + "): a wrong user or password, or a server without SASL");
        }
    }

    /** For Curator recipes (the ephemeral registration, the controller election, the cluster watches). */
    public CuratorFramework curator() {
        return curator;
    }

    /**
     * How long after Curator reports the connection SUSPENDED the server may already have expired this client's
     * session. The client suspends a connection on which it has heard nothing for its read timeout (2/3 of the
     * negotiated session timeout); the server expires a session it has not heard from for the whole timeout. So the
     * earliest expiry is the rest, a third of the timeout, after a suspension (sooner than Curator's LOST, which
     * comes a whole session timeout after the suspension).
     */
    public long sessionMayExpireAfterSuspensionMs() {
        int negotiated = curator.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
        int sessionTimeoutMs = negotiated > 0 ? negotiated : configuredSessionTimeoutMs;
        return sessionTimeoutMs - sessionTimeoutMs * 2L / 3;
    }

    /** The id of the ZooKeeper session this client has now, or 0 while it has none. */
    public long sessionId() {
        try {
            return curator.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            return 0;
        }
    }

    public Optional<Versioned> read(String path) {
        try {
            Stat stat = new Stat();
            byte[] data = curator.getData().storingStatIn(stat).forPath(path);
            return Optional.of(new Versioned(data, stat.getVersion(), stat.getMzxid()));
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
        return createIfAbsentUnder(ancestor, path, data, Optional.empty());
    }

    /**
     * {@link #createIfAbsentUnder(String, String, byte[])} made only while {@code fence} holds: the node itself is
     * created in one transaction with the fence's check (empty parents on the way may be created regardless).
     *
     * @throws FenceFailedException if the fenced node is gone or at another version
     */
    public boolean createIfAbsentUnder(String ancestor, String path, byte[] data, Fence fence) {
        return createIfAbsentUnder(ancestor, path, data, Optional.of(fence));
    }

    private boolean createIfAbsentUnder(String ancestor, String path, byte[] data, Optional<Fence> fence) {
        requireBelow(ancestor, path);
        String[] parts = path.substring(ancestor.length() + 1).split("/");
        StringBuilder current = new StringBuilder(ancestor);
        try {
            for (int i = 0; i < parts.length; i++) {
                current.append('/').append(parts[i]);
                boolean last = i == parts.length - 1;
                try {
                    if (last && fence.isPresent()) {
                        fenced(fence.get(), curator.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(path, data));
                    } else {
                        curator.create().withMode(CreateMode.PERSISTENT).forPath(current.toString(), last ? data : new byte[0]);
                    }
                } catch (KeeperException.NodeExistsException e) {
                    if (last) {
                        return false;
                    }
                }
            }
            return true;
        } catch (KeeperException.NoNodeException e) {
            return false;
        } catch (FenceFailedException e) {
            throw e;
        } catch (Exception e) {
            throw unavailable("create " + path, e);
        }
    }

    /**
     * {@link #createIfAbsentUnder} for many nodes under one ancestor, in one transaction when none of
     * them exists yet. If a concurrent change makes the transaction fail (a node appeared, or the
     * ancestor was deleted), the nodes are created one at a time, each with that method's rules.
     */
    public void createAllIfAbsentUnder(String ancestor, Map<String, byte[]> nodes) {
        try {
            List<CuratorOp> creates = new ArrayList<>();
            Set<String> parents = new HashSet<>();
            for (Map.Entry<String, byte[]> node : nodes.entrySet()) {
                String path = node.getKey();
                requireBelow(ancestor, path);
                for (int slash = path.indexOf('/', ancestor.length() + 1); slash > 0; slash = path.indexOf('/', slash + 1)) {
                    String parent = path.substring(0, slash);
                    if (parents.add(parent) && curator.checkExists().forPath(parent) == null) {
                        creates.add(curator.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(parent, new byte[0]));
                    }
                }
                creates.add(curator.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(path, node.getValue()));
            }
            commit(creates);
        } catch (KeeperException.NodeExistsException | KeeperException.NoNodeException e) {
            nodes.forEach((path, data) -> createIfAbsentUnder(ancestor, path, data));
        } catch (Exception e) {
            throw unavailable("create nodes under " + ancestor, e);
        }
    }

    /**
     * Creates a persistent sequential node {@code prefix<10-digit sequence number>} (and missing parents), as
     * change notifications are.
     */
    public void createSequential(String prefix, byte[] data) {
        try {
            curator.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(prefix, data);
        } catch (Exception e) {
            throw unavailable("create " + prefix + "*", e);
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
     * @return the zxid of the write, or empty if someone else changed the node first
     */
    public OptionalLong compareAndSet(String path, byte[] data, int expectedVersion) {
        try {
            return OptionalLong.of(curator.setData().withVersion(expectedVersion).forPath(path, data).getMzxid());
        } catch (KeeperException.BadVersionException e) {
            return OptionalLong.empty();
        } catch (Exception e) {
            throw unavailable("write " + path, e);
        }
    }

    /**
     * {@link #compareAndSet} made only while {@code fence} holds, in one transaction with the fence's check.
     *
     * @throws FenceFailedException if the fenced node is gone or at another version
     */
    public OptionalLong compareAndSet(String path, byte[] data, int expectedVersion, Fence fence) {
        try {
            List<CuratorTransactionResult> results = fenced(fence,
                    curator.transactionOp().setData().withVersion(expectedVersion).forPath(path, data));
            return OptionalLong.of(results.get(1).getResultStat().getMzxid());
        } catch (KeeperException.BadVersionException e) {
            return OptionalLong.empty();
        } catch (FenceFailedException e) {
            throw e;
        } catch (Exception e) {
            throw unavailable("write " + path, e);
        }
    }

    /**
     * Runs {@code write} in one transaction after the check of {@code fence}.
     *
     * @throws FenceFailedException if the check fails; any other failure of the transaction is {@code write}'s own
     *                              KeeperException, as if it had run alone
     */
    private List<CuratorTransactionResult> fenced(Fence fence, CuratorOp write) throws Exception {
        CuratorOp check = curator.transactionOp().check().withVersion(fence.version()).forPath(fence.path());
        try {
            return curator.transaction().forOperations(check, write);
        } catch (KeeperException e) {
            List<OpResult> results = e.getResults();
            boolean checkFailed = results == null || results.isEmpty()
                    || results.get(0) instanceof OpResult.ErrorResult error && error.getErr() != KeeperException.Code.OK.intValue();
            if (checkFailed) {
                throw new FenceFailedException(fence);
            }
            throw KeeperException.create(KeeperException.Code.get(((OpResult.ErrorResult) results.get(1)).getErr()), e.getPath());
        }
    }

    /**
     * Deletes the node if it is still at {@code expectedVersion}.
     *
     * @return false if it was not deleted: it is gone already, or someone else changed it first
     */
    public boolean deleteIfVersion(String path, int expectedVersion) {
        try {
            curator.delete().withVersion(expectedVersion).forPath(path);
            return true;
        } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
            return false;
        } catch (Exception e) {
            throw unavailable("delete " + path, e);
        }
    }

    /**
     * Deletes the nodes and everything under them; absent is fine. One transaction when the trees
     * do not change meanwhile; otherwise (a node added or removed concurrently) node by node.
     */
    public void deleteRecursively(String... roots) {
        try {
            List<CuratorOp> deletes = new ArrayList<>();
            for (String root : roots) {
                addDeletesDepthFirst(root, deletes);
            }
            commit(deletes);
        } catch (KeeperException.NoNodeException | KeeperException.NotEmptyException e) {
            for (String root : roots) {
                deleteOneByOne(root);
            }
        } catch (Exception e) {
            throw unavailable("delete " + String.join(", ", roots), e);
        }
    }

    /** Adds deletes for the tree at {@code path}, children before their parent; nothing if it is absent. */
    private void addDeletesDepthFirst(String path, List<CuratorOp> deletes) throws Exception {
        List<String> children;
        try {
            children = curator.getChildren().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return;
        }
        for (String child : children) {
            addDeletesDepthFirst(path + "/" + child, deletes);
        }
        deletes.add(curator.transactionOp().delete().forPath(path));
    }

    private void deleteOneByOne(String root) {
        try {
            curator.delete().deletingChildrenIfNeeded().forPath(root);
        } catch (KeeperException.NoNodeException e) {
            // already gone
        } catch (Exception e) {
            throw unavailable("delete " + root, e);
        }
    }

    /** Runs the operations in order, as few transactions as the size limit allows. */
    private void commit(List<CuratorOp> operations) throws Exception {
        for (int from = 0; from < operations.size(); from += MAX_TRANSACTION_OPS) {
            curator.transaction().forOperations(operations.subList(from, Math.min(operations.size(), from + MAX_TRANSACTION_OPS)));
        }
    }

    private static void requireBelow(String ancestor, String path) {
        if (!path.startsWith(ancestor + "/")) {
            throw new IllegalArgumentException(path + " is not below " + ancestor);
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

    /**
     * A condition for a write: {@code path} is still at {@code version}. The controller's writes are fenced by the
     * version of {@code /controller_epoch} it was elected at, so a deposed controller's writes fail (as in Kafka).
     */
    public record Fence(String path, int version) {
    }

    /** A fenced write was refused: the fence's node changed (or is gone) since the writer read it. */
    public static final class FenceFailedException extends RuntimeException {
        FenceFailedException(Fence fence) {
            super(fence.path() + " is no longer at version " + fence.version());
        }
    }

    /** ZooKeeper refused this client's SASL login. */
    public static final class ZooKeeperLoginException extends RuntimeException {
        ZooKeeperLoginException(String message) {
            super(message);
        }
    }

    /**
     * A node's data, the version it was read at, and the ZooKeeper transaction that last wrote it
     * (its mzxid: transactions are totally ordered, so this says what was written before what).
     */
    public record Versioned(byte[] data, int version, long modifiedZxid) {
    }
}

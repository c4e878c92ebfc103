package io.tributary.broker.controller;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import io.tributary.broker.cluster.ZkClient;
import org.apache.kafka.common.utils.Time;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who controls the cluster: the broker whose ephemeral {@code /controller} node exists. Winning
 * bumps {@code /controller_epoch} (compare-and-set), and the epoch is written into every
 * partition state the controller changes; each of those writes is also conditioned on
 * {@code /controller_epoch} still being at the version this election left it at
 * ({@link ControllerEpoch#fence()}), so a controller deposed while it was paused cannot write.
 * The node vanishes with its owner's ZooKeeper session, and every broker then tries again.
 * Not thread-safe: used from the cluster event thread.
 */
final class ControllerElection {
    static final String EPOCH_PATH = "/controller_epoch";
    private static final Logger log = LoggerFactory.getLogger(ControllerElection.class);

    private final ZkClient zk;
    private final int brokerId;
    private final Time time;
    private Optional<ControllerEpoch> epoch = Optional.empty();

    ControllerElection(ZkClient zk, int brokerId, Time time) {
        this.zk = zk;
        this.brokerId = brokerId;
        this.time = time;
    }

    /**
     * Checks ZooKeeper (not a cache) and tries to become controller if nobody is.
     *
     * @return this broker's controller epoch if it is the controller
     */
    Optional<ControllerEpoch> maybeElect() {
        Optional<Integer> owner = zk.read(ClusterView.CONTROLLER_PATH).map(node -> ownerOf(node.data()));
        if (owner.isPresent()) {
            if (owner.get() != brokerId && epoch.isPresent()) {
                log.info("broker {} is no longer the controller (broker {} is)", brokerId, owner.get());
                epoch = Optional.empty();
            }
            return owner.get() == brokerId ? epoch : Optional.empty();
        }
        epoch = Optional.empty();
        String json = "{\"version\":1,\"brokerid\":" + brokerId + ",\"timestamp\":\"" + time.milliseconds() + "\"}";
        try {
            zk.curator().create().withMode(CreateMode.EPHEMERAL).forPath(ClusterView.CONTROLLER_PATH, json.getBytes(StandardCharsets.UTF_8));
        } catch (KeeperException.NodeExistsException e) {
            return Optional.empty(); // someone else won
        } catch (Exception e) {
            log.warn("controller election failed: {}", e.getMessage());
            return Optional.empty();
        }
        epoch = Optional.of(bumpEpoch());
        log.info("broker {} is the controller, epoch {}", brokerId, epoch.get().epoch());
        return epoch;
    }

    /**
     * Deletes a {@code /controller} node that names this broker but belongs to another session: an earlier process of
     * this broker, when the caller knows that process is gone (it hosted the embedded ZooKeeper server, as for
     * {@code BrokerRegistry#register}). Otherwise the node would stand until ZooKeeper expires that session, and the
     * cluster would have no controller for a session timeout.
     */
    void deleteEarlierProcessesNode() {
        try {
            Stat stat = zk.curator().checkExists().forPath(ClusterView.CONTROLLER_PATH);
            if (stat == null || stat.getEphemeralOwner() == zk.sessionId()) {
                return;
            }
            Optional<Integer> owner = zk.read(ClusterView.CONTROLLER_PATH).map(node -> ownerOf(node.data()));
            if (owner.isPresent() && owner.get() == brokerId && zk.deleteIfVersion(ClusterView.CONTROLLER_PATH, stat.getVersion())) {
                log.info("deleted the controller node of an earlier process of broker {} (ZooKeeper session 0x{})", brokerId,
                        Long.toHexString(stat.getEphemeralOwner()));
            }
        } catch (Exception e) {
            log.warn("could not delete the controller node of an earlier process of broker {}: {}", brokerId, e.getMessage());
        }
    }

    /** Forgets the controllership at once: a write found the epoch moved on (another controller was elected). */
    void deposed() {
        epoch.ifPresent(lost -> log.info("broker {} is no longer the controller: epoch {} was superseded", brokerId, lost.epoch()));
        epoch = Optional.empty();
    }

    private ControllerEpoch bumpEpoch() {
        while (true) {
            var current = zk.read(EPOCH_PATH);
            if (current.isEmpty()) {
                if (zk.createIfAbsent(EPOCH_PATH, "1".getBytes(StandardCharsets.UTF_8))) {
                    return new ControllerEpoch(1, 0);
                }
                continue;
            }
            int next = Integer.parseInt(new String(current.get().data(), StandardCharsets.UTF_8).trim()) + 1;
            int version = current.get().version();
            if (zk.compareAndSet(EPOCH_PATH, Integer.toString(next).getBytes(StandardCharsets.UTF_8), version).isPresent()) {
                return new ControllerEpoch(next, version + 1);
            }
        }
    }

    /**
     * A controller's epoch, and the version of {@code /controller_epoch} its election wrote: while that node is
     * still at this version, no later controller has been elected.
     */
    record ControllerEpoch(int epoch, int zkVersion) {
        ZkClient.Fence fence() {
            return new ZkClient.Fence(EPOCH_PATH, zkVersion);
        }
    }

    private static int ownerOf(byte[] data) {
        return ClusterView.controllerIdOf(data);
    }
}

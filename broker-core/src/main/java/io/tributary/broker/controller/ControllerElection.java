package io.tributary.broker.controller;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import io.tributary.broker.cluster.ZkClient;
import org.apache.kafka.common.utils.Time;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who controls the cluster: the broker whose ephemeral {@code /controller} node exists. Winning
 * bumps {@code /controller_epoch} (compare-and-set), and the epoch is written into every
 * partition state the controller changes. The node vanishes with its owner's ZooKeeper session,
 * and every broker then tries again. Not thread-safe: used from the cluster event thread.
 */
final class ControllerElection {
    static final String EPOCH_PATH = "/controller_epoch";
    private static final Logger log = LoggerFactory.getLogger(ControllerElection.class);

    private final ZkClient zk;
    private final int brokerId;
    private final Time time;
    private int epoch = -1;

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
    Optional<Integer> maybeElect() {
        Optional<Integer> owner = zk.read(ClusterView.CONTROLLER_PATH).map(node -> ownerOf(node.data()));
        if (owner.isPresent()) {
            if (owner.get() != brokerId && epoch >= 0) {
                log.info("broker {} is no longer the controller (broker {} is)", brokerId, owner.get());
                epoch = -1;
            }
            return owner.get() == brokerId && epoch >= 0 ? Optional.of(epoch) : Optional.empty();
        }
        epoch = -1;
        String json = "{\"version\":1,\"brokerid\":" + brokerId + ",\"timestamp\":\"" + time.milliseconds() + "\"}";
        try {
            zk.curator().create().withMode(CreateMode.EPHEMERAL).forPath(ClusterView.CONTROLLER_PATH, json.getBytes(StandardCharsets.UTF_8));
        } catch (KeeperException.NodeExistsException e) {
            return Optional.empty(); // someone else won
        } catch (Exception e) {
            log.warn("controller election failed: {}", e.getMessage());
            return Optional.empty();
        }
        epoch = bumpEpoch();
        log.info("broker {} is the controller, epoch {}", brokerId, epoch);
        return Optional.of(epoch);
    }

    private int bumpEpoch() {
        while (true) {
            var current = zk.read(EPOCH_PATH);
            if (current.isEmpty()) {
                if (zk.createIfAbsent(EPOCH_PATH, "1".getBytes(StandardCharsets.UTF_8))) {
                    return 1;
                }
                continue;
            }
            int next = Integer.parseInt(new String(current.get().data(), StandardCharsets.UTF_8).trim()) + 1;
            if (zk.compareAndSet(EPOCH_PATH, Integer.toString(next).getBytes(StandardCharsets.UTF_8), current.get().version()).isPresent()) {
                return next;
            }
        }
    }

    private static int ownerOf(byte[] data) {
        return ClusterView.controllerIdOf(data);
    }
}

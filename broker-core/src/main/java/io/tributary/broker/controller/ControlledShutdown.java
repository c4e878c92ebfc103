package io.tributary.broker.controller;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import io.tributary.broker.cluster.ZkClient;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;
import org.apache.zookeeper.CreateMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A clean shutdown's first step: the broker announces itself in
 * {@code /admin/controlled_shutdown/<id>} (ephemeral), the controller moves each leadership it
 * holds to another in-sync replica and takes it out of the ISRs, and the broker waits until no
 * partition it leads has anyone else to hand over to — so clients fail over before it goes.
 */
public final class ControlledShutdown {
    private static final Logger log = LoggerFactory.getLogger(ControlledShutdown.class);
    private static final long POLL_MS = 50;

    private final ZkClient zk;
    private final ClusterView view;
    private final int brokerId;
    private final Time time;

    public ControlledShutdown(ZkClient zk, ClusterView view, int brokerId, Time time) {
        this.zk = zk;
        this.view = view;
        this.brokerId = brokerId;
        this.time = time;
    }

    static String path(int brokerId) {
        return ClusterView.SHUTTING_DOWN_PATH + "/" + brokerId;
    }

    /** Removes an announcement a killed predecessor of this broker may have left behind. */
    public void clearStale() {
        zk.deleteRecursively(path(brokerId));
    }

    /** Announces the shutdown and waits, at most {@code timeoutMs}, for the leaderships to move. */
    public void run(long timeoutMs) throws InterruptedException {
        if (!zk.curator().getZookeeperClient().isConnected()) {
            log.warn("controlled shutdown: ZooKeeper is not reachable; stopping without moving leadership");
            return;
        }
        try {
            zk.curator().create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
                    .forPath(path(brokerId), Long.toString(time.milliseconds()).getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            log.warn("controlled shutdown: could not announce it in ZooKeeper ({}); stopping anyway", e.getMessage());
            return;
        }
        long deadline = time.milliseconds() + timeoutMs;
        int remaining = movableLeaderships();
        while (remaining > 0 && time.milliseconds() < deadline && zk.curator().getZookeeperClient().isConnected()) {
            Thread.sleep(POLL_MS);
            remaining = movableLeaderships();
        }
        if (remaining > 0) {
            log.warn("controlled shutdown: {} leaderships still on broker {} after {} ms", remaining, brokerId, timeoutMs);
        } else {
            log.info("controlled shutdown: leadership moved away from broker {}", brokerId);
        }
    }

    /** Partitions this broker leads although another live broker in their ISR could. */
    private int movableLeaderships() {
        Set<Integer> live = view.liveBrokers().keySet();
        int count = 0;
        for (Map.Entry<TopicPartition, PartitionState> entry : view.partitionStates().entrySet()) {
            PartitionState state = entry.getValue();
            if (state.leader() == brokerId && state.isr().stream().anyMatch(id -> id != brokerId && live.contains(id))) {
                count++;
            }
        }
        return count;
    }
}

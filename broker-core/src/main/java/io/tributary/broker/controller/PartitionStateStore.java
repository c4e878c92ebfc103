package io.tributary.broker.controller;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import io.tributary.broker.cluster.TopicStore;
import io.tributary.broker.cluster.ZkClient;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ControllerMovedException;

/**
 * Reads and writes partition states in ZooKeeper. Every change is a compare-and-set on the
 * version the writer read, so the controller and a leader updating its ISR can never overwrite
 * each other's decisions unseen. Thread-safe.
 */
public final class PartitionStateStore {
    private final ZkClient zk;

    public PartitionStateStore(ZkClient zk) {
        this.zk = zk;
    }

    /** The stored state, read from ZooKeeper now (not from a cache). */
    public Optional<PartitionState> read(TopicPartition partition) {
        return zk.read(PartitionState.path(partition)).map(node -> PartitionState.fromJson(node.data(), node.version(), node.modifiedZxid()));
    }

    /**
     * @return false if the partition already had a state (it is left unchanged), or its topic is
     *         gone (a deletion raced with whoever decided the state: the topic must not come back)
     */
    public boolean createIfAbsent(TopicPartition partition, PartitionState state) {
        return zk.createIfAbsentUnder(TopicStore.topicPath(partition.topic()), PartitionState.path(partition), state.toJson());
    }

    /**
     * {@link #createIfAbsent} for several partitions of one topic, in one ZooKeeper transaction
     * unless a concurrent change gets in the way.
     */
    public void createAllIfAbsent(String topic, Map<TopicPartition, PartitionState> firstStates) {
        Map<String, byte[]> nodes = new LinkedHashMap<>();
        firstStates.forEach((partition, state) -> {
            if (!partition.topic().equals(topic)) {
                throw new IllegalArgumentException(partition + " is not a partition of " + topic);
            }
            nodes.put(PartitionState.path(partition), state.toJson());
        });
        zk.createAllIfAbsentUnder(TopicStore.topicPath(topic), nodes);
    }

    /**
     * Replaces the state if nobody changed it since {@code state.zkVersion()} was read (a leader's ISR change).
     *
     * @return the stored state with its new version and zxid, or empty if someone else changed it first
     */
    public Optional<PartitionState> update(TopicPartition partition, PartitionState state) {
        return stored(state, zk.compareAndSet(PartitionState.path(partition), state.toJson(), state.zkVersion()));
    }

    /**
     * The controller's {@link #createIfAbsent}, made only while {@code controller} is the latest controller epoch.
     *
     * @throws ControllerMovedException if a later controller has been elected
     */
    boolean createIfAbsentAsController(TopicPartition partition, PartitionState state, ControllerElection.ControllerEpoch controller) {
        try {
            return zk.createIfAbsentUnder(TopicStore.topicPath(partition.topic()), PartitionState.path(partition), state.toJson(),
                    controller.fence());
        } catch (ZkClient.FenceFailedException e) {
            throw moved(controller);
        }
    }

    /**
     * The controller's {@link #update}, made only while {@code controller} is the latest controller epoch (Kafka's
     * multi-operation with a check of {@code /controller_epoch}'s version).
     *
     * @throws ControllerMovedException if a later controller has been elected
     */
    Optional<PartitionState> updateAsController(TopicPartition partition, PartitionState state,
                                                ControllerElection.ControllerEpoch controller) {
        try {
            return stored(state, zk.compareAndSet(PartitionState.path(partition), state.toJson(), state.zkVersion(), controller.fence()));
        } catch (ZkClient.FenceFailedException e) {
            throw moved(controller);
        }
    }

    private static Optional<PartitionState> stored(PartitionState state, OptionalLong writeZxid) {
        return writeZxid.stream()
                .mapToObj(zxid -> new PartitionState(state.leader(), state.leaderEpoch(), state.leaderBrokerEpoch(), state.isr(),
                        state.controllerEpoch(), state.zkVersion() + 1, zxid))
                .findFirst();
    }

    private static ControllerMovedException moved(ControllerElection.ControllerEpoch controller) {
        return new ControllerMovedException("controller epoch " + controller.epoch() + " was superseded");
    }
}

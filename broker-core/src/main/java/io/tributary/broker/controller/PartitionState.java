package io.tributary.broker.controller;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.common.TopicPartition;

/**
 * Leader, leader epoch and ISR of one partition, as stored in
 * {@code /brokers/topics/<topic>/partitions/<p>/state} (Kafka's ZooKeeper-mode JSON). Immutable.
 *
 * @param leader          the leading broker, or {@link #NO_LEADER} while the partition is offline
 * @param leaderEpoch     bumped on every leader change; stamped on the batches the leader appends
 * @param leaderBrokerEpoch the leader's broker epoch when it was elected: the zxid that created its registration
 *                        (KIP-380's broker epoch). Only that registration may lead under this state; a restart
 *                        or a lost session makes a new one. {@link #UNKNOWN_BROKER_EPOCH} in states written
 *                        by earlier versions, and while there is no leader.
 * @param isr             the in-sync replicas (the leader included while there is one)
 * @param controllerEpoch epoch of the controller (or broker) that wrote this state
 * @param zkVersion       the node's version when read, for compare-and-set; -1 for a state not yet stored
 * @param modifiedZxid    the ZooKeeper transaction that wrote the stored state (its mzxid), or
 *                        {@link #NOT_STORED}: a broker registered after it may not lead under it
 */
public record PartitionState(int leader, int leaderEpoch, long leaderBrokerEpoch, List<Integer> isr, int controllerEpoch,
                             int zkVersion, long modifiedZxid) {
    public static final int NO_LEADER = -1;
    public static final long NOT_STORED = -1;
    public static final long UNKNOWN_BROKER_EPOCH = -1;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    public PartitionState {
        isr = List.copyOf(isr);
    }

    public static String partitionsPath(String topic) {
        return "/brokers/topics/" + topic + "/partitions";
    }

    public static String path(TopicPartition partition) {
        return partitionsPath(partition.topic()) + "/" + partition.partition() + "/state";
    }

    /** The partition of a state path, or null if {@code path} is not one. */
    public static TopicPartition partitionOf(String path) {
        String[] parts = path.split("/");
        // "", brokers, topics, <topic>, partitions, <p>, state
        if (parts.length != 7 || !parts[1].equals("brokers") || !parts[2].equals("topics")
                || !parts[4].equals("partitions") || !parts[6].equals("state")) {
            return null;
        }
        try {
            return new TopicPartition(parts[3], Integer.parseInt(parts[5]));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public boolean hasLeader() {
        return leader != NO_LEADER;
    }

    /** A proposal to replace this stored state: a new leader in the next epoch. */
    public PartitionState withLeader(int newLeader, long newLeaderBrokerEpoch, List<Integer> newIsr, int newControllerEpoch) {
        return new PartitionState(newLeader, leaderEpoch + 1, newLeaderBrokerEpoch, newIsr, newControllerEpoch, zkVersion,
                modifiedZxid);
    }

    /** A proposal to replace this stored state: the same leader and epoch with another ISR. */
    public PartitionState withIsr(List<Integer> newIsr) {
        return new PartitionState(leader, leaderEpoch, leaderBrokerEpoch, newIsr, controllerEpoch, zkVersion, modifiedZxid);
    }

    public byte[] toJson() {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("version", 1);
        node.put("controller_epoch", controllerEpoch);
        node.put("leader", leader);
        node.put("leader_epoch", leaderEpoch);
        node.put("leader_broker_epoch", leaderBrokerEpoch);
        isr.forEach(node.putArray("isr")::add);
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @throws IllegalStateException if {@code data} is not a partition state */
    public static PartitionState fromJson(byte[] data, int zkVersion, long modifiedZxid) {
        try {
            JsonNode node = MAPPER.readTree(data);
            if (node == null || !node.has("leader") || !node.has("leader_epoch")) {
                throw new IllegalStateException("not a partition state: " + new String(data, java.nio.charset.StandardCharsets.UTF_8));
            }
            List<Integer> isr = new ArrayList<>();
            node.path("isr").forEach(id -> isr.add(id.asInt()));
            return new PartitionState(node.path("leader").asInt(), node.path("leader_epoch").asInt(),
                    node.path("leader_broker_epoch").asLong(UNKNOWN_BROKER_EPOCH), isr,
                    node.path("controller_epoch").asInt(), zkVersion, modifiedZxid);
        } catch (IOException e) {
            throw new IllegalStateException("partition state is not JSON", e);
        }
    }
}

package io.tributary.broker.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.common.Uuid;

/**
 * Topics in ZooKeeper: assignments at {@code /brokers/topics/<topic>} and config overrides at
 * {@code /config/topics/<topic>}, in Kafka's ZooKeeper-mode JSON. No caching here: see
 * {@link TopicManager}. Thread-safe.
 */
public final class TopicStore {
    static final String TOPICS_PATH = "/brokers/topics";
    public static final String TOPIC_CONFIGS_PATH = "/config/topics";
    static final String DELETED_TOPICS_PATH = "/admin/delete_topics";

    private final ZkClient zk;

    public TopicStore(ZkClient zk) {
        this.zk = zk;
    }

    /** The topic's assignment node, {@code /brokers/topics/<topic>}; its partition states live below it. */
    public static String topicPath(String topic) {
        return TOPICS_PATH + "/" + topic;
    }

    /** The topic's config node, {@code /config/topics/<topic>}. */
    public static String configPath(String topic) {
        return TOPIC_CONFIGS_PATH + "/" + topic;
    }

    public List<String> topicNames() {
        return zk.children(TOPICS_PATH);
    }

    /** The assignment; its id is {@link Uuid#ZERO_UUID} if whoever wrote it gave the topic none. */
    public Optional<TopicAssignment> assignment(String topic) {
        return zk.read(topicPath(topic)).map(node -> parseAssignment(topic, node.data()));
    }

    /**
     * Writes the config first, then the assignment, so a topic that is visible always has its config.
     *
     * @return false if the topic already exists (nothing is changed)
     */
    public boolean create(TopicAssignment topic, Map<String, String> overrides) {
        if (zk.read(topicPath(topic.name())).isPresent()) {
            return false;
        }
        zk.write(configPath(topic.name()), configJson(overrides));
        return zk.createIfAbsent(topicPath(topic.name()), assignmentJson(topic));
    }

    public void updateAssignment(TopicAssignment topic) {
        zk.write(topicPath(topic.name()), assignmentJson(topic));
    }

    /** An assignment with the version of its node, for {@link #replaceAssignment}. */
    public record VersionedAssignment(TopicAssignment assignment, int version) {
    }

    /** The assignment as stored now, with its node's version. */
    public Optional<VersionedAssignment> versionedAssignment(String topic) {
        return zk.read(topicPath(topic)).map(node -> new VersionedAssignment(parseAssignment(topic, node.data()), node.version()));
    }

    /**
     * The controller's change of an assignment (reassignments): written only if the node is still at
     * {@code expectedVersion} and {@code fence} holds.
     *
     * @return false if someone changed the node first (nothing is written)
     * @throws ZkClient.FenceFailedException if the fence no longer holds
     */
    public boolean replaceAssignment(TopicAssignment topic, int expectedVersion, ZkClient.Fence fence) {
        return zk.compareAndSet(topicPath(topic.name()), assignmentJson(topic), expectedVersion, fence).isPresent();
    }

    /**
     * Deletes the topic, leaving a marker at {@code /admin/delete_topics/<topic>} so that other
     * brokers can tell a deletion from ZooKeeper having lost its data.
     */
    public void delete(String topic) {
        zk.write(DELETED_TOPICS_PATH + "/" + topic, new byte[0]);
        zk.deleteRecursively(topicPath(topic), configPath(topic));
    }

    /** Whether a missing topic was deleted on purpose (see {@link #delete}). */
    public boolean wasDeleted(String topic) {
        return zk.read(DELETED_TOPICS_PATH + "/" + topic).isPresent();
    }

    public Map<String, String> overrides(String topic) {
        return zk.read(configPath(topic)).map(node -> parseConfig(topic, node.data())).orElse(Map.of());
    }

    public void writeOverrides(String topic, Map<String, String> overrides) {
        zk.write(configPath(topic), configJson(overrides));
    }

    private static byte[] assignmentJson(TopicAssignment topic) {
        ObjectNode node = Json.object();
        node.put("version", 3);
        node.put("topic_id", topic.id().toString());
        ObjectNode partitions = node.putObject("partitions");
        topic.replicas().forEach((partition, replicas) -> {
            ArrayNode list = partitions.putArray(Integer.toString(partition));
            replicas.forEach(list::add);
        });
        ObjectNode adding = node.putObject("adding_replicas");
        ObjectNode removing = node.putObject("removing_replicas");
        topic.reassignments().forEach((partition, reassignment) -> {
            if (!reassignment.adding().isEmpty()) {
                reassignment.adding().forEach(adding.putArray(Integer.toString(partition))::add);
            }
            if (!reassignment.removing().isEmpty()) {
                reassignment.removing().forEach(removing.putArray(Integer.toString(partition))::add);
            }
        });
        return Json.bytes(node);
    }

    /** The assignment held by a topic's {@code /brokers/topics/<topic>} node. */
    public static TopicAssignment parseAssignment(String topic, byte[] data) {
        JsonNode node = Json.parse(data, topicPath(topic));
        SortedMap<Integer, List<Integer>> replicas = new TreeMap<>(brokerLists(node.path("partitions")));
        Map<Integer, List<Integer>> adding = brokerLists(node.path("adding_replicas"));
        Map<Integer, List<Integer>> removing = brokerLists(node.path("removing_replicas"));
        SortedMap<Integer, TopicAssignment.Reassignment> reassignments = new TreeMap<>();
        for (int partition : replicas.keySet()) {
            TopicAssignment.Reassignment reassignment = new TopicAssignment.Reassignment(
                    adding.getOrDefault(partition, List.of()), removing.getOrDefault(partition, List.of()));
            if (!reassignment.isEmpty()) {
                reassignments.put(partition, reassignment);
            }
        }
        String id = node.path("topic_id").asText("");
        return new TopicAssignment(topic, id.isEmpty() ? Uuid.ZERO_UUID : Uuid.fromString(id), replicas, reassignments);
    }

    private static Map<Integer, List<Integer>> brokerLists(JsonNode partitions) {
        Map<Integer, List<Integer>> lists = new TreeMap<>();
        partitions.fields().forEachRemaining(partition -> {
            List<Integer> brokers = new ArrayList<>();
            partition.getValue().forEach(broker -> brokers.add(broker.asInt()));
            lists.put(Integer.parseInt(partition.getKey()), List.copyOf(brokers));
        });
        return lists;
    }

    private static byte[] configJson(Map<String, String> overrides) {
        return ConfigNode.bytes(overrides);
    }

    /** The overrides held by a topic's {@code /config/topics/<topic>} node. */
    public static Map<String, String> parseConfig(String topic, byte[] data) {
        return ConfigNode.parse(data, configPath(topic));
    }
}

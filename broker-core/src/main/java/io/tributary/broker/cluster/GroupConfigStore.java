package io.tributary.broker.cluster;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Groups' own configs (Kafka 4's GROUP config resources, {@code kafka-configs --entity-type groups}) in ZooKeeper,
 * laid out as the other entities under {@code /config}: {@code /config/groups/<group>}, each
 * {@code {"version":1,"config":{...}}}. A group id may hold any character, so the node name is the id URL-encoded
 * (UTF-8). No caching here: see {@link GroupConfigs}. Thread-safe.
 */
public final class GroupConfigStore {
    public static final String GROUPS_CONFIG_PATH = "/config/groups";

    private final ZkClient zk;

    public GroupConfigStore(ZkClient zk) {
        this.zk = zk;
    }

    static String path(String group) {
        return GROUPS_CONFIG_PATH + "/" + URLEncoder.encode(group, StandardCharsets.UTF_8);
    }

    /** The group of a node name under {@link #GROUPS_CONFIG_PATH}. */
    static String group(String nodeName) {
        return URLDecoder.decode(nodeName, StandardCharsets.UTF_8);
    }

    /** The group's configs as stored now. */
    public Map<String, String> read(String group) {
        return zk.read(path(group)).map(node -> parse(group, node.data())).orElse(Map.of());
    }

    /** The groups that have a config node. */
    public List<String> groups() {
        return zk.children(GROUPS_CONFIG_PATH).stream().map(GroupConfigStore::group).sorted().toList();
    }

    /** Replaces the group's configs. */
    public void write(String group, Map<String, String> configs) {
        zk.write(path(group), ConfigNode.bytes(configs));
    }

    static Map<String, String> parse(String group, byte[] data) {
        return ConfigNode.parse(data, path(group));
    }
}

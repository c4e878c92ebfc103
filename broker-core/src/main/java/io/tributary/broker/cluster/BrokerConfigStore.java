package io.tributary.broker.cluster;

import java.util.Map;

/**
 * Dynamic broker configs in ZooKeeper, as Kafka's ZooKeeper mode keeps them: {@code /config/brokers/<id>} for one
 * broker, {@code /config/brokers/<default>} for the cluster default, each {@code {"version":1,"config":{...}}}.
 * No caching here: see {@link DynamicBrokerConfig}. Thread-safe.
 */
public final class BrokerConfigStore {
    public static final String BROKERS_CONFIG_PATH = "/config/brokers";
    /** The entity name of the cluster-wide default (the resource name is empty in the protocol). */
    public static final String DEFAULT_ENTITY = "<default>";

    private final ZkClient zk;

    public BrokerConfigStore(ZkClient zk) {
        this.zk = zk;
    }

    /** The node of a broker id, or of {@link #DEFAULT_ENTITY}. */
    public static String path(String entity) {
        return BROKERS_CONFIG_PATH + "/" + entity;
    }

    /** The dynamic configs of a broker id or of the default, as stored now. */
    public Map<String, String> read(String entity) {
        return zk.read(path(entity)).map(node -> parse(entity, node.data())).orElse(Map.of());
    }

    /** Replaces the entity's dynamic configs. */
    public void write(String entity, Map<String, String> configs) {
        zk.write(path(entity), ConfigNode.bytes(configs));
    }

    /** The configs held by one {@code /config/brokers/<entity>} node. */
    public static Map<String, String> parse(String entity, byte[] data) {
        return ConfigNode.parse(data, path(entity));
    }
}

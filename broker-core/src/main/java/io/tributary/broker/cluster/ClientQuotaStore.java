package io.tributary.broker.cluster;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.utils.internals.Sanitizer;

/**
 * Client quotas in ZooKeeper, where Kafka's ZooKeeper mode keeps them: {@code /config/users/<user>},
 * {@code /config/users/<user>/clients/<client-id>}, {@code /config/clients/<client-id>} and {@code /config/ips/<ip>},
 * each holding {@code {"version":1,"config":{"producer_byte_rate":"1048576",...}}}. A default entity is the name
 * {@code <default>}; names are stored sanitized (URL-encoded, kafka-clients' {@link Sanitizer}). An entity whose
 * changes are compare-and-set, and keep what else the node holds (a user's SCRAM credentials). No caching here.
 * Thread-safe.
 */
public final class ClientQuotaStore {
    /** Watched for changes by whoever caches quotas; every quota node is below it. */
    public static final String USERS_PATH = "/config/users";
    public static final String CLIENTS_PATH = "/config/clients";
    public static final String IPS_PATH = "/config/ips";
    private static final String DEFAULT_NAME = "<default>";

    private final ZkClient zk;

    public ClientQuotaStore(ZkClient zk) {
        this.zk = zk;
    }

    /** Every entity that has at least one quota, with its quotas. */
    public Map<ClientQuotaEntity, Map<String, Double>> all() {
        Map<String, byte[]> nodes = new HashMap<>();
        for (String user : zk.children(USERS_PATH)) {
            String userPath = USERS_PATH + "/" + user;
            readInto(nodes, userPath);
            for (String client : zk.children(userPath + "/clients")) {
                readInto(nodes, userPath + "/clients/" + client);
            }
        }
        for (String parent : new String[] {CLIENTS_PATH, IPS_PATH}) {
            for (String child : zk.children(parent)) {
                readInto(nodes, parent + "/" + child);
            }
        }
        return fromNodes(nodes);
    }

    private void readInto(Map<String, byte[]> nodes, String path) {
        zk.read(path).ifPresent(node -> nodes.put(path, node.data()));
    }

    /**
     * The quotas held by ZooKeeper nodes (path to data, as caches of {@link #USERS_PATH}, {@link #CLIENTS_PATH} and
     * {@link #IPS_PATH} hold them); nodes that are no entity's, or hold no quota, are left out.
     */
    public static Map<ClientQuotaEntity, Map<String, Double>> fromNodes(Map<String, byte[]> nodes) {
        Map<ClientQuotaEntity, Map<String, Double>> quotas = new HashMap<>();
        nodes.forEach((path, data) -> entityAt(path).ifPresent(entity -> {
            Map<String, Double> values = parse(data, path);
            if (!values.isEmpty()) {
                quotas.put(entity, values);
            }
        }));
        return quotas;
    }

    /** The entity whose node {@code path} is, if it is one. */
    static Optional<ClientQuotaEntity> entityAt(String path) {
        Map<String, String> entries = new HashMap<>();
        if (path.startsWith(USERS_PATH + "/")) {
            String[] parts = path.substring(USERS_PATH.length() + 1).split("/");
            if (parts.length != 1 && !(parts.length == 3 && parts[1].equals("clients"))) {
                return Optional.empty();
            }
            entries.put(ClientQuotaEntity.USER, nameOf(parts[0]));
            if (parts.length == 3) {
                entries.put(ClientQuotaEntity.CLIENT_ID, nameOf(parts[2]));
            }
        } else if (path.startsWith(CLIENTS_PATH + "/") && path.indexOf('/', CLIENTS_PATH.length() + 1) < 0) {
            entries.put(ClientQuotaEntity.CLIENT_ID, nameOf(path.substring(CLIENTS_PATH.length() + 1)));
        } else if (path.startsWith(IPS_PATH + "/") && path.indexOf('/', IPS_PATH.length() + 1) < 0) {
            entries.put(ClientQuotaEntity.IP, nameOf(path.substring(IPS_PATH.length() + 1)));
        } else {
            return Optional.empty();
        }
        return Optional.of(new ClientQuotaEntity(entries));
    }

    /** The quotas of one entity (empty if it has none). */
    public Map<String, Double> quotas(ClientQuotaEntity entity) {
        return zk.read(path(entity)).map(node -> parse(node.data(), path(entity))).orElse(Map.of());
    }

    /**
     * Sets and removes quotas of one entity: a null value removes the key.
     *
     * @throws IllegalArgumentException if the entity is not one of user, client-id, user and client-id, or ip
     */
    public void alter(ClientQuotaEntity entity, Map<String, Double> changes) {
        String path = path(entity);
        while (true) { // read, change, compare-and-set; again if another broker wrote the node meanwhile
            Optional<ZkClient.Versioned> node = zk.read(path);
            ObjectNode config = node.map(versioned -> configOf(versioned.data(), path)).orElseGet(Json::object);
            changes.forEach((key, value) -> {
                if (value == null) {
                    config.remove(key);
                } else {
                    config.put(key, asText(value));
                }
            });
            byte[] data = json(config);
            if (node.isEmpty() ? config.isEmpty() || zk.createIfAbsent(path, data)
                    : zk.compareAndSet(path, data, node.get().version()).isPresent()) {
                return;
            }
        }
    }

    /** The node of an entity of user, client-id, or both, or of an ip; a null name is the default entity. */
    static String path(ClientQuotaEntity entity) {
        Map<String, String> entries = entity.entries();
        if (entries.size() == 1 && entries.containsKey(ClientQuotaEntity.IP)) {
            return IPS_PATH + "/" + nodeName(entries.get(ClientQuotaEntity.IP));
        }
        boolean user = entries.containsKey(ClientQuotaEntity.USER);
        boolean client = entries.containsKey(ClientQuotaEntity.CLIENT_ID);
        if (entries.size() != (user ? 1 : 0) + (client ? 1 : 0) || entries.isEmpty()) {
            throw new IllegalArgumentException("quotas are kept per user, client-id, user and client-id, or ip, not for " + entries.keySet());
        }
        if (user && client) {
            return USERS_PATH + "/" + nodeName(entries.get(ClientQuotaEntity.USER)) + "/clients/" + nodeName(entries.get(ClientQuotaEntity.CLIENT_ID));
        }
        return user ? USERS_PATH + "/" + nodeName(entries.get(ClientQuotaEntity.USER))
                : CLIENTS_PATH + "/" + nodeName(entries.get(ClientQuotaEntity.CLIENT_ID));
    }

    private static String nodeName(String name) {
        return name == null ? DEFAULT_NAME : Sanitizer.sanitize(name);
    }

    private static String nameOf(String nodeName) {
        return nodeName.equals(DEFAULT_NAME) ? null : Sanitizer.desanitize(nodeName);
    }

    private static byte[] json(ObjectNode config) {
        ObjectNode node = Json.object();
        node.put("version", 1);
        node.set("config", config);
        return Json.bytes(node);
    }

    /** Whole numbers as Kafka writes them ("1048576", not "1048576.0"). */
    private static String asText(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
    }

    // A user's node holds its SCRAM credentials too (Kafka keeps both there): those are not quotas.
    private static Map<String, Double> parse(byte[] data, String path) {
        Map<String, Double> quotas = new LinkedHashMap<>();
        configOf(data, path).fields().forEachRemaining(field -> {
            if (!ScramMechanism.isScram(field.getKey())) {
                quotas.put(field.getKey(), Double.parseDouble(field.getValue().asText()));
            }
        });
        return quotas;
    }

    /** The node's whole config, quotas and anything else, as a copy to change. */
    private static ObjectNode configOf(byte[] data, String path) {
        if (data == null || data.length == 0) {
            return Json.object();
        }
        JsonNode config = Json.parse(data, path).path("config");
        return config instanceof ObjectNode object ? object.deepCopy() : Json.object();
    }
}

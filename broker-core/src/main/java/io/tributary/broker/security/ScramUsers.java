package io.tributary.broker.security;

import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.broker.cluster.ZkClient;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramCredentialUtils;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.utils.internals.Sanitizer;

/**
 * SCRAM credentials in ZooKeeper, where Kafka keeps them: {@code /config/users/<sanitized user>} holds
 * {@code {"version":1,"config":{"SCRAM-SHA-256":"salt=...,stored_key=...,server_key=...,iterations=4096"}}}
 * (kafka-clients' {@link ScramCredentialUtils} format). Salted and iterated: the password itself is never stored.
 * Used by the broker (AlterUserScramCredentials) and by {@code bin/tributary users}. Thread-safe.
 */
public final class ScramUsers {
    public static final String USERS_PATH = "/config/users";
    public static final int DEFAULT_ITERATIONS = 4096;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final ZkClient zk;

    public ScramUsers(ZkClient zk) {
        this.zk = zk;
    }

    /** The user's node: its name sanitized (URL-encoded) with kafka-clients' {@link Sanitizer}, as quotas and Kafka do. */
    public static String userPath(String user) {
        return USERS_PATH + "/" + Sanitizer.sanitize(user);
    }

    /** The user a node under {@link #USERS_PATH} is for. */
    static String userOf(String nodeName) {
        return Sanitizer.desanitize(nodeName);
    }

    /** A new credential for {@code password}: fresh random salt, {@code iterations} rounds of the mechanism's hash. */
    public static ScramCredential credential(ScramMechanism mechanism, String password, int iterations) {
        if (iterations < mechanism.minIterations() || iterations > mechanism.maxIterations()) {
            throw new IllegalArgumentException("iterations must be between " + mechanism.minIterations() + " and "
                    + mechanism.maxIterations() + " for " + mechanism.mechanismName());
        }
        try {
            return new ScramFormatter(mechanism).generateCredential(password, iterations);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(mechanism.hashAlgorithm() + " is not available in this JVM", e);
        }
    }

    /** Sets (adds or replaces) the user's credential for {@code mechanism}, keeping its other mechanisms. */
    public void put(String user, ScramMechanism mechanism, ScramCredential credential) {
        update(user, config -> config.put(mechanism.mechanismName(), ScramCredentialUtils.credentialToString(credential)));
    }

    /** @return false if the user had no credential for {@code mechanism} */
    public boolean remove(String user, ScramMechanism mechanism) {
        boolean[] removed = new boolean[1];
        update(user, config -> removed[0] = config.remove(mechanism.mechanismName()) != null);
        return removed[0];
    }

    /** Removes every SCRAM credential of the user (its quotas, if any, stay). @return false if it had none */
    public boolean delete(String user) {
        boolean[] removed = new boolean[1];
        update(user, config -> {
            for (ScramMechanism mechanism : ScramMechanism.values()) {
                removed[0] |= config.remove(mechanism.mechanismName()) != null;
            }
        });
        return removed[0];
    }

    /** Each user's mechanisms and their credentials, users in name order. */
    public Map<String, Map<ScramMechanism, ScramCredential>> all() {
        Map<String, Map<ScramMechanism, ScramCredential>> users = new TreeMap<>();
        for (String nodeName : zk.children(USERS_PATH)) {
            String user = userOf(nodeName);
            zk.read(userPath(user)).map(node -> parse(node.data())).filter(credentials -> !credentials.isEmpty())
                .ifPresent(credentials -> users.put(user, credentials)); // a user with quotas only is no SCRAM user
        }
        return users;
    }

    /** The SCRAM credentials in a user node's data (other configs, such as quotas, are not ours). */
    static Map<ScramMechanism, ScramCredential> parse(byte[] data) {
        Map<ScramMechanism, ScramCredential> credentials = new TreeMap<>();
        config(data).fields().forEachRemaining(field -> {
            ScramMechanism mechanism = ScramMechanism.forMechanismName(field.getKey());
            if (mechanism != null) {
                credentials.put(mechanism, ScramCredentialUtils.credentialFromString(field.getValue().asText()));
            }
        });
        return credentials;
    }

    private static ObjectNode config(byte[] data) {
        try {
            JsonNode config = data == null || data.length == 0 ? null : MAPPER.readTree(data).get("config");
            return config instanceof ObjectNode object ? object.deepCopy() : MAPPER.createObjectNode();
        } catch (IOException e) {
            throw new IllegalStateException("unreadable user node: " + e.getMessage(), e);
        }
    }

    /**
     * Read, change, compare-and-set; again if someone else wrote the node meanwhile. An empty config deletes it.
     * Package-private so that a test can race it.
     */
    void update(String user, java.util.function.Consumer<ObjectNode> change) {
        String path = userPath(user);
        while (true) {
            Optional<ZkClient.Versioned> node = zk.read(path);
            ObjectNode config = config(node.map(ZkClient.Versioned::data).orElse(null));
            change.accept(config);
            byte[] data = json(config);
            if (node.isEmpty()) {
                if (config.isEmpty() || zk.createIfAbsent(path, data)) {
                    return;
                }
            } else if (config.isEmpty() && onlyScram(node.get().data())) {
                if (zk.deleteIfVersion(path, node.get().version())) {
                    return;
                }
            } else if (zk.compareAndSet(path, data, node.get().version()).isPresent()) {
                return;
            }
        }
    }

    private static boolean onlyScram(byte[] data) {
        Iterator<String> names = config(data).fieldNames();
        while (names.hasNext()) {
            if (!ScramMechanism.isScram(names.next())) {
                return false;
            }
        }
        return true;
    }

    private static byte[] json(ObjectNode config) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("version", 1);
        node.set("config", config);
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}

package io.tributary.broker.security;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.broker.cluster.Json;
import io.tributary.broker.cluster.ZkClient;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.utils.internals.SecurityUtils;

/**
 * ACLs in ZooKeeper, in Kafka's layout: literal patterns in {@code /kafka-acl/<ResourceType>/<name>}, prefixed ones in
 * {@code /kafka-acl-extended/prefixed/<ResourceType>/<name>}, each node holding
 * {@code {"version":1,"acls":[{"principal":"User:alice","permissionType":"Allow","operation":"Read","host":"*"}]}}.
 * Every change is announced by a sequential node, {@code /kafka-acl-changes/acl_changes_<n>} holding
 * {@code Topic:<name>} for a literal pattern and {@code /kafka-acl-extended-changes/acl_changes_<n>} holding
 * {@code {"version":1,"resourceType":"TOPIC","name":...,"patternType":"PREFIXED"}} for a prefixed one, which the
 * brokers watch. Changes are compare-and-set on the pattern's node. No caching here. Thread-safe.
 */
public final class AclStore {
    public static final String LITERAL_PATH = "/kafka-acl";
    public static final String PREFIXED_PATH = "/kafka-acl-extended/prefixed";
    public static final String LITERAL_CHANGES_PATH = "/kafka-acl-changes";
    public static final String EXTENDED_CHANGES_PATH = "/kafka-acl-extended-changes";
    static final String CHANGE_PREFIX = "acl_changes_";

    private final ZkClient zk;

    public AclStore(ZkClient zk) {
        this.zk = zk;
    }

    /** Every stored pattern with its entries. */
    public Map<ResourcePattern, Set<AccessControlEntry>> all() {
        Map<ResourcePattern, Set<AccessControlEntry>> all = new HashMap<>();
        for (PatternType patternType : new PatternType[] {PatternType.LITERAL, PatternType.PREFIXED}) {
            String root = root(patternType);
            for (String typeName : zk.children(root)) {
                ResourceType type = SecurityUtils.resourceType(typeName);
                if (type == ResourceType.UNKNOWN) {
                    continue; // a resource type of a newer Kafka: none of our checks asks about it
                }
                for (String name : zk.children(root + "/" + typeName)) {
                    ResourcePattern pattern = new ResourcePattern(type, name, patternType);
                    Set<AccessControlEntry> entries = read(pattern);
                    if (!entries.isEmpty()) {
                        all.put(pattern, entries);
                    }
                }
            }
        }
        return all;
    }

    /** The pattern's entries (empty if it has none). */
    public Set<AccessControlEntry> read(ResourcePattern pattern) {
        String path = path(pattern);
        return zk.read(path).map(node -> entries(node.data(), path)).orElse(Set.of());
    }

    /**
     * Replaces the pattern's entries with what {@code change} makes of them (an empty set deletes the node), then
     * announces the change.
     *
     * @return the entries before the change
     */
    public Set<AccessControlEntry> update(ResourcePattern pattern, Function<Set<AccessControlEntry>, Set<AccessControlEntry>> change) {
        String path = path(pattern);
        while (true) { // read, change, compare-and-set; again if another broker wrote the node meanwhile
            Optional<ZkClient.Versioned> node = zk.read(path);
            Set<AccessControlEntry> before = node.map(n -> entries(n.data(), path)).orElse(Set.of());
            Set<AccessControlEntry> after = change.apply(before);
            if (after.equals(before)) {
                return before;
            }
            boolean written;
            if (node.isEmpty()) {
                written = zk.createIfAbsent(path, json(after));
            } else if (after.isEmpty()) {
                written = zk.deleteIfVersion(path, node.get().version());
            } else {
                written = zk.compareAndSet(path, json(after), node.get().version()).isPresent();
            }
            if (written) {
                announce(pattern);
                return before;
            }
        }
    }

    private void announce(ResourcePattern pattern) {
        if (pattern.patternType() == PatternType.LITERAL) {
            zk.createSequential(LITERAL_CHANGES_PATH + "/" + CHANGE_PREFIX,
                    (SecurityUtils.resourceTypeName(pattern.resourceType()) + ":" + pattern.name()).getBytes(StandardCharsets.UTF_8));
        } else {
            ObjectNode event = Json.object();
            event.put("version", 1);
            event.put("resourceType", pattern.resourceType().name());
            event.put("name", pattern.name());
            event.put("patternType", pattern.patternType().name());
            zk.createSequential(EXTENDED_CHANGES_PATH + "/" + CHANGE_PREFIX, Json.bytes(event));
        }
    }

    /**
     * The pattern a change notification names.
     *
     * @param changesPath {@link #LITERAL_CHANGES_PATH} or {@link #EXTENDED_CHANGES_PATH}
     * @throws IllegalArgumentException if the notification is not in Kafka's format
     */
    static ResourcePattern changedPattern(String changesPath, byte[] data) {
        if (changesPath.equals(LITERAL_CHANGES_PATH)) {
            String[] typeAndName = new String(data, StandardCharsets.UTF_8).split(":", 2);
            if (typeAndName.length != 2) {
                throw new IllegalArgumentException("expected ResourceType:name, got " + new String(data, StandardCharsets.UTF_8));
            }
            return new ResourcePattern(ResourceType.fromString(typeAndName[0]), typeAndName[1], PatternType.LITERAL);
        }
        JsonNode event = Json.parse(data, changesPath);
        return new ResourcePattern(ResourceType.fromString(event.path("resourceType").asText()), event.path("name").asText(),
                PatternType.fromString(event.path("patternType").asText()));
    }

    static String path(ResourcePattern pattern) {
        return root(pattern.patternType()) + "/" + SecurityUtils.resourceTypeName(pattern.resourceType()) + "/" + pattern.name();
    }

    private static String root(PatternType patternType) {
        return switch (patternType) {
            case LITERAL -> LITERAL_PATH;
            case PREFIXED -> PREFIXED_PATH;
            default -> throw new IllegalArgumentException("ACLs are stored for literal and prefixed patterns, not " + patternType);
        };
    }

    private static Set<AccessControlEntry> entries(byte[] data, String path) {
        Set<AccessControlEntry> entries = new LinkedHashSet<>();
        if (data == null || data.length == 0) {
            return entries;
        }
        for (JsonNode acl : Json.parse(data, path).path("acls")) {
            entries.add(new AccessControlEntry(acl.path("principal").asText(), acl.path("host").asText(),
                    SecurityUtils.operation(acl.path("operation").asText()),
                    SecurityUtils.permissionType(acl.path("permissionType").asText())));
        }
        return entries;
    }

    private static byte[] json(Set<AccessControlEntry> entries) {
        ObjectNode node = Json.object();
        node.put("version", 1);
        ArrayNode acls = node.putArray("acls");
        for (AccessControlEntry entry : entries) {
            acls.addObject()
                    .put("principal", entry.principal())
                    .put("permissionType", SecurityUtils.permissionTypeName(entry.permissionType()))
                    .put("operation", SecurityUtils.operationName(entry.operation()))
                    .put("host", entry.host());
        }
        return Json.bytes(node);
    }
}

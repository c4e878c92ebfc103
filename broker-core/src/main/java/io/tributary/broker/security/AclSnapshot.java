package io.tributary.broker.security;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The ACLs a broker holds at one moment, indexed for the checks: literal patterns by type and name, prefixed ones by
 * type. Immutable: a change makes a new snapshot (changes are rare, checks are on every request).
 */
final class AclSnapshot {
    static final AclSnapshot EMPTY = new AclSnapshot(Map.of());
    private static final String WILDCARD_NAME = ResourcePattern.WILDCARD_RESOURCE;

    private final Map<ResourcePattern, Set<AccessControlEntry>> all;
    private final Map<ResourceType, Map<String, Set<AccessControlEntry>>> literal = new EnumMap<>(ResourceType.class);
    private final Map<ResourceType, List<Map.Entry<String, Set<AccessControlEntry>>>> prefixed = new EnumMap<>(ResourceType.class);

    private AclSnapshot(Map<ResourcePattern, Set<AccessControlEntry>> all) {
        this.all = all;
        all.forEach((pattern, entries) -> {
            if (pattern.patternType() == PatternType.LITERAL) {
                literal.computeIfAbsent(pattern.resourceType(), t -> new HashMap<>()).put(pattern.name(), entries);
            } else if (pattern.patternType() == PatternType.PREFIXED) {
                prefixed.computeIfAbsent(pattern.resourceType(), t -> new ArrayList<>()).add(Map.entry(pattern.name(), entries));
            }
        });
    }

    static AclSnapshot of(Map<ResourcePattern, Set<AccessControlEntry>> acls) {
        Map<ResourcePattern, Set<AccessControlEntry>> copy = new HashMap<>();
        acls.forEach((pattern, entries) -> {
            if (!entries.isEmpty()) {
                copy.put(pattern, Set.copyOf(entries));
            }
        });
        return new AclSnapshot(copy);
    }

    /** This snapshot with the pattern's entries replaced (none: the pattern removed). */
    AclSnapshot with(ResourcePattern pattern, Set<AccessControlEntry> entries) {
        Map<ResourcePattern, Set<AccessControlEntry>> changed = new HashMap<>(all);
        changed.put(pattern, entries);
        return of(changed);
    }

    /** The entry sets of every pattern that matches the resource; empty if none does. */
    List<Set<AccessControlEntry>> matching(ResourceType type, String name) {
        List<Set<AccessControlEntry>> matching = new ArrayList<>(2);
        Map<String, Set<AccessControlEntry>> byName = literal.get(type);
        if (byName != null) {
            addIfPresent(matching, byName.get(name));
            addIfPresent(matching, byName.get(WILDCARD_NAME));
        }
        List<Map.Entry<String, Set<AccessControlEntry>>> prefixes = prefixed.get(type);
        if (prefixes != null) {
            for (Map.Entry<String, Set<AccessControlEntry>> prefix : prefixes) {
                if (name.startsWith(prefix.getKey())) {
                    matching.add(prefix.getValue());
                }
            }
        }
        return matching;
    }

    private static void addIfPresent(List<Set<AccessControlEntry>> matching, Set<AccessControlEntry> entries) {
        if (entries != null) {
            matching.add(entries);
        }
    }

    Set<ResourcePattern> patterns() {
        return all.keySet();
    }

    void forEach(BiConsumer<ResourcePattern, Set<AccessControlEntry>> action) {
        all.forEach(action);
    }
}

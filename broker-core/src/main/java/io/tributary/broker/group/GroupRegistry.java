package io.tributary.broker.group;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The groups this coordinator holds, by id. Lock-free lookups; a group is removed only once it
 * is Dead, and whoever holds a Dead group's monitor must look it up again.
 */
final class GroupRegistry {
    private final ConcurrentMap<String, Group> groups = new ConcurrentHashMap<>();

    Optional<Group> get(String groupId) {
        return Optional.ofNullable(groups.get(groupId));
    }

    Group getOrCreate(String groupId, long nowMs) {
        return groups.computeIfAbsent(groupId, id -> new Group(id, nowMs));
    }

    /** Removes a group that has just become Dead (its caller holds its monitor). */
    void remove(Group group) {
        groups.remove(group.groupId(), group);
    }

    Collection<Group> all() {
        return List.copyOf(groups.values());
    }
}

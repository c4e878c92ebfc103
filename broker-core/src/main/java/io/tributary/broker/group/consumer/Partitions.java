package io.tributary.broker.group.consumer;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.Uuid;

/**
 * Partition sets by topic id, the form assignments take in KIP-848 (ConsumerGroupHeartbeat, the
 * assignors, the __consumer_offsets records). Values are immutable: every operation returns a new
 * map, and topics without partitions are left out.
 */
public final class Partitions {
    private Partitions() {
    }

    public static Map<Uuid, Set<Integer>> copy(Map<Uuid, Set<Integer>> partitions) {
        Map<Uuid, Set<Integer>> copy = new HashMap<>();
        partitions.forEach((topic, ids) -> {
            if (!ids.isEmpty()) {
                copy.put(topic, Set.copyOf(new TreeSet<>(ids)));
            }
        });
        return Map.copyOf(copy);
    }

    /** The partitions of {@code left} that are in {@code right} too. */
    public static Map<Uuid, Set<Integer>> intersection(Map<Uuid, Set<Integer>> left, Map<Uuid, Set<Integer>> right) {
        Map<Uuid, Set<Integer>> result = new HashMap<>();
        left.forEach((topic, ids) -> {
            Set<Integer> kept = new TreeSet<>(ids);
            kept.retainAll(right.getOrDefault(topic, Set.of()));
            result.put(topic, kept);
        });
        return copy(result);
    }

    /** The partitions of {@code left} that are not in {@code right}. */
    public static Map<Uuid, Set<Integer>> difference(Map<Uuid, Set<Integer>> left, Map<Uuid, Set<Integer>> right) {
        Map<Uuid, Set<Integer>> result = new HashMap<>();
        left.forEach((topic, ids) -> {
            Set<Integer> kept = new TreeSet<>(ids);
            kept.removeAll(right.getOrDefault(topic, Set.of()));
            result.put(topic, kept);
        });
        return copy(result);
    }

    public static Map<Uuid, Set<Integer>> union(Map<Uuid, Set<Integer>> left, Map<Uuid, Set<Integer>> right) {
        Map<Uuid, Set<Integer>> result = new HashMap<>();
        left.forEach((topic, ids) -> result.computeIfAbsent(topic, t -> new TreeSet<>()).addAll(ids));
        right.forEach((topic, ids) -> result.computeIfAbsent(topic, t -> new TreeSet<>()).addAll(ids));
        return copy(result);
    }

    public static int count(Map<Uuid, Set<Integer>> partitions) {
        return partitions.values().stream().mapToInt(Set::size).sum();
    }
}

package io.tributary.broker.cluster;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.Uuid;

/**
 * A topic as ZooKeeper records it: name, id and the replica list of every partition (the first
 * replica is the preferred leader). Immutable.
 */
public record TopicAssignment(String name, Uuid id, SortedMap<Integer, List<Integer>> replicas) {
    public TopicAssignment {
        replicas = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(replicas));
    }

    /** A new topic with every partition on the given broker. */
    public static TopicAssignment onOneBroker(String name, Uuid id, int partitions, int brokerId) {
        SortedMap<Integer, List<Integer>> replicas = new TreeMap<>();
        for (int p = 0; p < partitions; p++) {
            replicas.put(p, List.of(brokerId));
        }
        return new TopicAssignment(name, id, replicas);
    }

    public int partitionCount() {
        return replicas.size();
    }

    /** This topic with partitions added on the given broker up to {@code totalCount}. */
    public TopicAssignment withPartitions(int totalCount, int brokerId) {
        SortedMap<Integer, List<Integer>> grown = new TreeMap<>(replicas);
        for (int p = replicas.size(); p < totalCount; p++) {
            grown.put(p, List.of(brokerId));
        }
        return new TopicAssignment(name, id, grown);
    }

    public Map<Integer, List<Integer>> replicasView() {
        return replicas;
    }
}

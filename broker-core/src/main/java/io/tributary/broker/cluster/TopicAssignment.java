package io.tributary.broker.cluster;

import java.util.List;
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

    public int partitionCount() {
        return replicas.size();
    }
}

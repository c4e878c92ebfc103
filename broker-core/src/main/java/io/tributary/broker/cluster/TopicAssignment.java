package io.tributary.broker.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.Uuid;

/**
 * A topic as ZooKeeper records it: name, id, the replica list of every partition (the first
 * replica is the preferred leader) and the partitions being reassigned. While a partition is
 * reassigned its replica list is the full set, the target replicas first and then the original
 * ones leaving (Kafka's KIP-455 layout); {@code reassignments} says which are being added and
 * which removed. Immutable.
 */
public record TopicAssignment(String name, Uuid id, SortedMap<Integer, List<Integer>> replicas,
                              SortedMap<Integer, Reassignment> reassignments) {
    public TopicAssignment {
        replicas = Collections.unmodifiableSortedMap(new TreeMap<>(replicas));
        reassignments = Collections.unmodifiableSortedMap(new TreeMap<>(reassignments));
    }

    /** A topic with no reassignment in progress. */
    public TopicAssignment(String name, Uuid id, SortedMap<Integer, List<Integer>> replicas) {
        this(name, id, replicas, new TreeMap<>());
    }

    /**
     * A partition's reassignment in progress: the replicas being added (not in the original set) and removed (not in
     * the target set). The target is the replica list without {@code removing}; the original, without {@code adding}.
     */
    public record Reassignment(List<Integer> adding, List<Integer> removing) {
        public Reassignment {
            adding = List.copyOf(adding);
            removing = List.copyOf(removing);
        }

        /** The full replica list and reassignment that move {@code original} to {@code target}. */
        public static Map.Entry<List<Integer>, Reassignment> moving(List<Integer> original, List<Integer> target) {
            List<Integer> full = new ArrayList<>(target);
            original.stream().filter(id -> !target.contains(id)).forEach(full::add);
            List<Integer> adding = target.stream().filter(id -> !original.contains(id)).toList();
            List<Integer> removing = original.stream().filter(id -> !target.contains(id)).toList();
            return Map.entry(List.copyOf(full), new Reassignment(adding, removing));
        }

        public boolean isEmpty() {
            return adding.isEmpty() && removing.isEmpty();
        }
    }

    public int partitionCount() {
        return replicas.size();
    }

    /** The replicas a partition ends with: its replica list without those a reassignment removes. */
    public List<Integer> targetReplicas(int partition) {
        Reassignment reassignment = reassignments.get(partition);
        List<Integer> all = replicas.get(partition);
        return reassignment == null ? all : all.stream().filter(id -> !reassignment.removing().contains(id)).toList();
    }

    /** The replicas a partition had before its reassignment began. */
    public List<Integer> originalReplicas(int partition) {
        Reassignment reassignment = reassignments.get(partition);
        List<Integer> all = replicas.get(partition);
        return reassignment == null ? all : all.stream().filter(id -> !reassignment.adding().contains(id)).toList();
    }

    /**
     * How many replicas a partition has to be fully replicated, as Kafka counts it: its replicas before a reassignment
     * began, since those a reassignment adds are not in sync until they catch up.
     */
    public int replicationFactor(int partition) {
        return originalReplicas(partition).size();
    }

    /** This topic with {@code partition} at {@code newReplicas}, under {@code reassignment} (null: none). */
    public TopicAssignment withPartition(int partition, List<Integer> newReplicas, Reassignment reassignment) {
        SortedMap<Integer, List<Integer>> newAll = new TreeMap<>(replicas);
        newAll.put(partition, List.copyOf(newReplicas));
        SortedMap<Integer, Reassignment> newReassignments = new TreeMap<>(reassignments);
        if (reassignment == null || reassignment.isEmpty()) {
            newReassignments.remove(partition);
        } else {
            newReassignments.put(partition, reassignment);
        }
        return new TopicAssignment(name, id, newAll, newReassignments);
    }
}

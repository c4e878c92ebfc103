package io.tributary.broker.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.utils.Utils;

/**
 * Where new partitions' replicas go: round-robin over the live brokers (sorted by id), starting at
 * a broker picked by the topic name's hash, so that leaders (the first replica of each partition)
 * and followers spread evenly and the same topic lands the same way on the same cluster.
 */
public final class ReplicaPlacement {
    private ReplicaPlacement() {
    }

    /**
     * Replica lists for partitions {@code first .. first+count-1}.
     *
     * @throws InvalidReplicationFactorException if fewer brokers are alive than replicas asked for
     */
    public static SortedMap<Integer, List<Integer>> place(String topic, int first, int count, int replicationFactor,
                                                         Collection<Integer> liveBrokers) {
        List<Integer> brokers = liveBrokers.stream().sorted().toList();
        if (replicationFactor < 1 || replicationFactor > brokers.size()) {
            throw new InvalidReplicationFactorException("Replication factor " + replicationFactor + " is invalid: "
                    + brokers.size() + " broker(s) available");
        }
        int start = Utils.abs(topic.hashCode()) % brokers.size();
        SortedMap<Integer, List<Integer>> replicas = new TreeMap<>();
        for (int p = first; p < first + count; p++) {
            List<Integer> list = new ArrayList<>();
            for (int r = 0; r < replicationFactor; r++) {
                list.add(brokers.get((start + p + r) % brokers.size()));
            }
            replicas.put(p, List.copyOf(list));
        }
        return replicas;
    }
}

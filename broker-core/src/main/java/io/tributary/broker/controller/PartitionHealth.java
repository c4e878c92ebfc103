package io.tributary.broker.controller;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import io.tributary.broker.metrics.ClusterGauges;
import org.apache.kafka.common.TopicPartition;

/** One broker's share of the cluster's partition health, from its view of ZooKeeper, as Kafka reports it. */
public final class PartitionHealth implements ClusterGauges {
    private final ClusterView cluster;
    private final int brokerId;

    public PartitionHealth(ClusterView cluster, int brokerId) {
        this.cluster = cluster;
        this.brokerId = brokerId;
    }

    @Override
    public boolean activeController() {
        return cluster.controllerId() == brokerId;
    }

    @Override
    public int underReplicatedPartitions() {
        Map<String, SortedMap<Integer, List<Integer>>> assignments = new HashMap<>(); // each topic's read once
        int count = 0;
        for (Map.Entry<TopicPartition, PartitionState> entry : cluster.partitionStates().entrySet()) {
            TopicPartition partition = entry.getKey();
            PartitionState state = entry.getValue();
            if (state.leader() != brokerId) {
                continue;
            }
            List<Integer> replicas = assignments.computeIfAbsent(partition.topic(), cluster::replicas)
                    .getOrDefault(partition.partition(), List.of());
            if (state.isr().size() < replicas.size()) {
                count++;
            }
        }
        return count;
    }

    /** Counted by the active controller only, so that the sum over the brokers is the cluster's count. */
    @Override
    public int offlinePartitions() {
        if (!activeController()) {
            return 0;
        }
        Map<Integer, ClusterView.Endpoint> live = cluster.liveBrokers();
        int count = 0;
        for (PartitionState state : cluster.partitionStates().values()) {
            if (state.leader() == PartitionState.NO_LEADER || !live.containsKey(state.leader())) {
                count++;
            }
        }
        return count;
    }
}

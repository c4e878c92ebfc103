package io.tributary.broker.controller;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import io.tributary.broker.cluster.TopicAssignment;
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

    /** Partitions this broker leads whose ISR is smaller than their replicas before any reassignment (Kafka's count). */
    @Override
    public int underReplicatedPartitions() {
        Map<String, Optional<TopicAssignment>> assignments = new HashMap<>(); // each topic's read once
        int count = 0;
        for (Map.Entry<TopicPartition, PartitionState> entry : cluster.partitionStates().entrySet()) {
            TopicPartition partition = entry.getKey();
            PartitionState state = entry.getValue();
            if (state.leader() != brokerId) {
                continue;
            }
            Optional<TopicAssignment> assignment = assignments.computeIfAbsent(partition.topic(), cluster::assignment);
            if (assignment.isPresent() && assignment.get().replicas().containsKey(partition.partition())
                    && state.isr().size() < assignment.get().replicationFactor(partition.partition())) {
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

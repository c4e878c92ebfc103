package io.tributary.benchmarks.harness;

import java.util.List;

/**
 * How to start one side's replicated cluster: the node that holds its metadata (a ZooKeeper
 * server or a KRaft controller), which the workloads never talk to, and the brokers they do.
 */
public record ClusterLaunch(NodeLaunch metadataNode, List<NodeLaunch> brokers) {
    public ClusterLaunch {
        brokers = List.copyOf(brokers);
        if (brokers.isEmpty()) {
            throw new IllegalArgumentException("a cluster needs at least one broker");
        }
    }
}

package io.tributary.chaos.cluster;

import java.time.Duration;

/**
 * The cluster under test: brokers on one external ZooKeeper and one topic. The shape is
 * 3 brokers, 3 partitions, replication factor 3 and {@code min.insync.replicas=2}.
 *
 * @param sessionTimeoutMs    the brokers' {@code zookeeper.session.timeout.ms}
 * @param replicaLagTimeMaxMs the brokers' {@code replica.lag.time.max.ms}
 */
public record ClusterSettings(int brokers, String topic, int partitions, int replicationFactor, int minInSyncReplicas,
                              int sessionTimeoutMs, int replicaLagTimeMaxMs) {

    /** The cluster, with the given session timeout (18000 is the default). */
    public static ClusterSettings standard(int sessionTimeoutMs) {
        return new ClusterSettings(3, "chaos", 3, 3, 2, sessionTimeoutMs, Math.min(10_000, sessionTimeoutMs));
    }

    public Duration sessionTimeout() {
        return Duration.ofMillis(sessionTimeoutMs);
    }

    /** The bound: every partition is served again this long after a fault ends. */
    public Duration recoveryBound() {
        return sessionTimeout().plusSeconds(10);
    }
}

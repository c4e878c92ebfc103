package io.tributary.broker.replica;

/**
 * The replication settings of one broker (the {@code replica.*}, ISR and election keys of
 * server.properties).
 *
 * @param brokerId                  this broker
 * @param replicaLagTimeMaxMs       a follower not caught up for this long leaves the ISR
 * @param fetchMaxBytes             per-partition bytes of a follower fetch
 * @param fetchResponseMaxBytes     bytes of a follower fetch over all partitions
 * @param fetchWaitMaxMs            long-poll of a follower fetch at the leader
 * @param fetchBackoffMs            pause after a failed follower fetch
 * @param fetchers                  fetcher threads per leader broker
 * @param uncleanLeaderElection     may a replica outside the ISR become leader
 * @param autoLeaderRebalance       move leadership back to preferred replicas
 * @param leaderImbalanceCheckMs    how often to look for misplaced leaders
 * @param controlledShutdown        move leadership away before a clean shutdown
 * @param controlledShutdownTimeoutMs how long a clean shutdown waits for that
 * @param highWatermarkCheckpointIntervalMs how often the high watermarks are checkpointed
 * @param connector                 how followers connect and authenticate to the leaders' inter-broker listener
 */
public record ReplicationConfig(int brokerId, long replicaLagTimeMaxMs, int fetchMaxBytes,
                                int fetchResponseMaxBytes, int fetchWaitMaxMs, int fetchBackoffMs, int fetchers,
                                boolean uncleanLeaderElection, boolean autoLeaderRebalance, long leaderImbalanceCheckMs,
                                boolean controlledShutdown, long controlledShutdownTimeoutMs,
                                long highWatermarkCheckpointIntervalMs, BrokerConnector connector) {
}

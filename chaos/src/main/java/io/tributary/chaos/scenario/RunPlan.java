package io.tributary.chaos.scenario;

import java.nio.file.Path;
import java.time.Duration;
import io.tributary.chaos.cluster.ClusterSettings;

/**
 * How a {@link ChaosRun} runs.
 *
 * @param kafkajsClients        clients/js, with node_modules installed
 * @param zookeeperOutage       how long ZOOKEEPER_UNREACHABLE lasts (the issue says 30 s)
 * @param javaRecordsPerSecond  the kafka-clients producer's rate (kafkajs sends about 300/s on its own)
 * @param faultBudget           no fault starts after this much time; the checks run regardless
 * @param seed                  picks the targets (and, for {@link ChaosRun#mixed}, the order)
 */
public record RunPlan(ClusterSettings settings, Path kafkajsClients, Duration zookeeperOutage, int javaRecordsPerSecond,
                      Duration faultBudget, long seed) {
}

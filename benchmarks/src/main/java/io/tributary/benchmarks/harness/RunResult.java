package io.tributary.benchmarks.harness;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Everything a finished run measured, for the table, the docs and the charts.
 *
 * @param settings    the single brokers' settings (replication factor 1)
 * @param replicated  the replicated clusters' settings
 * @param latencyRate records per second of the fixed-rate latency phases
 * @param latency     all counted latencies of each side, rounds merged
 */
public record RunResult(RunPlan plan, BrokerSettings settings, BrokerSettings replicated, Map<Side, BrokerFlavor> flavors,
                        List<Comparison> comparisons, double latencyRate, Map<Side, LatencyDistribution> latency,
                        Duration elapsed) {
    public RunResult {
        flavors = Map.copyOf(flavors);
        comparisons = List.copyOf(comparisons);
        latency = Map.copyOf(latency);
    }

    /** The headline: replication factor 1. */
    public ResultLine resultLine() {
        return ResultLine.from(comparisons);
    }

    /** The ratios the headline leaves out: replication factor 3 and the consumer group. */
    public ExtraResultLine extraResultLine() {
        return ExtraResultLine.from(comparisons, replicated.replicationFactor());
    }

    /** "Apache Kafka 4.4 (A)". */
    public String label(Side side) {
        return side.label(flavors.get(side));
    }
}

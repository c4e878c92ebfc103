package io.tributary.benchmarks.harness;

import java.util.List;
import java.util.Locale;

/**
 * The run's verdict in four ratios (candidate / baseline), at replication factor 1. Where a kind of measure covers several
 * workloads (produce throughput and CPU over the record-size × acks × partitions grid) the ratio
 * is the geometric mean of the per-workload ratios, so that every workload weighs the same.
 */
public record ResultLine(double produceRatio, double consumeRatio, double cpuRatio, double p99Ratio) {

    public static ResultLine from(List<Comparison> comparisons) {
        return new ResultLine(
                ratioOf(comparisons, MetricKind.PRODUCE_THROUGHPUT),
                ratioOf(comparisons, MetricKind.CONSUME_THROUGHPUT),
                ratioOf(comparisons, MetricKind.PRODUCE_CPU),
                ratioOf(comparisons, MetricKind.LATENCY_P99));
    }

    private static double ratioOf(List<Comparison> comparisons, MetricKind kind) {
        return ratioOf(comparisons, kind, 1);
    }

    /** The geometric mean of the ratios of all comparisons of one kind at one replication factor. */
    static double ratioOf(List<Comparison> comparisons, MetricKind kind, int replicationFactor) {
        List<Double> ratios = comparisons.stream()
                .filter(c -> c.metric().kind() == kind && c.metric().replicationFactor() == replicationFactor)
                .map(Comparison::ratio)
                .toList();
        if (ratios.isEmpty()) {
            throw new IllegalStateException("no comparison of kind " + kind + " at replication factor "
                    + replicationFactor + " was measured");
        }
        return Statistics.geometricMean(ratios);
    }

    /** {@code RESULT produce_ratio=<x> consume_ratio=<y> cpu_ratio=<z> p99_ratio=<w>}. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "RESULT produce_ratio=%.3f consume_ratio=%.3f cpu_ratio=%.3f p99_ratio=%.3f",
                produceRatio, consumeRatio, cpuRatio, p99Ratio);
    }
}

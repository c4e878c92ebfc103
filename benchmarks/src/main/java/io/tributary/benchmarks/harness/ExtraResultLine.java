package io.tributary.benchmarks.harness;

import java.util.List;
import java.util.Locale;

/**
 * The ratios (candidate / baseline) that the RESULT line leaves out, printed on the line before
 * it: the produce grid at replication factor 3 (throughput and broker CPU summed over each side's
 * brokers, geometric means over the grid) and the consumer group (throughput and broker CPU).
 */
public record ExtraResultLine(int replicationFactor, double replicatedProduceRatio, double replicatedCpuRatio,
                              double groupConsumeRatio, double groupCpuRatio) {

    public static ExtraResultLine from(List<Comparison> comparisons, int replicationFactor) {
        return new ExtraResultLine(replicationFactor,
                ResultLine.ratioOf(comparisons, MetricKind.PRODUCE_THROUGHPUT, replicationFactor),
                ResultLine.ratioOf(comparisons, MetricKind.PRODUCE_CPU, replicationFactor),
                ResultLine.ratioOf(comparisons, MetricKind.GROUP_CONSUME_THROUGHPUT, 1),
                ResultLine.ratioOf(comparisons, MetricKind.GROUP_CONSUME_CPU, 1));
    }

    /** {@code EXTRA rf3_produce_ratio=<x> rf3_cpu_ratio=<y> group_consume_ratio=<z> group_cpu_ratio=<w>}. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "EXTRA rf%d_produce_ratio=%.3f rf%d_cpu_ratio=%.3f group_consume_ratio=%.3f group_cpu_ratio=%.3f",
                replicationFactor, replicatedProduceRatio, replicationFactor, replicatedCpuRatio, groupConsumeRatio, groupCpuRatio);
    }
}

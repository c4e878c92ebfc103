package io.tributary.benchmarks.harness;

import org.apache.kafka.common.security.auth.SecurityProtocol;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the TLS workload measured: every sample of each measure ({@link TlsWorkload#metric}) on both brokers, and the
 * ratios the report is about.
 *
 * @param flavors     the broker on each side
 * @param comparisons one per measure and listener, both sides' samples
 */
record TlsResult(Map<Side, BrokerFlavor> flavors, List<Comparison> comparisons) {
    /** The measures, in the report's order. */
    static final List<MetricKind> KINDS = List.of(MetricKind.PRODUCE_THROUGHPUT, MetricKind.PRODUCE_CPU,
            MetricKind.CONSUME_THROUGHPUT, MetricKind.CONSUME_CPU);

    TlsResult {
        flavors = new EnumMap<>(flavors);
        comparisons = List.copyOf(comparisons);
    }

    /** The median of one broker's samples of {@code kind} through {@code listener}. */
    double median(MetricKind kind, SecurityProtocol listener, Side side) {
        Comparison comparison = comparison(kind, listener);
        return side == Side.BASELINE ? comparison.baselineMedian() : comparison.candidateMedian();
    }

    /** What TLS does to one broker's {@code kind}: its median over SSL ÷ its median over PLAINTEXT. */
    double tlsCost(MetricKind kind, Side side) {
        return median(kind, SecurityProtocol.SSL, side) / median(kind, SecurityProtocol.PLAINTEXT, side);
    }

    /** The brokers side by side through {@code listener}: B ÷ A. */
    double candidateOverBaseline(MetricKind kind, SecurityProtocol listener) {
        return comparison(kind, listener).ratio();
    }

    /** The fewest samples any broker has of {@code kind} through either listener (rounds are cut alike). */
    int rounds(MetricKind kind) {
        return TlsWorkload.LISTENERS.stream().map(listener -> comparison(kind, listener))
                .mapToInt(c -> Math.min(c.baseline().size(), c.candidate().size())).min().orElseThrow();
    }

    /** "Apache Kafka 4.4 (A)". */
    String label(Side side) {
        return side.label(flavors.get(side));
    }

    private Comparison comparison(MetricKind kind, SecurityProtocol listener) {
        Metric metric = TlsWorkload.metric(kind, listener);
        return comparisons.stream().filter(c -> c.metric().equals(metric)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no samples of " + metric.label() + " on both brokers"));
    }
}

package io.tributary.benchmarks.harness;

/**
 * One measured quantity: a kind of measure applied to one workload (e.g. produce of 100 B, acks=1,
 * 1 partition), whose records carry {@code recordBytes} of value each.
 */
public record Metric(MetricKind kind, String workload, int recordBytes) {
    public String label() {
        return kind.label() + " " + workload;
    }
}

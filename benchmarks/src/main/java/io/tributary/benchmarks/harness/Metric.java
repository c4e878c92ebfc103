package io.tributary.benchmarks.harness;

/**
 * One measured quantity: a kind of measure applied to one workload (e.g. produce of 100 B, acks=1,
 * 1 partition), whose records carry {@code recordBytes} of value each, on brokers whose topics have
 * {@code replicationFactor} replicas.
 */
public record Metric(MetricKind kind, String workload, int recordBytes, int replicationFactor) {

    /** A measure at replication factor 1 (one broker per side). */
    public Metric(MetricKind kind, String workload, int recordBytes) {
        this(kind, workload, recordBytes, 1);
    }

    public String label() {
        return kind.label() + " " + workload;
    }
}

package io.tributary.benchmarks.harness;

import java.util.Locale;

/** What a number measures, and in which unit. */
public enum MetricKind {
    PRODUCE_THROUGHPUT("produce", "records/s", "%,.0f"),
    PRODUCE_CPU("broker CPU, produce", "CPU-s per 1M records", "%.3f"),
    CONSUME_THROUGHPUT("consume", "records/s", "%,.0f"),
    CONSUME_CPU("broker CPU, consume", "CPU-s per 1M records", "%.3f"),
    GROUP_CONSUME_THROUGHPUT("group consume", "records/s", "%,.0f"),
    GROUP_CONSUME_CPU("broker CPU, group consume", "CPU-s per 1M records", "%.3f"),
    TRANSACTIONAL_PRODUCE_THROUGHPUT("transactional produce", "records/s", "%,.0f"),
    TRANSACTIONAL_PRODUCE_CPU("broker CPU, transactional produce", "CPU-s per 1M records", "%.3f"),
    LATENCY_P50("end-to-end p50", "ms", "%.2f"),
    LATENCY_P99("end-to-end p99", "ms", "%.2f"),
    LATENCY_P999("end-to-end p99.9", "ms", "%.2f"),
    IDLE_CPU("broker CPU", "CPU-s per s", "%.3f");

    private final String label;
    private final String unit;
    private final String format;

    MetricKind(String label, String unit, String format) {
        this.label = label;
        this.unit = unit;
        this.format = format;
    }

    /** A value of this kind as the report prints it. */
    public String format(double value) {
        return String.format(Locale.ROOT, format, value);
    }

    public String label() {
        return label;
    }

    public String unit() {
        return unit;
    }
}

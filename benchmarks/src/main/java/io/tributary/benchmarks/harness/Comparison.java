package io.tributary.benchmarks.harness;

import java.util.List;

/** The samples of one metric on both sides, and the ratio of their medians (candidate / baseline). */
public record Comparison(Metric metric, List<Double> baseline, List<Double> candidate) {
    public Comparison {
        baseline = List.copyOf(baseline);
        candidate = List.copyOf(candidate);
    }

    public double baselineMedian() {
        return Statistics.median(baseline);
    }

    public double candidateMedian() {
        return Statistics.median(candidate);
    }

    /** B / A: above 1 means B is higher (better for throughput, worse for CPU and latency). */
    public double ratio() {
        return candidateMedian() / baselineMedian();
    }
}

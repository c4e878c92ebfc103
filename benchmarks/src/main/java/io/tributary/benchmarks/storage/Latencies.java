package io.tributary.benchmarks.storage;

import java.util.Arrays;

/** Summary of a set of latencies, in microseconds. */
record Latencies(double meanMicros, double p50Micros, double p99Micros) {

    static Latencies of(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double mean = Arrays.stream(sorted).average().orElse(0);
        return new Latencies(mean / 1000.0, percentile(sorted, 0.50) / 1000.0, percentile(sorted, 0.99) / 1000.0);
    }

    private static double percentile(long[] sorted, double fraction) {
        int index = (int) Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
        return sorted[Math.max(0, index)];
    }
}

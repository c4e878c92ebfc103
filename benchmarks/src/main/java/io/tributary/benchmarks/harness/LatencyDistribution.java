package io.tributary.benchmarks.harness;

import java.util.ArrayList;
import java.util.List;

/** End-to-end latencies of one or more latency phases, in nanoseconds, kept sorted. Immutable. */
public final class LatencyDistribution {
    private final long[] sortedNanos;

    private LatencyDistribution(long[] sortedNanos) {
        this.sortedNanos = sortedNanos;
    }

    /** From the first {@code count} entries of {@code nanos}, in any order. */
    public static LatencyDistribution of(long[] nanos, int count) {
        if (count <= 0) {
            throw new IllegalArgumentException("a latency distribution needs at least one sample");
        }
        long[] copy = new long[count];
        System.arraycopy(nanos, 0, copy, 0, count);
        return new LatencyDistribution(Statistics.sorted(copy));
    }

    /** All samples of several distributions together. */
    public static LatencyDistribution merge(List<LatencyDistribution> parts) {
        int total = parts.stream().mapToInt(LatencyDistribution::count).sum();
        long[] all = new long[total];
        int at = 0;
        for (LatencyDistribution part : parts) {
            System.arraycopy(part.sortedNanos, 0, all, at, part.count());
            at += part.count();
        }
        return of(all, total);
    }

    public int count() {
        return sortedNanos.length;
    }

    /** The nearest-rank percentile in milliseconds, {@code quantile} in [0, 1]. */
    public double percentileMillis(double quantile) {
        return Statistics.percentileOfSorted(sortedNanos, quantile) / 1e6;
    }

    /**
     * About {@code points} points (latency in ms, fraction of records at or below it) of the
     * cumulative distribution, evenly spaced in fraction, plus the tail quantiles that an even
     * spacing would skip.
     */
    public List<double[]> cdfMillis(int points) {
        List<Double> quantiles = new ArrayList<>();
        for (int i = 0; i <= points; i++) {
            quantiles.add((double) i / points);
        }
        for (double tail : new double[] {0.99, 0.995, 0.999, 0.9995, 0.9999}) {
            quantiles.add(tail);
        }
        quantiles.sort(null);
        List<double[]> cdf = new ArrayList<>();
        for (double quantile : quantiles) {
            cdf.add(new double[] {percentileMillis(quantile), quantile});
        }
        return cdf;
    }
}

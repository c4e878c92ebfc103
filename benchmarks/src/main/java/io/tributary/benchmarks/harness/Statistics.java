package io.tributary.benchmarks.harness;

import java.util.Arrays;
import java.util.List;

/** The few statistics the harness reports: nearest-rank percentiles, medians, geometric means. */
public final class Statistics {
    private Statistics() {
    }

    /**
     * The nearest-rank percentile of ascending {@code sorted} values: the smallest value such that
     * at least {@code quantile} of all values are less than or equal to it.
     */
    public static long percentileOfSorted(long[] sorted, double quantile) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("no values to take a percentile of");
        }
        checkQuantile(quantile);
        int rank = (int) Math.ceil(quantile * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    /** The median; the mean of the two middle values when there is an even number of them. */
    public static double median(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values to take a median of");
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** The geometric mean of positive values: the right average of ratios (1/2 and 2 average to 1). */
    public static double geometricMean(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values to average");
        }
        double logSum = 0;
        for (double value : values) {
            if (!(value > 0)) {
                throw new IllegalArgumentException("geometric mean needs positive values, got " + values);
            }
            logSum += Math.log(value);
        }
        return Math.exp(logSum / values.size());
    }

    /** A sorted copy. */
    public static long[] sorted(long[] values) {
        long[] copy = Arrays.copyOf(values, values.length);
        Arrays.sort(copy);
        return copy;
    }

    static void checkQuantile(double quantile) {
        if (!(quantile >= 0 && quantile <= 1)) {
            throw new IllegalArgumentException("quantile must be in [0, 1], got " + quantile);
        }
    }
}

package io.tributary.benchmarks.harness;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Collects every sample of a run by metric and side, in the order metrics were first seen. Not thread-safe. */
public final class Scoreboard {
    private final Map<Metric, Map<Side, List<Double>>> samples = new LinkedHashMap<>();

    public void add(Metric metric, Side side, double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(metric.label() + " on side " + side.letter() + " is not finite: " + value);
        }
        samples.computeIfAbsent(metric, m -> new EnumMap<>(Side.class))
                .computeIfAbsent(side, s -> new ArrayList<>())
                .add(value);
    }

    /** The median of one side's samples of a metric. */
    public double median(Metric metric, Side side) {
        List<Double> values = samples.getOrDefault(metric, Map.of()).get(side);
        if (values == null) {
            throw new IllegalStateException("no samples of " + metric.label() + " on side " + side.letter());
        }
        return Statistics.median(values);
    }

    /** One comparison per metric measured on both sides. */
    public List<Comparison> comparisons() {
        List<Comparison> comparisons = new ArrayList<>();
        samples.forEach((metric, bySide) -> {
            if (bySide.containsKey(Side.BASELINE) && bySide.containsKey(Side.CANDIDATE)) {
                comparisons.add(new Comparison(metric, bySide.get(Side.BASELINE), bySide.get(Side.CANDIDATE)));
            }
        });
        return comparisons;
    }
}

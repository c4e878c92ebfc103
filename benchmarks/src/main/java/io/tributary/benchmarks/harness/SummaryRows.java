package io.tributary.benchmarks.harness;

import java.util.List;
import java.util.Locale;

/** The run's comparisons as table rows: measure, unit, rounds, median of A, median of B, B/A. */
public final class SummaryRows {
    private SummaryRows() {
    }

    public static List<String> header(RunResult result) {
        return List.of("measure", "unit", "rounds", result.label(Side.BASELINE), result.label(Side.CANDIDATE), "B/A");
    }

    public static List<List<String>> rows(RunResult result) {
        return result.comparisons().stream().map(SummaryRows::row).toList();
    }

    private static List<String> row(Comparison c) {
        MetricKind kind = c.metric().kind();
        return List.of(c.metric().label(), kind.unit(), Integer.toString(Math.min(c.baseline().size(), c.candidate().size())),
                kind.format(c.baselineMedian()), kind.format(c.candidateMedian()),
                Double.isFinite(c.ratio()) ? String.format(Locale.ROOT, "%.3f", c.ratio()) : "n/a");
    }
}

package io.tributary.benchmarks.harness;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class ScoreboardTest {
    private final Scoreboard scoreboard = new Scoreboard();

    @Test
    void comparesTheMediansOfBothSidesInTheOrderMetricsWereFirstSeen() {
        Metric produce = new Metric(MetricKind.PRODUCE_THROUGHPUT, "100B acks=1 1p", 100);
        Metric consume = new Metric(MetricKind.CONSUME_THROUGHPUT, "100B 1p", 100);
        add(produce, Side.BASELINE, 100, 300, 200);
        add(produce, Side.CANDIDATE, 250, 240, 900);
        add(consume, Side.BASELINE, 10);
        add(consume, Side.CANDIDATE, 5);

        List<Comparison> comparisons = scoreboard.comparisons();
        assertThat(comparisons).extracting(Comparison::metric).containsExactly(produce, consume);
        assertThat(comparisons.get(0).baselineMedian()).isEqualTo(200);
        assertThat(comparisons.get(0).candidateMedian()).isEqualTo(250);
        assertThat(comparisons.get(0).ratio()).isEqualTo(1.25);
        assertThat(comparisons.get(1).ratio()).isEqualTo(0.5);
    }

    @Test
    void aMetricMeasuredOnOneSideOnlyIsNotCompared() {
        add(new Metric(MetricKind.LATENCY_P99, "x", 100), Side.BASELINE, 1);
        assertThat(scoreboard.comparisons()).isEmpty();
        assertThatThrownBy(() -> scoreboard.median(new Metric(MetricKind.LATENCY_P99, "x", 100), Side.CANDIDATE))
                .hasMessageContaining("no samples");
    }

    @Test
    void rejectsNonFiniteSamples() {
        assertThatThrownBy(() -> scoreboard.add(new Metric(MetricKind.PRODUCE_CPU, "x", 100), Side.BASELINE, Double.NaN))
                .hasMessageContaining("not finite");
    }

    @Test
    void resultLineTakesTheGeometricMeanOfEachKindsRatiosAndPrintsTheExactFormat() {
        add(new Metric(MetricKind.PRODUCE_THROUGHPUT, "a", 100), Side.BASELINE, 100);
        add(new Metric(MetricKind.PRODUCE_THROUGHPUT, "a", 100), Side.CANDIDATE, 200);
        add(new Metric(MetricKind.PRODUCE_THROUGHPUT, "b", 100), Side.BASELINE, 100);
        add(new Metric(MetricKind.PRODUCE_THROUGHPUT, "b", 100), Side.CANDIDATE, 50);
        add(new Metric(MetricKind.PRODUCE_CPU, "a", 100), Side.BASELINE, 1);
        add(new Metric(MetricKind.PRODUCE_CPU, "a", 100), Side.CANDIDATE, 0.6);
        add(new Metric(MetricKind.CONSUME_THROUGHPUT, "c", 100), Side.BASELINE, 4);
        add(new Metric(MetricKind.CONSUME_THROUGHPUT, "c", 100), Side.CANDIDATE, 5);
        add(new Metric(MetricKind.LATENCY_P99, "l", 100), Side.BASELINE, 8);
        add(new Metric(MetricKind.LATENCY_P99, "l", 100), Side.CANDIDATE, 2);

        ResultLine line = ResultLine.from(scoreboard.comparisons());
        assertThat(line.produceRatio()).isCloseTo(1.0, within(1e-12));
        assertThat(line.toString())
                .isEqualTo("RESULT produce_ratio=1.000 consume_ratio=1.250 cpu_ratio=0.600 p99_ratio=0.250");
    }

    @Test
    void resultLineNeedsEveryKindItReports() {
        add(new Metric(MetricKind.PRODUCE_THROUGHPUT, "a", 100), Side.BASELINE, 1);
        add(new Metric(MetricKind.PRODUCE_THROUGHPUT, "a", 100), Side.CANDIDATE, 1);
        assertThatThrownBy(() -> ResultLine.from(scoreboard.comparisons())).hasMessageContaining("CONSUME_THROUGHPUT");
    }

    private void add(Metric metric, Side side, double... values) {
        for (double value : values) {
            scoreboard.add(metric, side, value);
        }
    }
}

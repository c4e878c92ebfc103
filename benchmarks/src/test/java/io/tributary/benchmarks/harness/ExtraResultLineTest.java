package io.tributary.benchmarks.harness;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExtraResultLineTest {
    private final Scoreboard scoreboard = new Scoreboard();

    @Test
    void theHeadlineIsReplicationFactorOneAndTheExtraLineHoldsTheRest() {
        add(new Metric(MetricKind.PRODUCE_THROUGHPUT, "a", 100), 100, 150);
        add(new Metric(MetricKind.PRODUCE_CPU, "a", 100), 1, 0.5);
        add(new Metric(MetricKind.CONSUME_THROUGHPUT, "c", 100), 4, 5);
        add(new Metric(MetricKind.LATENCY_P99, "l", 100), 8, 2);
        add(new Metric(MetricKind.PRODUCE_THROUGHPUT, "a RF3", 100, 3), 100, 50);
        add(new Metric(MetricKind.PRODUCE_THROUGHPUT, "b RF3", 100, 3), 100, 200);
        add(new Metric(MetricKind.PRODUCE_CPU, "a RF3", 100, 3), 2, 3);
        add(new Metric(MetricKind.GROUP_CONSUME_THROUGHPUT, "g", 100), 10, 12);
        add(new Metric(MetricKind.GROUP_CONSUME_CPU, "g", 100), 1, 0.25);
        List<Comparison> comparisons = scoreboard.comparisons();

        assertThat(ResultLine.from(comparisons)).hasToString(
                "RESULT produce_ratio=1.500 consume_ratio=1.250 cpu_ratio=0.500 p99_ratio=0.250");
        assertThat(ExtraResultLine.from(comparisons, 3)).hasToString(
                "EXTRA rf3_produce_ratio=1.000 rf3_cpu_ratio=1.500 group_consume_ratio=1.200 group_cpu_ratio=0.250");
    }

    @Test
    void aMissingReplicatedMeasureIsAnErrorNotARatio() {
        add(new Metric(MetricKind.GROUP_CONSUME_THROUGHPUT, "g", 100), 10, 12);
        add(new Metric(MetricKind.GROUP_CONSUME_CPU, "g", 100), 1, 1);

        assertThatThrownBy(() -> ExtraResultLine.from(scoreboard.comparisons(), 3))
                .hasMessageContaining("PRODUCE_THROUGHPUT at replication factor 3");
    }

    private void add(Metric metric, double baseline, double candidate) {
        scoreboard.add(metric, Side.BASELINE, baseline);
        scoreboard.add(metric, Side.CANDIDATE, candidate);
    }
}

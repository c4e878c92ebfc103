package io.tributary.benchmarks.harness;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LatencyDistributionTest {
    @Test
    void takesOnlyTheFilledPrefixAndSortsIt() {
        long[] nanos = {3_000_000, 1_000_000, 2_000_000, 0, 0};
        LatencyDistribution d = LatencyDistribution.of(nanos, 3);
        assertThat(d.count()).isEqualTo(3);
        assertThat(d.percentileMillis(0)).isEqualTo(1.0);
        assertThat(d.percentileMillis(0.5)).isEqualTo(2.0);
        assertThat(d.percentileMillis(1)).isEqualTo(3.0);
    }

    @Test
    void mergingPoolsTheSamplesOfAllRounds() {
        LatencyDistribution fast = LatencyDistribution.of(new long[] {1_000_000, 1_000_000}, 2);
        LatencyDistribution slow = LatencyDistribution.of(new long[] {9_000_000, 9_000_000}, 2);
        LatencyDistribution both = LatencyDistribution.merge(List.of(fast, slow));
        assertThat(both.count()).isEqualTo(4);
        assertThat(both.percentileMillis(0.5)).isEqualTo(1.0);
        assertThat(both.percentileMillis(0.75)).isEqualTo(9.0);
    }

    @Test
    void cdfRisesFromTheMinimumToTheMaximumAndIncludesTheTail() {
        long[] nanos = new long[1000];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = (i + 1) * 1_000L;
        }
        List<double[]> cdf = LatencyDistribution.of(nanos, nanos.length).cdfMillis(10);
        assertThat(cdf.get(0)).containsExactly(0.001, 0.0);
        assertThat(cdf.get(cdf.size() - 1)).containsExactly(1.0, 1.0);
        assertThat(cdf).anySatisfy(point -> assertThat(point).containsExactly(0.999, 0.999));
        for (int i = 1; i < cdf.size(); i++) {
            assertThat(cdf.get(i)[0]).isGreaterThanOrEqualTo(cdf.get(i - 1)[0]);
            assertThat(cdf.get(i)[1]).isGreaterThanOrEqualTo(cdf.get(i - 1)[1]);
        }
    }

    @Test
    void anEmptyDistributionIsAnError() {
        assertThatThrownBy(() -> LatencyDistribution.of(new long[4], 0)).isInstanceOf(IllegalArgumentException.class);
    }
}

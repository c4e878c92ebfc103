package io.tributary.benchmarks.harness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class StatisticsTest {
    private static final long[] ONE_TO_HUNDRED = new long[100];

    static {
        for (int i = 0; i < 100; i++) {
            ONE_TO_HUNDRED[i] = i + 1;
        }
    }

    @ParameterizedTest
    @CsvSource({"0.0, 1", "0.01, 1", "0.5, 50", "0.505, 51", "0.99, 99", "0.999, 100", "1.0, 100"})
    void nearestRankPercentileIsTheSmallestValueCoveringTheQuantile(double quantile, long expected) {
        assertThat(Statistics.percentileOfSorted(ONE_TO_HUNDRED, quantile)).isEqualTo(expected);
    }

    @Test
    void percentileOfASingleValueIsThatValue() {
        assertThat(Statistics.percentileOfSorted(new long[] {7}, 0.999)).isEqualTo(7);
    }

    @Test
    void percentileRejectsNoValuesAndQuantilesOutsideZeroToOne() {
        assertThatThrownBy(() -> Statistics.percentileOfSorted(new long[0], 0.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Statistics.percentileOfSorted(ONE_TO_HUNDRED, 1.5)).hasMessageContaining("1.5");
        assertThatThrownBy(() -> Statistics.percentileOfSorted(ONE_TO_HUNDRED, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void medianOfAnOddCountIsTheMiddleValueInAnyOrder() {
        assertThat(Statistics.median(List.of(9.0, 1.0, 5.0))).isEqualTo(5.0);
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
        assertThat(Statistics.median(List.of(4.0, 1.0, 3.0, 100.0))).isEqualTo(3.5);
    }

    @Test
    void medianOfNothingIsAnError() {
        assertThatThrownBy(() -> Statistics.median(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void geometricMeanOfReciprocalRatiosIsOne() {
        assertThat(Statistics.geometricMean(List.of(0.5, 2.0))).isCloseTo(1.0, within(1e-12));
        assertThat(Statistics.geometricMean(List.of(1.0, 4.0, 16.0))).isCloseTo(4.0, within(1e-12));
    }

    @Test
    void geometricMeanRejectsZeroAndNegativeValues() {
        assertThatThrownBy(() -> Statistics.geometricMean(List.of(1.0, 0.0))).hasMessageContaining("positive");
        assertThatThrownBy(() -> Statistics.geometricMean(List.of(-1.0))).hasMessageContaining("positive");
    }
}

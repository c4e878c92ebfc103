package io.tributary.benchmarks.harness;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TablesTest {
    private static final List<String> HEADER = List.of("measure", "A", "B/A");
    private static final List<List<String>> ROWS = List.of(
            List.of("produce 100B", "412,000", "1.250"),
            List.of("p99", "3.10", "0.9"));

    @Test
    void textTableAlignsTheFirstColumnLeftAndTheNumbersRight() {
        assertThat(Tables.text(HEADER, ROWS)).isEqualTo(
                "measure             A    B/A\n"
                        + "produce 100B  412,000  1.250\n"
                        + "p99              3.10    0.9\n");
    }

    @Test
    void markdownTableEscapesPipesAndRightAlignsNumericColumns() {
        assertThat(Tables.markdown(List.of("a|b", "n"), List.of(List.of("x", "1"))))
                .isEqualTo("| a\\|b | n |\n| --- | ---: |\n| x | 1 |\n");
    }
}

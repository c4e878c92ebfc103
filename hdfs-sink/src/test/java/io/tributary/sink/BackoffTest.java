package io.tributary.sink;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class BackoffTest {
    @ParameterizedTest
    @CsvSource({"1,500", "2,1000", "3,2000", "6,16000", "7,30000", "100,30000"})
    void doublesUpToTheCap(int failures, long expectedMs) {
        assertThat(new Backoff(500, 30_000).delayMs(failures)).isEqualTo(expectedMs);
    }
}

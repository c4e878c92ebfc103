package io.tributary.benchmarks.harness;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ExtraBrokerJvmOptionsTest {
    @Test
    void noOptionsWhenTheVariableIsUnsetOrBlank() {
        assertThat(ExtraBrokerJvmOptions.from(Map.of())).isEmpty();
        assertThat(ExtraBrokerJvmOptions.from(Map.of(ExtraBrokerJvmOptions.VARIABLE, "  \t"))).isEmpty();
    }

    @Test
    void splitsTheVariableOnWhiteSpace() {
        String value = " -XX:StartFlightRecording=filename=broker.jfr,settings=profile \t-Xlog:gc ";
        assertThat(ExtraBrokerJvmOptions.from(Map.of(ExtraBrokerJvmOptions.VARIABLE, value)))
                .containsExactly("-XX:StartFlightRecording=filename=broker.jfr,settings=profile", "-Xlog:gc");
    }
}

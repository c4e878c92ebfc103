package io.tributary.benchmarks.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class IdleFetchReportTest {
    private static final List<IdleFetchWorkload.Row> ROWS = List.of(
            new IdleFetchWorkload.Row("Apache Kafka 4.4 (A)", 0.02, 0.10, 300, 400),
            new IdleFetchWorkload.Row("Tributary (B)", 0.01, 0.05, 310, 420),
            new IdleFetchWorkload.Row("Tributary, max.incremental.fetch.session.cache.slots=0 (B')", 0.01, 0.30, 24000, 61000));

    @Test
    void theLastLineHoldsEachBrokersCpuWithTheConsumerAndTheRatioOfBToA() {
        assertThat(IdleFetchReport.resultLine(ROWS)).isEqualTo("IDLE_FETCH a=0.1000 b=0.0500 b_sessions_off=0.3000 ratio=0.500");
    }

    @Test
    void theTablesShowWhatTheConsumerAdds() {
        assertThat(IdleFetchReport.text(ROWS)).contains("Tributary (B)", "0.0400", "61,000");
        String markdown = IdleFetchReport.markdown(ROWS, IdleFetchWorkload.Plan.full(), "benchmarks/run --only=idle-fetch",
                Instant.parse("2026-12-01T10:00:00Z"), machine("0.50 0.40 0.30"), machine("0.60 0.50 0.40"));
        assertThat(markdown).contains("`benchmarks/run --only=idle-fetch` on 2026-12-01 10:00 UTC",
                "| Tributary (B) | 0.0100 | 0.0500 | 0.0400 | 310 | 420 |", "when the run started: 0.50 0.40 0.30; when it ended: 0.60 0.50 0.40")
                .doesNotContain("expect noise");
        assertThat(IdleFetchReport.markdown(ROWS, IdleFetchWorkload.Plan.full(), "x", Instant.EPOCH, machine("26.0 25.0 20.0"),
                machine("1 1 1"))).contains("expect noise");
        assertThat(IdleFetchReport.SECTION.rewrite("# Benchmarks\n", "body")).contains("<!-- idle-fetch:begin -->\nbody\n<!-- idle-fetch:end -->");
    }

    private static MachineInfo machine(String loadAverage) {
        return new MachineInfo(2, "cpu", "23.5 GiB", "java", "linux", loadAverage);
    }
}

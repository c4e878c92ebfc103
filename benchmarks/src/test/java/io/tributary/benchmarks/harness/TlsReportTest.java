package io.tributary.benchmarks.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.junit.jupiter.api.Test;

class TlsReportTest {
    private static final SecurityProtocol PLAINTEXT = SecurityProtocol.PLAINTEXT;
    private static final SecurityProtocol SSL = SecurityProtocol.SSL;
    private static final Map<Side, BrokerFlavor> FLAVORS = Map.of(Side.BASELINE, BrokerFlavor.APACHE_KAFKA,
            Side.CANDIDATE, BrokerFlavor.TRIBUTARY);

    /**
     * Kafka: produce 200k/s → 150k/s over TLS at 4 → 6 CPU-s per 1M; consume 1M/s → 250k/s at 0.1 → 0.8.
     * Tributary: produce 240k/s → 200k/s at 3 → 4.5; consume 1.2M/s → 300k/s at 0.08 → 0.6. Three rounds each.
     */
    private static final TlsResult RESULT = new TlsResult(FLAVORS, List.of(
            comparison(MetricKind.PRODUCE_THROUGHPUT, PLAINTEXT, 200_000, 240_000),
            comparison(MetricKind.PRODUCE_CPU, PLAINTEXT, 4, 3),
            comparison(MetricKind.PRODUCE_THROUGHPUT, SSL, 150_000, 200_000),
            comparison(MetricKind.PRODUCE_CPU, SSL, 6, 4.5),
            comparison(MetricKind.CONSUME_THROUGHPUT, PLAINTEXT, 1_000_000, 1_200_000),
            comparison(MetricKind.CONSUME_CPU, PLAINTEXT, 0.1, 0.08),
            comparison(MetricKind.CONSUME_THROUGHPUT, SSL, 250_000, 300_000),
            comparison(MetricKind.CONSUME_CPU, SSL, 0.8, 0.6)));

    @Test
    void theCostLineHoldsEachBrokersSslOverPlaintextAndTheLastLineTheBrokersSideBySideOverSsl() {
        assertThat(TlsReport.costLine(RESULT)).isEqualTo("TLS_COST a_produce=0.750 a_produce_cpu=1.500 a_consume=0.250 "
                + "a_consume_cpu=8.000 b_produce=0.833 b_produce_cpu=1.500 b_consume=0.250 b_consume_cpu=7.500");
        assertThat(TlsReport.resultLine(RESULT)).isEqualTo(
                "TLS produce_ratio=1.333 produce_cpu_ratio=0.750 consume_ratio=1.200 consume_cpu_ratio=0.750");
    }

    @Test
    void theTablesShowTheMediansPerBrokerAndListenerThenTheRatios() {
        String text = TlsReport.text(RESULT);
        assertThat(text).contains("Apache Kafka 4.4 (A) PLAINTEXT", "Tributary (B) SSL", "Tributary (B): SSL ÷ PLAINTEXT",
                "B ÷ A over SSL");
        String markdown = TlsReport.markdown(RESULT, TlsWorkload.Plan.full(), "benchmarks/run --only=tls",
                Instant.parse("2026-12-06T10:00:00Z"), machine("0.50 0.40 0.30"), machine("0.60 0.50 0.40"));
        assertThat(markdown).contains("`benchmarks/run --only=tls` on 2026-12-06 10:00 UTC",
                "| produce 1KiB acks=all 1p | records/s | 3 | 200,000 | 150,000 | 240,000 | 200,000 |",
                "| broker CPU, consume 1KiB 1p | CPU-s per 1M records | 3 | 0.100 | 0.800 | 0.080 | 0.600 |",
                "| broker CPU, produce 1KiB acks=all 1p | 1.500 | 1.500 | 0.750 | 0.750 |",
                "| consume 1KiB 1p | 0.250 | 0.250 | 1.200 | 1.200 |",
                "500,000 records of 1024 B", "`log.segment.bytes=1073741824`", "1024 B records, acks=all, 1 partition, for 1.5 s",
                "TLS_COST a_produce=0.750", "TLS produce_ratio=1.333",
                "when the run started: 0.50 0.40 0.30; when it ended: 0.60 0.50 0.40")
                .doesNotContain("expect noise");
        assertThat(TlsReport.markdown(RESULT, TlsWorkload.Plan.quick(), "x", Instant.EPOCH, machine("16.0 10.0 12.0"),
                machine("1 1 1"))).contains("expect noise");
        assertThat(TlsReport.SECTION.rewrite("# Benchmarks\n", "body")).contains("<!-- tls:begin -->\nbody\n<!-- tls:end -->");
    }

    @Test
    void countsTheRoundsTheBudgetLeftToTheShortestSeries() {
        List<Comparison> comparisons = new ArrayList<>(RESULT.comparisons());
        comparisons.set(0, new Comparison(TlsWorkload.metric(MetricKind.PRODUCE_THROUGHPUT, PLAINTEXT), List.of(1.0, 2.0),
                List.of(1.0, 2.0, 3.0)));
        TlsResult cut = new TlsResult(FLAVORS, comparisons);
        assertThat(cut.rounds(MetricKind.PRODUCE_THROUGHPUT)).isEqualTo(2);
        assertThat(cut.rounds(MetricKind.CONSUME_CPU)).isEqualTo(3);
    }

    @Test
    void aMeasureMissingOnOneListenerIsAnErrorNotARatioOfNothing() {
        TlsResult partial = new TlsResult(FLAVORS, RESULT.comparisons().subList(0, 2));
        assertThatThrownBy(() -> partial.tlsCost(MetricKind.PRODUCE_THROUGHPUT, Side.CANDIDATE))
                .hasMessageContaining("produce 1KiB acks=all 1p SSL");
    }

    /** Three rounds per broker whose median is the value given. */
    private static Comparison comparison(MetricKind kind, SecurityProtocol listener, double kafka, double tributary) {
        return new Comparison(TlsWorkload.metric(kind, listener), List.of(kafka * 0.9, kafka, kafka * 1.2),
                List.of(tributary * 1.1, tributary * 0.8, tributary));
    }

    private static MachineInfo machine(String loadAverage) {
        return new MachineInfo(2, "cpu", "23.5 GiB", "java", "linux", loadAverage);
    }
}

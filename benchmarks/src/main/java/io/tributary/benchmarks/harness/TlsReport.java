package io.tributary.benchmarks.harness;

import org.apache.kafka.common.security.auth.SecurityProtocol;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The TLS workload's report: two tables (plain text for the terminal, Markdown for the marked section of
 * docs/benchmarks.md), the medians per broker and listener and their ratios, and two last lines:
 * {@code TLS_COST a_produce=<x> ... b_consume_cpu=<y>}, each broker's SSL ÷ PLAINTEXT, and
 * {@code TLS produce_ratio=<x> produce_cpu_ratio=<y> consume_ratio=<z> consume_cpu_ratio=<w>}, B ÷ A over SSL.
 */
final class TlsReport {
    private static final String SECTION_NAME = "tls";
    static final MarkdownSection SECTION = MarkdownSection.named(SECTION_NAME);
    /** The name of each measure in the last lines. */
    private static final Map<MetricKind, String> KEYS = Map.of(MetricKind.PRODUCE_THROUGHPUT, "produce", MetricKind.PRODUCE_CPU,
            "produce_cpu", MetricKind.CONSUME_THROUGHPUT, "consume", MetricKind.CONSUME_CPU, "consume_cpu");

    private TlsReport() {
    }

    static String text(TlsResult result) {
        return Tables.text(mediansHeader(result), medians(result)) + "\n" + Tables.text(ratiosHeader(result), ratios(result));
    }

    /** Each broker's SSL ÷ PLAINTEXT per measure. */
    static String costLine(TlsResult result) {
        List<String> fields = new ArrayList<>();
        for (Side side : Side.values()) {
            for (MetricKind kind : TlsResult.KINDS) {
                fields.add(side.letter().toLowerCase(Locale.ROOT) + "_" + KEYS.get(kind) + "=" + ratio(result.tlsCost(kind, side)));
            }
        }
        return "TLS_COST " + String.join(" ", fields);
    }

    /** B ÷ A over SSL per measure. */
    static String resultLine(TlsResult result) {
        List<String> fields = TlsResult.KINDS.stream()
                .map(kind -> KEYS.get(kind) + "_ratio=" + ratio(result.candidateOverBaseline(kind, SecurityProtocol.SSL))).toList();
        return "TLS " + String.join(" ", fields);
    }

    /** The Markdown between the tls markers. */
    static String markdown(TlsResult result, TlsWorkload.Plan plan, String command, Instant finished, MachineInfo atStart,
                           MachineInfo atEnd) {
        StringBuilder md = new StringBuilder(SingleWorkloadSection.opening(SECTION_NAME, command, finished, atStart));
        md.append(String.format(Locale.ROOT, "Each broker alone in its own `-Xmx%s` JVM with two listeners, PLAINTEXT and SSL "
                + "(kafka-clients' and the JDK's TLS defaults on both sides, an EC P-256 certificate made by keytool for the run, "
                + "no client certificate), with the settings of the whole run but `log.segment.bytes=%d`, so that the consume "
                + "topic stays in the active segment. Produce: one producer, %d B records, acks=%s, %d partition, for %.1f s per "
                + "phase. Consume: one group-less consumer reads the same %,d records of %d B (%d partition, written over "
                + "PLAINTEXT at set-up, so in the page cache) from the beginning. Medians of up to %d rounds per section, each "
                + "in the order A PLAINTEXT, A SSL, B PLAINTEXT, B SSL, reversed every other round, after an unrecorded pass; "
                + "broker CPU is the user + system time of the broker's JVM from `/proc`.%n%n", plan.brokerHeap(),
                TlsWorkload.SEGMENT_BYTES, TlsWorkload.PRODUCE.recordBytes(), TlsWorkload.PRODUCE.acks(),
                TlsWorkload.PRODUCE.partitions(), plan.produceDuration().toMillis() / 1000.0, plan.consumeRecords(),
                TlsWorkload.CONSUME.recordBytes(), TlsWorkload.CONSUME.partitions(), plan.rounds()));
        md.append(Tables.markdown(mediansHeader(result), medians(result))).append('\n');
        md.append(Tables.markdown(ratiosHeader(result), ratios(result)));
        md.append("\n```\n").append(costLine(result)).append('\n').append(resultLine(result)).append("\n```\n\n");
        return md.append(SingleWorkloadSection.closing(atStart, atEnd)).toString();
    }

    private static List<String> mediansHeader(TlsResult result) {
        List<String> header = new ArrayList<>(List.of("measure", "unit", "rounds"));
        for (Side side : Side.values()) {
            TlsWorkload.LISTENERS.forEach(listener -> header.add(result.label(side) + " " + listener.name));
        }
        return header;
    }

    private static List<List<String>> medians(TlsResult result) {
        return TlsResult.KINDS.stream().map(kind -> {
            List<String> row = new ArrayList<>(List.of(measure(kind), kind.unit(), Integer.toString(result.rounds(kind))));
            for (Side side : Side.values()) {
                TlsWorkload.LISTENERS.forEach(listener -> row.add(kind.format(result.median(kind, listener, side))));
            }
            return List.copyOf(row);
        }).toList();
    }

    private static List<String> ratiosHeader(TlsResult result) {
        return List.of("measure", result.label(Side.BASELINE) + ": SSL ÷ PLAINTEXT", result.label(Side.CANDIDATE)
                + ": SSL ÷ PLAINTEXT", "B ÷ A over PLAINTEXT", "B ÷ A over SSL");
    }

    private static List<List<String>> ratios(TlsResult result) {
        return TlsResult.KINDS.stream().map(kind -> List.of(measure(kind), ratio(result.tlsCost(kind, Side.BASELINE)),
                ratio(result.tlsCost(kind, Side.CANDIDATE)),
                ratio(result.candidateOverBaseline(kind, SecurityProtocol.PLAINTEXT)),
                ratio(result.candidateOverBaseline(kind, SecurityProtocol.SSL)))).toList();
    }

    /** "broker CPU, produce 1KiB acks=all 1p". */
    private static String measure(MetricKind kind) {
        return TlsWorkload.measure(kind).label();
    }

    private static String ratio(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }
}

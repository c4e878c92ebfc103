package io.tributary.benchmarks.harness;

import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The idle-fetch workload's report: a table (plain text for the terminal, Markdown for the marked section of
 * docs/benchmarks.md) and the last line {@code IDLE_FETCH a=<x> b=<y> b_sessions_off=<z> ratio=<y/x>}, the brokers'
 * CPU-seconds per second with the idle consumer.
 */
final class IdleFetchReport {
    private static final String SECTION_NAME = "idle-fetch";
    static final MarkdownSection SECTION = MarkdownSection.named(SECTION_NAME);
    private static final List<String> HEADER = List.of("broker", "alone (CPU-s/s)", "with the idle consumer (CPU-s/s)",
            "the consumer's share (CPU-s/s)", "consumer sent (B/s)", "consumer received (B/s)");

    private IdleFetchReport() {
    }

    static String text(List<IdleFetchWorkload.Row> rows) {
        return Tables.text(HEADER, cells(rows));
    }

    static String resultLine(List<IdleFetchWorkload.Row> rows) {
        double a = rows.get(0).withConsumerCpu();
        double b = rows.get(1).withConsumerCpu();
        return String.format(Locale.ROOT, "IDLE_FETCH a=%.4f b=%.4f b_sessions_off=%.4f ratio=%.3f", a, b, rows.get(2).withConsumerCpu(),
                b / a);
    }

    /** The Markdown between the idle-fetch markers. */
    static String markdown(List<IdleFetchWorkload.Row> rows, IdleFetchWorkload.Plan plan, String command, Instant finished,
                           MachineInfo atStart, MachineInfo atEnd) {
        StringBuilder md = new StringBuilder(SingleWorkloadSection.opening(SECTION_NAME, command, finished, atStart));
        md.append(String.format(Locale.ROOT, "One consumer assigned all %d partitions of a topic without records, at their end, "
                + "polling without pause; medians of %d rounds (%d s alone, then %d s with the consumer after a %d s warm-up, "
                + "per broker and round). The bytes are the consumer's own network metrics (requests and responses, headers "
                + "included).%n%n", IdleFetchWorkload.PARTITIONS, plan.rounds(), plan.idleWindow().toSeconds(),
                plan.consumerWindow().toSeconds(), plan.warmUp().toSeconds()));
        md.append(Tables.markdown(HEADER, cells(rows)));
        md.append("\n```\n").append(resultLine(rows)).append("\n```\n\n");
        return md.append(SingleWorkloadSection.closing(atStart, atEnd)).toString();
    }

    private static List<List<String>> cells(List<IdleFetchWorkload.Row> rows) {
        return rows.stream().map(row -> List.of(row.broker(), number(row.idleCpu()), number(row.withConsumerCpu()),
                number(row.consumerCpu()), String.format(Locale.ROOT, "%,.0f", row.bytesSent()),
                String.format(Locale.ROOT, "%,.0f", row.bytesReceived()))).toList();
    }

    private static String number(double cpuPerSecond) {
        return String.format(Locale.ROOT, "%.4f", cpuPerSecond);
    }
}

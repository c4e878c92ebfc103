package io.tributary.sink;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The one-line console status: what it shows, how often, and that it is off without a terminal. */
class StatusReporterTest {
    private static final long HOUR = 3_600_000L;

    private final ByteArrayOutputStream screen = new ByteArrayOutputStream();
    private final StatusReporter reporter = new StatusReporter(HOUR, new PrintStream(screen, true, StandardCharsets.UTF_8), 0);

    private static PartitionStatus status(int partition, long lag, long freshnessMs, double rate, long files, boolean recovering) {
        return new PartitionStatus(new TopicPartition("orders", partition), lag, freshnessMs, rate, 1000, files, 0, 0, 0, recovering,
            -1, -1, Optional.empty());
    }

    private String shown() {
        return screen.toString(StandardCharsets.UTF_8);
    }

    @Test
    void rendersOneLineSummingThePartitionsAndRewritesItInPlace() {
        reporter.report(List.of(status(0, 10, 1200, 100, 3, false), status(1, 5, 700, 200, 1, false)), 0);
        assertThat(shown()).isEqualTo("\rtributary-sink: 2 partitions, lag 15, oldest uncommitted 1200 ms, 300 records/s, "
            + "4 files committed   ");
    }

    @Test
    void namesPartitionsNotFetchedYetAndThoseWaitingForStorage() {
        reporter.report(List.of(status(0, -1, 0, 0, 0, true), status(1, 7, 0, 0, 2, false)), 0);
        assertThat(shown()).isEqualTo("\rtributary-sink: 2 partitions, lag 7 (+1 not fetched yet), oldest uncommitted 0 ms, "
            + "0 records/s, 2 files committed, 1 RECOVERING (storage unreachable)   ");
    }

    @Test
    void namesThePartitionsHeldByOpenTransactionsAndTheOldestHold() {
        PartitionStatus held = new PartitionStatus(new TopicPartition("orders", 2), 0, 0, 0, 1000, 1, 0, 0, 0, false, -1, -1,
            Optional.of(new TransactionHold(1234, 7, 1_700_000_000_000L)));
        PartitionStatus newer = new PartitionStatus(new TopicPartition("orders", 3), 0, 0, 0, 1000, 1, 0, 0, 0, false, -1, -1,
            Optional.of(new TransactionHold(99, 8, 1_700_000_060_000L)));
        reporter.report(List.of(status(0, 0, 0, 0, 1, false), newer, held), 0);
        assertThat(shown()).contains(", 2 HELD by open transactions (longest: orders-2 at offset 1234 by the open "
            + "transaction of producer 7 since 2023-11-14T22:13:20Z)");
        assertThat(held.logLine()).endsWith(" HELD at offset 1234 by the open transaction of producer 7 since 2023-11-14T22:13:20Z");
    }

    @Test
    void rewritesTheLineOncePerSecond() {
        assertThat(reporter.isDue(0)).isTrue();
        reporter.report(List.of(status(0, 1, 0, 0, 0, false)), 0);
        assertThat(reporter.isDue(999)).isFalse();
        assertThat(reporter.isDue(1000)).isTrue();
        reporter.report(List.of(status(0, 0, 0, 0, 1, false)), 1000);
        String[] lines = shown().split("\r");
        assertThat(lines).hasSize(3);
        assertThat(lines[2]).contains("lag 0,").contains("1 files committed");
    }

    @Test
    void withoutATerminalThereIsNoConsoleLineUnlessAskedFor() {
        assertThat(System.console()).as("tests run without a terminal").isNull();
        StatusReporter auto = StatusReporter.forProcess(HOUR, ConsoleStatus.AUTO, 0);
        assertThat(auto.hasConsole()).isFalse();
        assertThat(auto.isDue(0)).as("nothing to do before the first log line").isFalse();
        assertThat(StatusReporter.forProcess(HOUR, ConsoleStatus.ON, 0).hasConsole()).isTrue();
        assertThat(StatusReporter.forProcess(HOUR, ConsoleStatus.OFF, 0).hasConsole()).isFalse();
        assertThat(ConsoleStatus.AUTO.isOn(true)).isTrue();
        assertThat(ConsoleStatus.OFF.isOn(true)).isFalse();
        assertThat(ConsoleStatus.parse(" On ")).isEqualTo(ConsoleStatus.ON);
    }
}

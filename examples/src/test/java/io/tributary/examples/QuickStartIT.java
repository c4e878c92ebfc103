package io.tributary.examples;

import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The whole quick start in this JVM, in a temp dir, twice: every stage's count agrees both times. */
class QuickStartIT {

    @Test
    void countsOfEveryStageAgreeAndARepeatedRunAgreesToo(@TempDir Path work) throws Exception {
        Path data = work.resolve("tributary-data");

        QuickStartSummary first = runQuickStart(data);
        QuickStartSummary second = runQuickStart(data);

        for (QuickStartSummary summary : new QuickStartSummary[] {first, second}) {
            assertThat(summary.countsAgree()).as("counts agree: %s", summary).isTrue();
            assertThat(summary.pageViews().produced()).as("page views produced").isGreaterThan(100);
            assertThat(summary.pageViews().parquet().files()).as("sink files (short rotation)").isGreaterThan(1);
            assertThat(summary.serverLogs().parquet().rows()).isEqualTo(2000);
            assertThat(summary.serverLogs().errorsComputed()).as("errors per host").hasSize(6);
        }
        // The second run started from an empty directory, so it did not see the first run's records.
        assertThat(second.pageViews().inTopic()).isEqualTo(second.pageViews().produced());
        assertThat(second.serverLogs().errorsComputed()).isEqualTo(first.serverLogs().errorsComputed());
        assertThat(Files.list(data.resolve("warehouse").resolve("page-views"))).isNotEmpty();
    }

    private static QuickStartSummary runQuickStart(Path data) throws Exception {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        QuickStartSummary summary;
        try (PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8)) {
            QuickStart quickStart = QuickStart.parse(Time.SYSTEM, out, "--data-dir", data.toString(), "--port", "0",
                "--seconds", "4", "--rate", "300", "--log-lines", "2000");
            summary = quickStart.run(QuickStartDirectory.prepare(data));
        }
        String printed = console.toString(StandardCharsets.UTF_8);
        assertThat(printed).contains("views |", "== Summary", "all agree", "duckdb -c", "read_parquet(")
            .doesNotContain("DISAGREE");
        return summary;
    }
}

package io.tributary.sink;

import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.LostRange;
import io.tributary.hadoop.dataset.LostRangeReport;
import io.tributary.hadoop.loader.TopicLoader;
import io.tributary.testkit.PrometheusScrape;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Records that retention (here DeleteRecords) took before the sink wrote them: on.missing=fail
 * stops the sink naming the range, skip lands the rest and writes the loader's lost-range report,
 * both at a restart and while the sink is running behind.
 */
class SinkRetentionGapIT extends BrokerTestBase {
    private static final Duration DEADLINE = Duration.ofMinutes(2);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // keeps the sink logs of a failure
    java.nio.file.Path dir;

    private final Configuration conf = new Configuration();

    @Test
    @Timeout(300)
    void aGapAtRestartStopsTheSinkNamingItThenSkipLandsTheRestAndReportsIt() throws Exception {
        String topic = "gap-restart";
        Path root = new Path(dir.resolve("lake").toUri());
        Map<String, Object> props = tenThousandRecordsToSink(topic, root);
        try (RunningSink sink = RunningSink.start(props)) {
            awaitLedger(root, topic, 10_000);
        }
        TestLoad.produce(broker.bootstrapServers(), topic, 1, 10_000);
        broker.deleteRecordsBefore(topic, 0, 15_000);

        try (SinkProcess failing = SinkProcess.start(dir, "fail", props)) {
            assertThat(failing.awaitExit(DEADLINE)).as("exit code; %s", failing.logEnd()).isEqualTo(1);
            assertThat(failing.logText()).contains(topic + "-0 offsets [10000, 15000)", "on.missing=skip")
                .doesNotContain("\tat ");
        }
        assertThat(SinkTests.ledger(root, topic, conf)).isEqualTo(Map.of(0, 10_000L));
        assertThat(reportFiles(root)).isEmpty();

        props.put(SinkConfig.ON_MISSING, "skip");
        props.put(SinkConfig.HTTP_LISTENERS, "http://127.0.0.1:0");
        try (RunningSink sink = RunningSink.start(props)) {
            awaitLedger(root, topic, 20_000);
            assertThat(sink.sink().lostRanges()).containsExactly(new LostRange(topic, 0, 10_000, 15_000));
            PrometheusScrape metrics = PrometheusScrape.of("http://127.0.0.1:" + sink.sink().httpAddresses().get(0).getPort());
            assertThat(metrics.value("tributary_sink_lost_ranges_total", Map.of("topic", topic))).hasValue(1.0);
            assertThat(metrics.value("tributary_sink_lost_records_total", Map.of("topic", topic))).hasValue(5_000.0);
        }
        assertThat(assertLandedAroundOneGap(root, topic)).isEqualTo(new LostRange(topic, 0, 10_000, 15_000));
    }

    // Its offsets start over: resuming at the ledger would skip the new topic's records below it without a word.
    @Test
    @Timeout(180)
    void aTopicDeletedAndCreatedAgainStopsTheLoaderAndTheSinkInsteadOfSkippingItsFirstRecords() throws Exception {
        String topic = "created-again";
        Path root = new Path(dir.resolve("lake").toUri());
        broker.createTopic(topic, 1);
        TestLoad.produce(broker.bootstrapServers(), topic, 1, 100);
        assertThat(runLoader(topic, root).exit()).isZero();
        assertThat(SinkTests.ledger(root, topic, conf)).isEqualTo(Map.of(0, 100L));

        broker.deleteTopic(topic);
        broker.createTopic(topic, 1);
        TestLoad.produce(broker.bootstrapServers(), topic, 1, 300); // longer than the dataset: nothing looks out of range

        LoaderRun refused = runLoader(topic, root);
        assertThat(refused.exit()).as("loader: %s", refused.output()).isEqualTo(1);
        assertThat(refused.output()).contains("deleted and created again", "new output directory");
        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, topic + "-sink", root);
        try (RunningSink sink = RunningSink.start(props)) {
            assertThat(sink.awaitFailure(DEADLINE)).isInstanceOf(MissingRecordsException.class)
                .hasMessageContaining("deleted and created again");
        }
        assertThat(SinkTests.ledger(root, topic, conf)).as("ledger").isEqualTo(Map.of(0, 100L));
        assertThat(DatasetContents.dataFiles(root, topic, conf)).as("files of the loader's first run only").hasSize(1);
    }

    private record LoaderRun(int exit, String output) {
    }

    private LoaderRun runLoader(String topic, Path root) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int exit = ToolRunner.run(SinkTests.localJobs(dir), new TopicLoader(print, print),
            SinkTests.loaderArgs(dir, broker.bootstrapServers(), topic, root).toArray(String[]::new));
        return new LoaderRun(exit, out.toString(StandardCharsets.UTF_8));
    }

    @Test
    @Timeout(300)
    void retentionOvertakingARunningSinkIsSkippedAndReported() throws Exception {
        String topic = "gap-running";
        Path root = new Path(dir.resolve("lake").toUri());
        Map<String, Object> props = tenThousandRecordsToSink(topic, root);
        props.put(SinkConfig.ON_MISSING, "skip");
        // Long enough that the pause below keeps the assignment: the gap meets the running sink, not a new owner.
        props.put(SinkConfig.CONSUMER_PREFIX + "session.timeout.ms", "45000");
        try (SinkProcess sink = SinkProcess.start(dir, "running", props)) {
            awaitLedger(root, topic, 10_000);
            sink.pause();
            try {
                TestLoad.produce(broker.bootstrapServers(), topic, 1, 10_000);
                broker.deleteRecordsBefore(topic, 0, 15_000);
            } finally {
                sink.resume();
            }
            awaitLedger(root, topic, 20_000);
            sink.assertStopsCleanly();
        }
        // A fetch in flight at the pause may still bring records read before the delete: the gap starts after them.
        LostRange lost = assertLandedAroundOneGap(root, topic);
        assertThat(lost.start()).isBetween(10_000L, 14_999L);
        assertThat(lost.end()).isEqualTo(15_000L);
        String log = Files.readString(dir.resolve("running.log"));
        String skipped = lost + " were deleted from the log before the sink wrote them; skipped";
        assertThat(log).contains(skipped).contains("1 lost ranges skipped (" + (lost.end() - lost.start()) + " offsets");
        assertThat(log.substring(0, log.indexOf(skipped))).as("the running sink met the gap, not a new owner")
            .doesNotContain("released [" + topic);
    }

    /** A one-partition topic holding offsets 0..9,999, and sink settings for it. */
    private static Map<String, Object> tenThousandRecordsToSink(String topic, Path root) throws Exception {
        broker.createTopic(topic, 1);
        TestLoad.produce(broker.bootstrapServers(), topic, 1, 10_000);
        return SinkTests.props(broker.bootstrapServers(), topic, topic + "-sink", root);
    }

    private void awaitLedger(Path root, String topic, long next) throws IOException {
        await().atMost(DEADLINE).until(() -> SinkTests.ledger(root, topic, conf).getOrDefault(0, 0L) >= next);
        assertThat(SinkTests.ledger(root, topic, conf)).isEqualTo(Map.of(0, next));
    }

    /** Asserts one lost-range report and a dataset of every other offset below 20,000 exactly once; returns the range. */
    private LostRange assertLandedAroundOneGap(Path root, String topic) throws Exception {
        List<java.nio.file.Path> reports = reportFiles(root);
        assertThat(reports).hasSize(1);
        List<String> lines = Files.readAllLines(reports.get(0));
        assertThat(lines).hasSize(2).first().isEqualTo(LostRangeReport.HEADER);
        LostRange lost = LostRange.parse(lines.get(1));
        DatasetContents contents = DatasetContents.read(root, topic, conf);
        assertThat(contents.duplicates()).isEmpty();
        assertThat(contents.misnamed()).isEmpty();
        BitSet expected = new BitSet();
        expected.set(0, (int) lost.start());
        expected.set((int) lost.end(), 20_000);
        assertThat(contents.offsets()).isEqualTo(Map.of(0, expected));
        return lost;
    }

    private static List<java.nio.file.Path> reportFiles(Path root) throws Exception {
        java.nio.file.Path reports = Paths.get(new Path(DatasetLayout.utc(root).metaDir(), "lost-ranges").toUri());
        if (!Files.exists(reports)) {
            return List.of();
        }
        try (var files = Files.list(reports)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".tsv")).toList();
        }
    }
}

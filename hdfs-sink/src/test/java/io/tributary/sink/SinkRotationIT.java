package io.tributary.sink;

import io.tributary.testkit.HeadlessChromium;
import io.tributary.testkit.PrometheusScrape;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Rotation by the timer and by size, on the local filesystem. */
class SinkRotationIT extends BrokerTestBase {
    private final Configuration conf = new Configuration();

    @TempDir
    java.nio.file.Path dir;

    @Test
    void timerCommitsFilesOfAnIdleTopic() throws Exception {
        String topic = "idle";
        broker.createTopic(topic, 2);
        TestLoad.produce(broker.bootstrapServers(), topic, 2, 10);
        Path root = new Path(dir.resolve("lake").toUri());
        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, "idle-sink", root);
        props.put(SinkConfig.FLUSH_SIZE, "1000000");
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "1500");
        try (RunningSink sink = RunningSink.start(props)) {
            // No record arrives after the first ten: only the timer can commit them.
            await().atMost(Duration.ofSeconds(30))
                .until(() -> SinkTests.ledger(root, topic, conf).equals(Map.of(0, 5L, 1, 5L)));
            await().atMost(Duration.ofSeconds(10)).until(() -> sink.sink().status().stream()
                .allMatch(s -> s.freshnessMs() == 0 && s.filesCommitted() == 1 && s.recordsCommitted() == 5));
        }
        DatasetContents contents = DatasetContents.read(root, topic, conf);
        contents.assertExactly(Map.of(0, 5L, 1, 5L));
        assertThat(contents.files()).isEqualTo(2);
        assertThat(DatasetContents.leftovers(root, conf)).isEmpty();
        assertThat(broker.committedOffsets("idle-sink")).isEqualTo(Map.of(0, 5L, 1, 5L));
    }

    /** Also what the sink tells on http.listeners: GET /metrics, and the status page as headless Chromium renders it. */
    @Test
    void flushSizeCutsFilesAndShutdownCommitsTheRest() throws Exception {
        String topic = "sized";
        broker.createTopic(topic, 1);
        TestLoad.produce(broker.bootstrapServers(), topic, 1, 2500);
        Path root = new Path(dir.resolve("lake").toUri());
        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, "sized-sink", root);
        props.put(SinkConfig.FLUSH_SIZE, "1000");
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "3600000");
        props.put(SinkConfig.HTTP_LISTENERS, "http://127.0.0.1:0");
        try (RunningSink sink = RunningSink.start(props)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> SinkTests.ledger(root, topic, conf).equals(Map.of(0, 2000L)));
            await().atMost(Duration.ofSeconds(30)).until(() -> sink.sink().status().stream()
                .allMatch(s -> s.lag() == 0 && s.freshnessMs() > 0));
            assertThat(SinkTests.ledger(root, topic, conf)).isEqualTo(Map.of(0, 2000L));

            String url = "http://127.0.0.1:" + sink.sink().httpAddresses().get(0).getPort();
            PrometheusScrape metrics = PrometheusScrape.of(url);
            Map<String, String> sized = Map.of("topic", topic);
            assertThat(metrics.value("tributary_sink_records_written_total", sized)).hasValue(2000.0);
            assertThat(metrics.value("tributary_sink_files_committed_total", sized)).hasValue(2.0);
            long committedBytes = 0;
            for (Path file : DatasetContents.dataFiles(root, topic, conf)) {
                committedBytes += file.getFileSystem(conf).getFileStatus(file).getLen();
            }
            assertThat(metrics.value("tributary_sink_bytes_written_total", sized)).hasValue((double) committedBytes);
            assertThat(metrics.value("tributary_sink_lag", Map.of("topic", topic, "partition", "0"))).hasValue(0.0);
            assertThat(metrics.value("tributary_sink_commit_latency_seconds_count")).hasValue(2.0);
            assertThat(metrics.value("tributary_sink_commit_latency_seconds", Map.of("quantile", "0.99"))).isPresent();
            assertThat(metrics.value("tributary_sink_oldest_uncommitted_seconds"))
                .hasValueSatisfying(seconds -> assertThat(seconds).isPositive());
            assertThat(metrics.value("tributary_sink_partitions")).hasValue(1.0);
            assertThat(metrics.value("tributary_sink_partitions_recovering")).hasValue(0.0);
            assertThat(metrics.value("tributary_sink_lost_ranges_total", sized)).isEmpty();

            HeadlessChromium chromium = new HeadlessChromium(dir);
            String dom = chromium.dumpDom(url + "/");
            assertThat(dom).contains("<h1>Tributary sink sized-sink</h1>", "<meta http-equiv=\"refresh\" content=\"5\">")
                .contains("<tr><td>sized</td><td class=\"num\">0</td><td class=\"num\">0</td>")
                .contains("<td class=\"num\">2000</td><td class=\"num\">2</td><td class=\"num\">2000</td>")
                .contains("<td>writing</td>")
                .doesNotContain("<script", "none yet");
            chromium.screenshot(url + "/", java.nio.file.Path.of("target", "status-page-sink.png"), 1280, 500);
        }
        // The last 500 sat in an open file until shutdown committed them.
        assertThat(SinkTests.ledger(root, topic, conf)).isEqualTo(Map.of(0, 2500L));
        DatasetContents contents = DatasetContents.read(root, topic, conf);
        contents.assertExactly(Map.of(0, 2500L));
        assertThat(contents.files()).isEqualTo(3);
    }
}

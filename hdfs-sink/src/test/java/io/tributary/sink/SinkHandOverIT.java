package io.tributary.sink;

import io.tributary.hadoop.loader.TopicLoader;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The batch loader and the sink taking turns on one topic and one dataset: loader, then sink,
 * then loader again. Every turn starts where the previous one ended, and DuckDB reads the result
 * as one table.
 */
class SinkHandOverIT extends BrokerTestBase {

    @TempDir
    java.nio.file.Path dir;

    @Test
    void loaderThenSinkThenLoaderMakeOneDatasetWithoutGapOrDuplicate() throws Exception {
        String topic = "handover";
        int partitions = 3;
        broker.createTopic(topic, partitions);
        Path root = new Path(dir.resolve("lake").toUri());
        Configuration conf = localJobs();

        TestLoad.produce(broker.bootstrapServers(), topic, partitions, 6_000);
        runLoader(conf, topic, root);
        Map<Integer, Long> afterBackfill = broker.endOffsets(topic, partitions);
        assertThat(SinkTests.ledger(root, topic, conf)).isEqualTo(afterBackfill);
        int loaderFiles = DatasetContents.dataFiles(root, topic, conf).size();

        TestLoad.produce(broker.bootstrapServers(), topic, partitions, 6_000);
        Map<Integer, Long> afterStream = broker.endOffsets(topic, partitions);
        try (RunningSink sink = RunningSink.start(SinkTests.props(broker.bootstrapServers(), topic, "handover-sink", root))) {
            await().atMost(Duration.ofSeconds(60)).until(() -> SinkTests.ledger(root, topic, conf).equals(afterStream));
        }
        DatasetContents streamed = DatasetContents.read(root, topic, conf);
        streamed.assertExactly(afterStream);
        assertThat(streamed.files()).as("the sink added files").isGreaterThan(loaderFiles);

        TestLoad.produce(broker.bootstrapServers(), topic, partitions, 6_000);
        runLoader(conf, topic, root);
        Map<Integer, Long> afterReload = broker.endOffsets(topic, partitions);
        DatasetContents.read(root, topic, conf).assertExactly(afterReload);
        assertThat(SinkTests.ledger(root, topic, conf)).isEqualTo(afterReload);

        OutsideReader duckdb = OutsideReader.readTopic(dir.resolve("lake"), topic);
        assertThat(duckdb.count()).isEqualTo(18_000);
        assertThat(duckdb.distinctOffsets()).isEqualTo(18_000);
        // dt and hr come from the directory names: DuckDB sees the layout as a Hive-partitioned table.
        assertThat(duckdb.columns()).containsExactly("topic", "partition", "offset", "timestamp", "key", "value", "headers", "dt", "hr");
        assertThat(duckdb.types()).startsWith("VARCHAR", "INTEGER", "BIGINT");
    }

    private Configuration localJobs() {
        return SinkTests.localJobs(dir);
    }

    private void runLoader(Configuration conf, String topic, Path root) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = ToolRunner.run(new Configuration(conf), new TopicLoader(
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)),
            List.of("--bootstrap-server", broker.bootstrapServers(), "--topic", topic, "--output", root.toString())
                .toArray(String[]::new));
        assertThat(exit).as("loader: %s %s", out, err).isZero();
    }
}

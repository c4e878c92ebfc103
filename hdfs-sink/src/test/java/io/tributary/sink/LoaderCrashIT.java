package io.tributary.sink;

import io.tributary.hadoop.dataset.CommitPoint;
import io.tributary.hadoop.loader.TopicLoader;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The loader (bin/tributary-loader without a cluster: the local job runner in its own JVM) killed
 * at each named point of its job commit ({@link CommitPoint}), then run again: after each rerun
 * every offset is in the dataset exactly once, read back by our reader and by DuckDB. Here rather
 * than in hadoop-input-format because the DuckDB reader and the sink's dataset checks live here.
 */
class LoaderCrashIT extends BrokerTestBase {
    private static final int PARTITIONS = 2;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // keeps the loader logs of a failure
    java.nio.file.Path dir;

    @Test
    @Timeout(300)
    void killedAtEveryPointOfTheJobCommitAndRunAgainItLoadsEveryRecordOnce() throws Exception {
        String topic = "crashy-loads";
        broker.createTopic(topic, PARTITIONS);
        Path root = new Path(dir.resolve("lake").toUri());
        long produced = 0;
        for (CommitPoint point : CommitPoint.values()) {
            TestLoad.produceOverTwoHours(broker.bootstrapServers(), topic, PARTITIONS, 1_000); // four files a load
            produced += 1_000;
            String halt = "loader:" + point.spelling();
            try (SinkProcess loader = SinkProcess.startLoader(dir, "loader-" + point.spelling(), SinkTests.loaderArgs(dir, broker.bootstrapServers(), topic, root),
                    "-Xmx384m", "-D" + CommitPoint.HALT_PROPERTY + "=" + halt)) {
                assertThat(loader.awaitExit(Duration.ofSeconds(120))).as("exit code; %s", loader.logEnd())
                    .isEqualTo(CommitPoint.HALT_EXIT_CODE);
                assertThat(loader.logText()).contains("halting at " + halt);
            }
            Map<Integer, Long> ends = broker.endOffsets(topic, PARTITIONS);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
            int exit = ToolRunner.run(new Configuration(), new TopicLoader(print, print), SinkTests.loaderArgs(dir, broker.bootstrapServers(), topic, root).toArray(String[]::new));
            assertThat(exit).as("the run after a kill at %s: %s", halt, out).isZero();

            DatasetContents.read(root, topic, new Configuration()).assertExactly(ends);
            assertThat(SinkTests.ledger(root, topic, new Configuration())).isEqualTo(ends);
            OutsideReader duckdb = OutsideReader.readTopic(dir.resolve("lake"), topic);
            assertThat(duckdb.count()).as("rows after a kill at %s", halt).isEqualTo(produced);
            assertThat(duckdb.distinctOffsets()).as("distinct offsets after a kill at %s", halt).isEqualTo(produced);
        }
    }
}

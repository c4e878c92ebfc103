package io.tributary.sink;

import io.tributary.hadoop.dataset.CommitPoint;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Sink processes killed at each named point of the commit protocol ({@link CommitPoint}: the
 * fault hook halts the JVM there, as a SIGKILL would), then restarted: after each restart every
 * offset is in the dataset exactly once, read back by our reader and by DuckDB. A survivor also
 * takes over the partitions of a member killed with SIGKILL.
 */
class SinkCrashIT extends BrokerTestBase {
    private static final String CHILD_HEAP = "-Xmx256m";
    private static final int PARTITIONS = 2;
    private final Configuration conf = new Configuration();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // keeps the sink logs of a failure
    java.nio.file.Path dir;

    @Test
    @Timeout(240)
    void killedAtEveryPointOfTheCommitAndRestartedItLandsEveryRecordOnce() throws Exception {
        String topic = "crashy";
        broker.createTopic(topic, PARTITIONS);
        Path root = new Path(dir.resolve("lake").toUri());
        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, "crashy-sink", root);
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "300");
        // A static member, as a sink restarted by a service manager runs: the restart takes over the halted
        // process's partitions at once instead of waiting out its session (the dynamic take-over is the next test's).
        props.put(SinkConfig.CONSUMER_PREFIX + "group.instance.id", "crashy-sink-member");
        long produced = 0;
        for (CommitPoint point : CommitPoint.values()) {
            // Two hour buckets per partition: each commit renames at least four files.
            TestLoad.produceOverTwoHours(broker.bootstrapServers(), topic, PARTITIONS, 1_000);
            produced += 1_000;
            String halt = "sink:" + point.spelling();
            try (SinkProcess sink = SinkProcess.start(dir, "sink-" + point.spelling(), props, CHILD_HEAP,
                    "-D" + CommitPoint.HALT_PROPERTY + "=" + halt)) {
                assertThat(sink.awaitExit(Duration.ofSeconds(90))).as("exit code; %s", sink.logEnd()).isEqualTo(CommitPoint.HALT_EXIT_CODE);
                assertThat(sink.logText()).contains("halting at " + halt);
            }
            Map<Integer, Long> ends = broker.endOffsets(topic, PARTITIONS);
            try (RunningSink restarted = RunningSink.start(props)) {
                await().atMost(Duration.ofSeconds(90)).until(() -> SinkTests.ledger(root, topic, conf).equals(ends));
            }
            DatasetContents.read(root, topic, conf).assertExactly(ends);
            OutsideReader duckdb = OutsideReader.readTopic(dir.resolve("lake"), topic);
            assertThat(duckdb.count()).as("rows after a kill at %s", halt).isEqualTo(produced);
            assertThat(duckdb.distinctOffsets()).as("distinct offsets after a kill at %s", halt).isEqualTo(produced);
            assertThat(DatasetContents.leftovers(root, conf)).as("temp files left after a kill at %s", halt).isEmpty();
        }
    }

    @Test
    void survivorTakesOverTheKilledProcessesPartitions() throws Exception {
        String topic = "shared";
        int partitions = 6; // more than PARTITIONS: both members own several
        broker.createTopic(topic, partitions);
        Path root = new Path(dir.resolve("lake").toUri());
        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, "shared-sink", root);
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "500");
        try (TestLoad load = TestLoad.start(broker.bootstrapServers(), topic, partitions, 120_000, 12_000);
             SinkProcess a = SinkProcess.start(dir, "sink-a", props, CHILD_HEAP);
             SinkProcess b = SinkProcess.start(dir, "sink-b", props, CHILD_HEAP)) {
            // Both members write: every partition has committed files before the kill. Two child JVMs
            // starting on an overloaded machine have taken 20 s just to join the group.
            await().atMost(Duration.ofMinutes(2)).until(() -> SinkTests.ledger(root, topic, conf).size() == partitions
                && a.logText().contains("writing") && b.logText().contains("writing"));
            a.kill();
            load.await(Duration.ofMinutes(2));
            Map<Integer, Long> ends = broker.endOffsets(topic, partitions);
            await().atMost(Duration.ofMinutes(2)).until(() -> SinkTests.ledger(root, topic, conf).equals(ends));
            b.assertStopsCleanly();
            DatasetContents.read(root, topic, conf).assertExactly(ends);
            assertThat(DatasetContents.leftovers(root, conf)).isEmpty();
        }
    }
}

package io.tributary.sink;

import io.tributary.hadoop.dataset.CommitPoint;
import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.OffsetLedger;
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
import static org.awaitility.Awaitility.await;

/**
 * A loader killed in its job commit ({@link CommitPoint}, by the halt hook), then overtaken on
 * the same partitions by a sink that commits many more times than the ledger keeps versions
 * (pruning deletes every version the killed commit could look for), then run again: its
 * recovery must still tell exactly whether its ledger advance happened. Killed after its
 * intent, its staged files are stale (the sink landed those offsets): publishing them would
 * duplicate. Killed after its ledger advance, they are the only copy: dropping them would lose.
 */
class OvertakenCommitIT extends BrokerTestBase {
    private static final int PARTITIONS = 2;
    /** More commits than the ledger keeps versions (20), and enough for a prune to pass the killed commit's version. */
    private static final int OVERTAKING_COMMITS = 35;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // keeps the loader's log of a failure
    java.nio.file.Path dir;

    @Test
    @Timeout(300)
    void aLoaderKilledAfterItsIntentAndOvertakenPublishesNothingStale() throws Exception {
        killOvertakeAndRecover("stale-intent", CommitPoint.AFTER_INTENT);
    }

    @Test
    @Timeout(300)
    void aLoaderKilledAfterItsLedgerAdvanceAndOvertakenStillPublishesItsFiles() throws Exception {
        killOvertakeAndRecover("advanced-then-killed", CommitPoint.AFTER_LEDGER);
    }

    private void killOvertakeAndRecover(String topic, CommitPoint point) throws Exception {
        broker.createTopic(topic, PARTITIONS);
        Path root = new Path(dir.resolve("lake").toUri());
        Configuration conf = new Configuration();
        TestLoad.produceOverTwoHours(broker.bootstrapServers(), topic, PARTITIONS, 1_000); // four staged files
        long produced = 1_000;
        String halt = "loader:" + point.spelling();
        try (SinkProcess loader = SinkProcess.startLoader(dir, "loader-" + point.spelling(), SinkTests.loaderArgs(dir, broker.bootstrapServers(), topic, root),
                "-Xmx384m", "-D" + CommitPoint.HALT_PROPERTY + "=" + halt)) {
            assertThat(loader.awaitExit(Duration.ofSeconds(120))).as("exit code; %s", loader.logEnd()).isEqualTo(CommitPoint.HALT_EXIT_CODE);
            assertThat(loader.logText()).contains("halting at " + halt);
        }
        OffsetLedger ledger = OffsetLedger.open(DatasetLayout.utc(root), topic, conf);
        long killedAt = ledger.readVersion().number();

        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, topic + "-sink", root);
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "100");
        props.put(SinkConfig.FLUSH_SIZE, "300"); // file names other than the loader's: a stale file is a duplicate, not a clash
        try (RunningSink sink = RunningSink.start(props)) {
            while (ledger.readVersion().number() < killedAt + OVERTAKING_COMMITS) {
                try (TestLoad load = TestLoad.start(broker.bootstrapServers(), topic, PARTITIONS, 400, 200)) {
                    load.await(Duration.ofMinutes(1)); // two seconds of records: a commit every rotation
                }
                produced += 400;
            }
            Map<Integer, Long> ends = broker.endOffsets(topic, PARTITIONS);
            await().atMost(Duration.ofSeconds(90)).until(() -> ledger.read().nextOffsets().equals(ends));
        }

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int exit = ToolRunner.run(SinkTests.localJobs(dir), new TopicLoader(print, print), SinkTests.loaderArgs(dir, broker.bootstrapServers(), topic, root).toArray(String[]::new));
        assertThat(exit).as("the run after a kill at %s: %s", halt, out).isZero();

        Map<Integer, Long> ends = broker.endOffsets(topic, PARTITIONS);
        assertThat(ledger.read().nextOffsets()).isEqualTo(ends);
        DatasetContents.read(root, topic, conf).assertExactly(ends);
        OutsideReader duckdb = OutsideReader.readTopic(dir.resolve("lake"), topic);
        assertThat(duckdb.count()).as("rows after a kill at %s and %d commits of a sink", halt, OVERTAKING_COMMITS).isEqualTo(produced);
        assertThat(duckdb.distinctOffsets()).as("distinct offsets after a kill at %s", halt).isEqualTo(produced);
        assertThat(DatasetContents.leftovers(root, conf)).as("sink temp files").isEmpty();
    }
}

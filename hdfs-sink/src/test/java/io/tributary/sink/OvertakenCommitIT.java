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
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A writer killed in its commit ({@link CommitPoint}, by the halt hook), then overtaken on the
 * same partitions by another writer that commits many more times than the ledger keeps versions
 * (pruning deletes every version the killed commit could look for), then started again: its
 * recovery must still tell exactly whether its ledger advance happened. Killed after its
 * intent, its files are stale (the other writer landed those offsets): publishing them would
 * duplicate. Killed after its ledger advance, they are the only copy: dropping them would lose.
 * A loader overtaken by a sink, and a sink overtaken by loads.
 */
class OvertakenCommitIT extends BrokerTestBase {
    private static final int PARTITIONS = 2;
    /** More commits than the ledger keeps versions (20), and enough for a prune to pass the killed commit's version. */
    private static final int OVERTAKING_COMMITS = 32;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // keeps the killed writer's log of a failure
    java.nio.file.Path dir;

    @Test
    @Timeout(300)
    void aLoaderKilledAfterItsIntentAndOvertakenPublishesNothingStale() throws Exception {
        loaderKilledOvertakenAndRunAgain("stale-intent", CommitPoint.AFTER_INTENT);
    }

    @Test
    @Timeout(300)
    void aLoaderKilledAfterItsLedgerAdvanceAndOvertakenStillPublishesItsFiles() throws Exception {
        loaderKilledOvertakenAndRunAgain("advanced-then-killed", CommitPoint.AFTER_LEDGER);
    }

    @Test
    @Timeout(400)
    void aSinkKilledAfterItsIntentAndOvertakenByLoadsPublishesNothingStale() throws Exception {
        String topic = "stale-sink-intent";
        broker.createTopic(topic, PARTITIONS);
        Path root = new Path(dir.resolve("lake").toUri());
        TestLoad.produceOverTwoHours(broker.bootstrapServers(), topic, PARTITIONS, 1_000);
        long produced = 1_000;
        Map<String, Object> props = sinkProps(topic, root);
        String halt = "sink:" + CommitPoint.AFTER_INTENT.spelling();
        try (SinkProcess sink = SinkProcess.start(dir, "sink-" + topic, props, "-Xmx256m", "-D" + CommitPoint.HALT_PROPERTY + "=" + halt)) {
            assertThat(sink.awaitExit(Duration.ofSeconds(90))).as("exit code; %s", sink.logEnd()).isEqualTo(CommitPoint.HALT_EXIT_CODE);
            assertThat(sink.logText()).contains("halting at " + halt);
        }
        OffsetLedger ledger = ledger(root, topic);
        long killedAt = ledger.readVersion().number();
        while (ledger.readVersion().number() < killedAt + OVERTAKING_COMMITS) {
            runLoader(topic, root, "a load while the sink is down");
            TestLoad.produce(broker.bootstrapServers(), topic, PARTITIONS, 10);
            produced += 10;
        }

        Map<Integer, Long> ends = broker.endOffsets(topic, PARTITIONS);
        try (RunningSink restarted = RunningSink.start(props)) {
            await().atMost(Duration.ofSeconds(90)).until(() -> ledger.read().nextOffsets().equals(ends));
        }
        assertExactlyOnce(root, topic, ends, produced, halt);
    }

    // Taking turns: the killed writer never runs again, so the writer that takes over must finish its commit.
    @Test
    @Timeout(300)
    void aSinkKilledAfterItsLedgerAdvanceIsFinishedByTheLoaderThatTakesOver() throws Exception {
        String topic = "sink-then-loader";
        Path root = new Path(dir.resolve("lake").toUri());
        String halt = killedAfterItsLedgerAdvance(topic, "sink", haltAt -> SinkProcess.start(dir, "sink-" + topic,
            sinkProps(topic, root), "-Xmx256m", haltAt));

        runLoader(topic, root, "the loader taking over from a sink killed at " + halt);

        assertEveryRecordOnce(root, topic, 1_010, halt);
    }

    @Test
    @Timeout(300)
    void aLoaderKilledAfterItsLedgerAdvanceIsFinishedByTheSinkThatTakesOver() throws Exception {
        String topic = "loader-then-sink";
        Path root = new Path(dir.resolve("lake").toUri());
        String halt = killedAfterItsLedgerAdvance(topic, "loader", haltAt -> SinkProcess.startLoader(dir, "loader-" + topic,
            SinkTests.loaderArgs(dir, broker.bootstrapServers(), topic, root), "-Xmx384m", haltAt));
        Map<Integer, Long> ends = broker.endOffsets(topic, PARTITIONS);
        OffsetLedger ledger = ledger(root, topic);

        try (RunningSink sink = RunningSink.start(sinkProps(topic, root))) {
            await().atMost(Duration.ofSeconds(90)).until(() -> ledger.read().nextOffsets().equals(ends));
        }

        assertEveryRecordOnce(root, topic, 1_010, halt);
    }

    /** Starts a sink or loader process given its halt option. */
    private interface Launch {
        SinkProcess start(String haltOption) throws IOException;
    }

    // A thousand records, the writer killed right after its ledger advance, ten records more; returns the halt point.
    private String killedAfterItsLedgerAdvance(String topic, String writer, Launch launch) throws Exception {
        broker.createTopic(topic, PARTITIONS);
        TestLoad.produceOverTwoHours(broker.bootstrapServers(), topic, PARTITIONS, 1_000);
        String halt = writer + ":" + CommitPoint.AFTER_LEDGER.spelling();
        try (SinkProcess killed = launch.start("-D" + CommitPoint.HALT_PROPERTY + "=" + halt)) {
            assertThat(killed.awaitExit(Duration.ofSeconds(120))).as("exit code; %s", killed.logEnd()).isEqualTo(CommitPoint.HALT_EXIT_CODE);
        }
        TestLoad.produce(broker.bootstrapServers(), topic, PARTITIONS, 10);
        return halt;
    }

    private void loaderKilledOvertakenAndRunAgain(String topic, CommitPoint point) throws Exception {
        broker.createTopic(topic, PARTITIONS);
        Path root = new Path(dir.resolve("lake").toUri());
        TestLoad.produceOverTwoHours(broker.bootstrapServers(), topic, PARTITIONS, 1_000); // four staged files
        long produced = 1_000;
        String halt = "loader:" + point.spelling();
        try (SinkProcess loader = SinkProcess.startLoader(dir, "loader-" + point.spelling(),
                SinkTests.loaderArgs(dir, broker.bootstrapServers(), topic, root), "-Xmx384m", "-D" + CommitPoint.HALT_PROPERTY + "=" + halt)) {
            assertThat(loader.awaitExit(Duration.ofSeconds(120))).as("exit code; %s", loader.logEnd()).isEqualTo(CommitPoint.HALT_EXIT_CODE);
            assertThat(loader.logText()).contains("halting at " + halt);
        }
        OffsetLedger ledger = ledger(root, topic);
        long killedAt = ledger.readVersion().number();
        try (RunningSink sink = RunningSink.start(sinkProps(topic, root))) {
            while (ledger.readVersion().number() < killedAt + OVERTAKING_COMMITS) {
                try (TestLoad load = TestLoad.start(broker.bootstrapServers(), topic, PARTITIONS, 400, 200)) {
                    load.await(Duration.ofMinutes(1)); // two seconds of records: a commit every rotation
                }
                produced += 400;
            }
            Map<Integer, Long> ends = broker.endOffsets(topic, PARTITIONS);
            await().atMost(Duration.ofSeconds(90)).until(() -> ledger.read().nextOffsets().equals(ends));
        }

        runLoader(topic, root, "the run after a kill at " + halt);
        assertExactlyOnce(root, topic, broker.endOffsets(topic, PARTITIONS), produced, halt);
    }

    // Fast commits, and file names other than the loader's: a stale file published is a duplicate, not a name clash.
    private Map<String, Object> sinkProps(String topic, Path root) {
        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, topic + "-sink", root);
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "100");
        props.put(SinkConfig.FLUSH_SIZE, "300");
        return props;
    }

    private static OffsetLedger ledger(Path root, String topic) throws IOException {
        return OffsetLedger.open(DatasetLayout.utc(root), topic, new Configuration());
    }

    private void runLoader(String topic, Path root, String which) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int exit = ToolRunner.run(SinkTests.localJobs(dir), new TopicLoader(print, print),
            SinkTests.loaderArgs(dir, broker.bootstrapServers(), topic, root).toArray(String[]::new));
        assertThat(exit).as("%s: %s", which, out).isZero();
    }

    private void assertEveryRecordOnce(Path root, String topic, long produced, String halt) throws Exception {
        Map<Integer, Long> ends = broker.endOffsets(topic, PARTITIONS);
        assertThat(SinkTests.ledger(root, topic, new Configuration())).isEqualTo(ends);
        OutsideReader duckdb = OutsideReader.readTopic(dir.resolve("lake"), topic);
        assertThat(duckdb.count()).as("rows after a kill at %s and a take-over by the other writer", halt).isEqualTo(produced);
        assertThat(duckdb.distinctOffsets()).as("distinct offsets after a kill at %s", halt).isEqualTo(produced);
        DatasetContents.read(root, topic, new Configuration()).assertExactly(ends);
    }

    private void assertExactlyOnce(Path root, String topic, Map<Integer, Long> ends, long produced, String halt) throws Exception {
        Configuration conf = new Configuration();
        assertThat(SinkTests.ledger(root, topic, conf)).isEqualTo(ends);
        DatasetContents.read(root, topic, conf).assertExactly(ends);
        OutsideReader duckdb = OutsideReader.readTopic(dir.resolve("lake"), topic);
        assertThat(duckdb.count()).as("rows after a kill at %s and %d commits of another writer", halt, OVERTAKING_COMMITS)
            .isEqualTo(produced);
        assertThat(duckdb.distinctOffsets()).as("distinct offsets after a kill at %s", halt).isEqualTo(produced);
        assertThat(DatasetContents.leftovers(root, conf)).as("sink temp files").isEmpty();
    }
}

package io.tributary.sink;

import io.tributary.hadoop.dataset.CommitPoint;
import io.tributary.hadoop.loader.TopicLoader;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two writers advancing the same partitions of one dataset at once: a loader and a sink, and two
 * loaders. Each test stops one writer at its {@link CommitPoint#AFTER_INTENT} (it has read the
 * ledger and is about to make its files count) and lets the other commit the same offsets
 * meanwhile. Exactly one of them may win: DuckDB must read every offset exactly once.
 */
@Timeout(300)
class SideBySideWritersIT extends BrokerTestBase {
    private static final int PARTITIONS = 2;

    @TempDir
    java.nio.file.Path dir;

    @AfterEach
    void removeListener() {
        CommitPoint.listen(null);
    }

    @Test
    void aSinkThatCommitsWhileTheLoaderCommitsMakesTheLoaderRefuse() throws Exception {
        String topic = "loader-loses";
        broker.createTopic(topic, PARTITIONS);
        Path root = new Path(dir.resolve("lake").toUri());
        TestLoad.produce(broker.bootstrapServers(), topic, PARTITIONS, 4_000);
        Map<Integer, Long> ends = broker.endOffsets(topic, PARTITIONS);
        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, "loader-loses-sink", root);
        props.put(SinkConfig.FLUSH_SIZE, "500"); // files of other names than the loader's
        AtomicReference<RunningSink> sink = new AtomicReference<>();
        AtomicBoolean paused = new AtomicBoolean();
        CommitPoint.listen((writer, point) -> {
            if (writer.equals("loader") && point == CommitPoint.AFTER_INTENT && paused.compareAndSet(false, true)) {
                // The loader checked the ledger; the sink lands the same offsets before the loader goes on.
                try {
                    sink.set(RunningSink.start(props));
                    await().atMost(Duration.ofSeconds(90)).until(() -> SinkTests.ledger(root, topic, jobs()).equals(ends));
                } catch (java.io.IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        });
        LoaderRun loader = runLoader(topic, root);
        sink.get().close();
        assertThat(paused).isTrue();

        assertThat(loader.exit()).as("loader: %s", loader.output()).isEqualTo(1);
        assertThat(loader.output()).contains(topic + "-0", topic + "-1", "nothing was committed");
        assertExactlyOnce(root, topic, ends, 4_000);
        assertThat(DatasetContents.leftovers(root, jobs())).as("loader staging and sink temp files").isEmpty();
    }

    @Test
    void aLoaderThatCommitsWhileTheSinkCommitsMakesTheSinkReplan() throws Exception {
        String topic = "sink-loses";
        broker.createTopic(topic, PARTITIONS);
        Path root = new Path(dir.resolve("lake").toUri());
        TestLoad.produce(broker.bootstrapServers(), topic, PARTITIONS, 4_000);
        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, "sink-loses-sink", root);
        props.put(SinkConfig.FLUSH_SIZE, "500"); // the first commit covers part of what the loader loads
        AtomicReference<LoaderRun> loader = new AtomicReference<>();
        CommitPoint.listen((writer, point) -> {
            if (writer.equals("sink") && point == CommitPoint.AFTER_INTENT && loader.get() == null) {
                loader.set(runLoader(topic, root)); // on the sink's poll thread: the sink waits meanwhile
            }
        });
        try (RunningSink sink = RunningSink.start(props)) {
            await().atMost(Duration.ofSeconds(90)).until(() -> loader.get() != null);
            assertThat(loader.get().exit()).as("loader: %s", loader.get().output()).isZero();
            TestLoad.produce(broker.bootstrapServers(), topic, PARTITIONS, 2_000);
            Map<Integer, Long> ends = broker.endOffsets(topic, PARTITIONS);
            await().atMost(Duration.ofSeconds(90)).until(() -> SinkTests.ledger(root, topic, jobs()).equals(ends));
        }
        assertExactlyOnce(root, topic, broker.endOffsets(topic, PARTITIONS), 6_000);
    }

    @Test
    void twoLoadersAtOnceCommitOnce() throws Exception {
        String topic = "two-loaders";
        broker.createTopic(topic, PARTITIONS);
        Path root = new Path(dir.resolve("lake").toUri());
        TestLoad.produce(broker.bootstrapServers(), topic, PARTITIONS, 4_000);
        Map<Integer, Long> ends = broker.endOffsets(topic, PARTITIONS);
        AtomicReference<LoaderRun> second = new AtomicReference<>();
        CommitPoint.listen((writer, point) -> {
            if (writer.equals("loader") && point == CommitPoint.AFTER_INTENT && second.get() == null) {
                second.set(new LoaderRun(-1, "")); // the second loader's own commit must not pause
                second.set(runLoader(topic, root));
            }
        });
        LoaderRun first = runLoader(topic, root);

        assertThat(second.get().exit()).as("second loader: %s", second.get().output()).isZero();
        assertThat(first.exit()).as("first loader: %s", first.output()).isEqualTo(1);
        assertThat(first.output()).contains(topic + "-0", topic + "-1", "nothing was committed");
        assertExactlyOnce(root, topic, ends, 4_000);
        assertThat(DatasetContents.leftovers(root, jobs())).as("staging of the loader that lost").isEmpty();
    }

    private void assertExactlyOnce(Path root, String topic, Map<Integer, Long> ends, long records) throws Exception {
        DatasetContents.read(root, topic, jobs()).assertExactly(ends);
        assertThat(SinkTests.ledger(root, topic, jobs())).isEqualTo(ends);
        OutsideReader duckdb = OutsideReader.readTopic(dir.resolve("lake"), topic);
        assertThat(duckdb.count()).as("rows DuckDB reads").isEqualTo(records);
        assertThat(duckdb.distinctOffsets()).as("distinct offsets DuckDB reads").isEqualTo(records);
    }

    private Configuration jobs() {
        return SinkTests.localJobs(dir);
    }

    private LoaderRun runLoader(String topic, Path root) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
            int exit = ToolRunner.run(jobs(), new TopicLoader(print, print),
                List.of("--bootstrap-server", broker.bootstrapServers(), "--topic", topic, "--output", root.toString())
                    .toArray(String[]::new));
            return new LoaderRun(exit, out.toString(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new AssertionError("loader threw; it printed: " + out.toString(StandardCharsets.UTF_8), e);
        }
    }

    private record LoaderRun(int exit, String output) {
    }
}

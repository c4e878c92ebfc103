package io.tributary.sink;

import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.loader.TopicLoader;
import io.tributary.testkit.tributary.TransactionalTopic;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The loader and the sink over a topic with committed, aborted and open transactions interleaved
 * with plain records ({@link TransactionalTopic}), with their default settings: each lands exactly
 * the committed records, each once, as DuckDB reads them back; once the open transaction commits,
 * the rest lands with no gap and no duplicate, and no lost range is ever reported. While it waits, the
 * sink's status names the partitions the open transaction holds, the offset and the producer.
 */
@Timeout(600)
class TransactionalDatasetIT extends BrokerTestBase {
    private static final int PARTITIONS = 3;
    private static final int PER_BATCH = 200;
    private static final Duration DEADLINE = Duration.ofMinutes(3);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    java.nio.file.Path dir;

    @Test
    void theLoaderLandsTheCommittedRecordsUpToTheLastStableOffsetThenTheRestOnceTheTransactionCommits() throws Exception {
        java.nio.file.Path lake = dir.resolve("lake");
        Path root = new Path(lake.toUri());
        try (TransactionalTopic topic = TransactionalTopic.create(broker.bootstrapServers(), "txn-loader", PARTITIONS, PER_BATCH)) {
            Map<Integer, Long> stable = topic.lastStableOffsets();
            LoaderRun first = load(topic.topic(), root);
            assertThat(first.exit()).as("loader: %s", first.output()).isZero();
            assertLanded(lake, topic);
            assertThat(SinkTests.ledger(root, topic.topic(), jobs())).as("ledger").isEqualTo(stable);
            assertThat(first.output()).contains("lost ranges: none");
            for (Map.Entry<Integer, Long> open : topic.openTransactionStarts().entrySet()) {
                assertThat(first.output()).contains(topic.topic() + "-" + open.getKey() + ": loading up to its last stable offset "
                    + open.getValue() + ", where a transaction is still open");
            }

            topic.commitOpenTransaction();
            LoaderRun second = load(topic.topic(), root);
            assertThat(second.exit()).as("loader: %s", second.output()).isZero();
            assertThat(second.output()).contains("lost ranges: none").doesNotContain("still open");
            assertLanded(lake, topic);
            assertThat(SinkTests.ledger(root, topic.topic(), jobs())).as("ledger").isEqualTo(topic.logEndOffsets());
        }
        assertNoLostRangeReport(root);
    }

    @Test
    void theSinkWaitsAtTheLastStableOffsetThenLandsTheRestOnceTheTransactionCommits() throws Exception {
        java.nio.file.Path lake = dir.resolve("lake");
        Path root = new Path(lake.toUri());
        try (TransactionalTopic topic = TransactionalTopic.create(broker.bootstrapServers(), "txn-sink", PARTITIONS, PER_BATCH)) {
            Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic.topic(), "txn-sink", root);
            props.put(SinkConfig.ROTATE_INTERVAL_MS, "500");
            try (RunningSink sink = RunningSink.start(props)) {
                awaitLanded(root, topic);
                assertLanded(lake, topic);
                // Its status says where the open transaction holds it, and whose transaction it is.
                long hangingProducer = producerIdOf(topic.topic() + "-hanging");
                Map<Integer, Long> held = new TreeMap<>();
                topic.openTransactionStarts().forEach((partition, start) -> held.put(partition, start));
                await().atMost(DEADLINE).pollInterval(Duration.ofMillis(200)).until(() -> heldAt(sink, hangingProducer).equals(held));

                topic.commitOpenTransaction();
                awaitLanded(root, topic);
                assertThat(sink.sink().lostRanges()).isEmpty();
                await().atMost(DEADLINE).pollInterval(Duration.ofMillis(200)).until(() -> heldAt(sink, hangingProducer).isEmpty());
            }
            assertLanded(lake, topic);
        }
        assertNoLostRangeReport(root);
    }

    /** The partitions the sink says the transaction of {@code producerId} holds, with the offset it holds each at. */
    private static Map<Integer, Long> heldAt(RunningSink sink, long producerId) {
        Map<Integer, Long> held = new TreeMap<>();
        sink.sink().status().forEach(status -> status.heldBy().filter(hold -> hold.producerId() == producerId)
            .ifPresent(hold -> held.put(status.partition().partition(), hold.offset())));
        return held;
    }

    private long producerIdOf(String transactionalId) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            return admin.describeTransactions(List.of(transactionalId)).description(transactionalId).get().producerId();
        }
    }

    /** Waits until the dataset holds as many rows as the topic has visible records: more fail in {@link #assertLanded}, not here. */
    private void awaitLanded(Path root, TransactionalTopic topic) {
        long records = topic.visibleCount();
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(200))
            .until(() -> DatasetContents.read(root, topic.topic(), jobs()).count() >= records);
    }

    /** The dataset holds exactly the offsets a read_committed reader sees now, each once, by our reader and by DuckDB. */
    private void assertLanded(java.nio.file.Path lake, TransactionalTopic topic) throws Exception {
        Map<Integer, TreeSet<Long>> expected = topic.visible();
        DatasetContents contents = DatasetContents.read(new Path(lake.toUri()), topic.topic(), jobs());
        assertThat(contents.duplicates()).as("offsets written twice").isEmpty();
        assertThat(contents.misnamed()).as("files whose name does not match their offsets").isEmpty();
        Map<Integer, BitSet> wanted = new TreeMap<>();
        expected.forEach((p, offsets) -> {
            BitSet bits = new BitSet();
            offsets.forEach(o -> bits.set(o.intValue()));
            wanted.put(p, bits);
        });
        assertThat(contents.offsets()).as("offsets landed").isEqualTo(wanted);
        OutsideReader duckdb = OutsideReader.readTopic(lake, topic.topic());
        assertThat(duckdb.count()).as("rows DuckDB reads").isEqualTo(topic.visibleCount());
        assertThat(duckdb.distinctOffsets()).as("distinct offsets DuckDB reads").isEqualTo(topic.visibleCount());
    }

    private static void assertNoLostRangeReport(Path root) {
        assertThat(Paths.get(new Path(DatasetLayout.utc(root).metaDir(), "lost-ranges").toUri())).doesNotExist();
    }

    private LoaderRun load(String topic, Path root) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        // Splits of 150 offsets end inside transactions, on their markers and among aborted records.
        int exit = ToolRunner.run(jobs(), new TopicLoader(print, print), List.of("--bootstrap-server", broker.bootstrapServers(),
            "--topic", topic, "--output", root.toString(), "--split-max-records", "150").toArray(String[]::new));
        return new LoaderRun(exit, out.toString(StandardCharsets.UTF_8));
    }

    private Configuration jobs() {
        return SinkTests.localJobs(dir);
    }

    private record LoaderRun(int exit, String output) {
    }
}

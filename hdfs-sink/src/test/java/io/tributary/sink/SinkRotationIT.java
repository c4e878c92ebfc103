package io.tributary.sink;

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

    @Test
    void flushSizeCutsFilesAndShutdownCommitsTheRest() throws Exception {
        String topic = "sized";
        broker.createTopic(topic, 1);
        TestLoad.produce(broker.bootstrapServers(), topic, 1, 2500);
        Path root = new Path(dir.resolve("lake").toUri());
        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, "sized-sink", root);
        props.put(SinkConfig.FLUSH_SIZE, "1000");
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "3600000");
        try (RunningSink sink = RunningSink.start(props)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> SinkTests.ledger(root, topic, conf).equals(Map.of(0, 2000L)));
            await().atMost(Duration.ofSeconds(30)).until(() -> sink.sink().status().stream()
                .allMatch(s -> s.lag() == 0 && s.freshnessMs() > 0));
            assertThat(SinkTests.ledger(root, topic, conf)).isEqualTo(Map.of(0, 2000L));
        }
        // The last 500 sat in an open file until shutdown committed them.
        assertThat(SinkTests.ledger(root, topic, conf)).isEqualTo(Map.of(0, 2500L));
        DatasetContents contents = DatasetContents.read(root, topic, conf);
        contents.assertExactly(Map.of(0, 2500L));
        assertThat(contents.files()).isEqualTo(3);
    }
}

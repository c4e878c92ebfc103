package io.tributary.sink;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Sink processes killed with SIGKILL while a producer writes: nothing lost, nothing twice. */
class SinkCrashIT extends BrokerTestBase {
    private static final String CHILD_HEAP = "-Xmx256m";
    private final Configuration conf = new Configuration();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // keeps the sink logs of a failure
    java.nio.file.Path dir;

    @Test
    void tenKillsAtRandomMomentsLoseNothingAndDuplicateNothing() throws Exception {
        String topic = "crashy";
        int partitions = 4;
        broker.createTopic(topic, partitions);
        Path root = new Path(dir.resolve("lake").toUri());
        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, "crashy-sink", root);
        props.put(SinkConfig.FLUSH_SIZE, "3000");
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "700");
        Random random = new Random(42);
        try (TestLoad load = TestLoad.start(broker.bootstrapServers(), topic, partitions, 150_000, 12_000)) {
            for (int kill = 0; kill < 10; kill++) {
                try (SinkProcess sink = SinkProcess.start(dir, "sink-" + kill, props, CHILD_HEAP)) {
                    long aliveFor = 800 + random.nextInt(3000);
                    await().pollDelay(Duration.ofMillis(aliveFor)).atMost(Duration.ofSeconds(30))
                        .until(sink::isAlive);
                    sink.kill();
                }
            }
            load.await(Duration.ofMinutes(2));
        }
        Map<Integer, Long> ends = broker.endOffsets(topic, partitions);
        assertThat(SinkTests.ledger(root, topic, conf)).as("ledger before the final run").isNotEqualTo(ends);
        try (SinkProcess last = SinkProcess.start(dir, "sink-final", props, CHILD_HEAP)) {
            await().atMost(Duration.ofMinutes(2)).until(() -> SinkTests.ledger(root, topic, conf).equals(ends));
            last.assertStopsCleanly();
        }
        DatasetContents.read(root, topic, conf).assertExactly(ends);
        assertThat(DatasetContents.leftovers(root, conf)).as("temp files left behind").isEmpty();
    }

    @Test
    void survivorTakesOverTheKilledProcessesPartitions() throws Exception {
        String topic = "shared";
        int partitions = 6;
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

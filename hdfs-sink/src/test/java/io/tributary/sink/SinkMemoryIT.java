package io.tributary.sink;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** 200 partitions in a 128 MB heap: the memory budget commits writers early instead of running out. */
class SinkMemoryIT extends BrokerTestBase {

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // keeps the sink log and heap dump of a failure
    java.nio.file.Path dir;

    @Test
    void twoHundredPartitionsFitASmallHeap() throws Exception {
        String topic = "wide";
        int partitions = 200;
        broker.createTopic(topic, partitions);
        TestLoad.produce(broker.bootstrapServers(), topic, partitions, 400_000);
        Map<Integer, Long> ends = broker.endOffsets(topic, partitions);
        Path root = new Path(dir.resolve("lake").toUri());
        Configuration conf = new Configuration();
        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, "wide-sink", root);
        props.put(SinkConfig.FLUSH_SIZE, "1000000");
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "600000");
        props.put(SinkConfig.SINK_MEMORY_BYTES, String.valueOf(40L << 20));
        props.put(SinkConfig.PARQUET_PAGE_BYTES, "32768");
        props.put(SinkConfig.STATUS_INTERVAL_MS, "1000");
        try (SinkProcess sink = SinkProcess.start(dir, "wide", props, "-Xmx128m", "-XX:+ExitOnOutOfMemoryError",
                "-XX:+HeapDumpOnOutOfMemoryError", "-XX:HeapDumpPath=" + dir)) {
            // Neither flush.size nor the timer can commit here: only the memory budget does, until shutdown,
            // so half the records in the ledger while running proves it committed writers early.
            await().atMost(Duration.ofMinutes(3)).until(() -> !sink.isAlive()
                || SinkTests.ledger(root, topic, conf).values().stream().mapToLong(Long::longValue).sum() >= 100_000);
            assertThat(sink.isAlive()).as("sink alive; %s", sink.logEnd()).isTrue();
            await().atMost(Duration.ofMinutes(3)).until(() -> !sink.isAlive() || sink.logText().contains(partitions + " partitions, lag 0,"));
            sink.assertStopsCleanly();
            assertThat(sink.logText()).doesNotContain("OutOfMemoryError");
        }
        DatasetContents.read(root, topic, conf).assertExactly(ends);
    }
}

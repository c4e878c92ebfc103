package io.tributary.sink;

import io.tributary.testkit.FreePorts;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sink streaming into HDFS (MiniDFSCluster of three datanodes), including a NameNode restart
 * and the loss of a datanode mid-stream.
 */
class SinkMiniDfsIT extends BrokerTestBase {
    private static MiniDFSCluster dfs;
    private static Configuration conf;

    @BeforeAll
    static void startDfs(@TempDir java.nio.file.Path dir) throws Exception {
        conf = new Configuration();
        conf.setInt("dfs.replication", 1);
        conf.setInt("dfs.namenode.safemode.extension", 0);
        conf.setInt("ipc.client.connect.max.retries", 1);
        conf.setInt("ipc.client.connect.retry.interval", 100);
        dfs = new MiniDFSCluster.Builder(conf, dir.resolve("dfs").toFile())
            .numDataNodes(3).nameNodePort(FreePorts.next()).build();
        dfs.waitActive();
    }

    @AfterAll
    static void stopDfs() {
        if (dfs != null) {
            dfs.shutdown();
        }
    }

    /** Sink settings into HDFS with its own client (not the cached one), failing fast while HDFS is down. */
    private static Map<String, Object> props(String topic, Path root) {
        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, topic + "-sink", root);
        props.put(SinkConfig.HADOOP_PREFIX + "fs.hdfs.impl.disable.cache", "true");
        props.put(SinkConfig.HADOOP_PREFIX + "dfs.replication", "1");
        props.put(SinkConfig.HADOOP_PREFIX + "ipc.client.connect.max.retries", "1");
        props.put(SinkConfig.HADOOP_PREFIX + "ipc.client.connect.retry.interval", "100");
        props.put(SinkConfig.HADOOP_PREFIX + "ipc.client.connect.max.retries.on.timeouts", "1");
        return props;
    }

    /** Creates {@code topic} and returns settings streaming it into {@link #root}({@code topic}). */
    private static Map<String, Object> streamInto(String topic, int partitions) throws Exception {
        broker.createTopic(topic, partitions);
        return props(topic, root(topic));
    }

    private static Path root(String name) {
        return new Path(dfs.getURI().toString() + "/" + name);
    }

    @Test
    void streamsAMillionRecordsOverSixPartitionsExactlyOnce() throws Exception {
        String topic = "million";
        int partitions = 6;
        Map<String, Object> props = streamInto(topic, partitions);
        Path root = root(topic);
        props.put(SinkConfig.FLUSH_SIZE, "100000");
        props.put(SinkConfig.SINK_MEMORY_BYTES, String.valueOf(256L << 20));
        Map<Integer, Long> ends;
        try (RunningSink sink = RunningSink.start(props)) {
            // The producer writes while the sink streams.
            TestLoad.produce(broker.bootstrapServers(), topic, partitions, 1_000_000);
            ends = broker.endOffsets(topic, partitions);
            assertThat(ends.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(1_000_000);
            await().atMost(Duration.ofMinutes(3)).until(() -> SinkTests.ledger(root, topic, conf).equals(ends));
        }
        DatasetContents contents = DatasetContents.read(root, topic, conf);
        contents.assertExactly(ends);
        assertThat(contents.count()).isEqualTo(1_000_000);
        assertThat(DatasetContents.leftovers(root, conf)).isEmpty();
    }

    @Test
    void losingADataNodeMidStreamLosesAndDuplicatesNothing() throws Exception {
        String topic = "datanode";
        int partitions = 3;
        Map<String, Object> props = streamInto(topic, partitions);
        Path root = root(topic);
        props.put(SinkConfig.HADOOP_PREFIX + "dfs.replication", "2"); // every block on two of the three
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "500");
        MiniDFSCluster.DataNodeProperties stopped = null;
        try (TestLoad load = TestLoad.start(broker.bootstrapServers(), topic, partitions, 60_000, 10_000);
             RunningSink sink = RunningSink.start(props)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> SinkTests.ledger(root, topic, conf).size() == partitions);
            stopped = dfs.stopDataNode(0);
            // Files open on the stopped datanode go on with the other replica; new blocks avoid it.
            // However far the paced load got, these records are certainly written after the loss.
            TestLoad.produce(broker.bootstrapServers(), topic, partitions, 15_000);
            load.await(Duration.ofMinutes(2));
            Map<Integer, Long> ends = broker.endOffsets(topic, partitions);
            await().atMost(Duration.ofMinutes(2)).until(() -> SinkTests.ledger(root, topic, conf).equals(ends));
        } finally {
            if (stopped != null) {
                dfs.restartDataNode(stopped, true); // the other tests' single replicas may live there
                dfs.waitActive();
            }
        }
        assertEveryOffsetOnceAndNoLeftovers(root, topic, broker.endOffsets(topic, partitions));
    }

    private static void assertEveryOffsetOnceAndNoLeftovers(Path root, String topic, Map<Integer, Long> ends)
            throws java.io.IOException {
        DatasetContents.read(root, topic, conf).assertExactly(ends);
        assertThat(DatasetContents.leftovers(root, conf)).isEmpty();
    }

    @Test
    void recoversByItselfWhenTheNameNodeRestartsMidStream() throws Exception {
        String topic = "restart";
        int partitions = 3;
        Map<String, Object> props = streamInto(topic, partitions);
        Path root = root(topic);
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "500");
        try (TestLoad load = TestLoad.start(broker.bootstrapServers(), topic, partitions, 90_000, 10_000);
             RunningSink sink = RunningSink.start(props)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> SinkTests.ledger(root, topic, conf).size() == partitions);
            dfs.shutdownNameNode(0);
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> sink.sink().status().stream()
                    .anyMatch(PartitionStatus::recovering));
            } finally {
                dfs.restartNameNode(0);
                dfs.waitActive();
            }
            load.await(Duration.ofMinutes(2));
            Map<Integer, Long> ends = broker.endOffsets(topic, partitions);
            await().atMost(Duration.ofMinutes(2)).ignoreExceptions()
                .until(() -> SinkTests.ledger(root, topic, conf).equals(ends));
            assertThat(sink.sink().status()).noneMatch(PartitionStatus::recovering);
        }
        assertEveryOffsetOnceAndNoLeftovers(root, topic, broker.endOffsets(topic, partitions));
    }

    // A new group has no committed offsets: its paused partitions have no position until their recovery seeks.
    @Test
    void aFirstStartWhileTheNameNodeIsDownWaitsForItAndThenLandsEveryRecord() throws Exception {
        String topic = "first-start-down";
        int partitions = 2;
        Map<String, Object> props = streamInto(topic, partitions);
        Path root = root(topic);
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "500");
        TestLoad.produce(broker.bootstrapServers(), topic, partitions, 2_000);
        Map<Integer, Long> ends = broker.endOffsets(topic, partitions);
        dfs.shutdownNameNode(0);
        try (RunningSink sink = RunningSink.start(props)) {
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> sink.sink().status().size() == partitions
                    && sink.sink().status().stream().allMatch(PartitionStatus::recovering));
                // A few more polls with the partitions paused and no position.
                await().pollDelay(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> true);
                assertThat(sink.isRunning()).as("sink running; failure %s", sink.sink().failure()).isTrue();
            } finally {
                dfs.restartNameNode(0);
                dfs.waitActive();
            }
            await().atMost(Duration.ofMinutes(2)).ignoreExceptions()
                .until(() -> SinkTests.ledger(root, topic, conf).equals(ends));
        }
        assertEveryOffsetOnceAndNoLeftovers(root, topic, ends);
    }

    @Test
    void aStopThatCannotCommitExitsOneSayingWhichAndTheNextStartLosesNothing(@TempDir java.nio.file.Path work)
            throws Exception {
        String topic = "stopfail";
        int partitions = 2;
        Map<String, Object> props = streamInto(topic, partitions);
        Path root = root(topic);
        props.put(SinkConfig.FLUSH_SIZE, "1000000"); // nothing commits before the stop
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "600000");
        TestLoad.produce(broker.bootstrapServers(), topic, partitions, 20_000);
        try (SinkProcess sink = SinkProcess.start(work, "stopfail", props)) {
            // Every record fetched and in an open file, none committed.
            await().atMost(Duration.ofSeconds(60)).until(() -> sink.logText().contains(
                "tributary-sink: " + partitions + " partitions, lag 0, oldest uncommitted"));
            dfs.shutdownNameNode(0);
            assertThat(sink.terminate()).as("exit code after SIGTERM; %s", sink.logEnd()).isEqualTo(1);
            assertThat(sink.logText()).as("log; %s", sink.logEnd())
                .contains("could not commit the open files of").contains(topic + "-0").contains(topic + "-1")
                .doesNotContain(SinkMain.STOPPED_CLEANLY);
        } finally {
            dfs.restartNameNode(0);
            dfs.waitActive();
        }
        assertThat(SinkTests.ledger(root, topic, conf)).isEmpty();

        Map<Integer, Long> ends = broker.endOffsets(topic, partitions);
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "500");
        try (RunningSink next = RunningSink.start(props)) {
            await().atMost(Duration.ofMinutes(2)).ignoreExceptions()
                .until(() -> SinkTests.ledger(root, topic, conf).equals(ends));
        }
        assertEveryOffsetOnceAndNoLeftovers(root, topic, ends);
    }
}

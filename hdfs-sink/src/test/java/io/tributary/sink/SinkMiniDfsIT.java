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

/** The sink streaming into HDFS (MiniDFSCluster), including a NameNode restart mid-stream. */
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
            .numDataNodes(1).nameNodePort(FreePorts.next()).build();
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

    private static Path root(String name) {
        return new Path(dfs.getURI().toString() + "/" + name);
    }

    @Test
    void streamsAMillionRecordsOverSixPartitionsExactlyOnce() throws Exception {
        String topic = "million";
        int partitions = 6;
        broker.createTopic(topic, partitions);
        Path root = root("million");
        Map<String, Object> props = props(topic, root);
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
    void recoversByItselfWhenTheNameNodeRestartsMidStream() throws Exception {
        String topic = "restart";
        int partitions = 3;
        broker.createTopic(topic, partitions);
        Path root = root("restart");
        Map<String, Object> props = props(topic, root);
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "500");
        try (TestLoad load = TestLoad.start(broker.bootstrapServers(), topic, partitions, 90_000, 10_000);
             RunningSink sink = RunningSink.start(props)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> SinkTests.ledger(root, topic, conf).size() == partitions);
            dfs.shutdownNameNode(0);
            await().atMost(Duration.ofSeconds(60)).until(() -> sink.sink().status().stream()
                .anyMatch(PartitionStatus::recovering));
            dfs.restartNameNode(0);
            dfs.waitActive();
            load.await(Duration.ofMinutes(2));
            Map<Integer, Long> ends = broker.endOffsets(topic, partitions);
            await().atMost(Duration.ofMinutes(2)).ignoreExceptions()
                .until(() -> SinkTests.ledger(root, topic, conf).equals(ends));
            assertThat(sink.sink().status()).noneMatch(PartitionStatus::recovering);
        }
        DatasetContents.read(root, topic, conf).assertExactly(broker.endOffsets(topic, partitions));
        assertThat(DatasetContents.leftovers(root, conf)).isEmpty();
    }
}

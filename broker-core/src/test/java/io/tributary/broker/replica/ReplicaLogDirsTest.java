package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.cluster.BrokerRegistry;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.TopicManager;
import io.tributary.broker.cluster.TopicStore;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.controller.ClusterView;
import io.tributary.broker.controller.PartitionStateStore;
import io.tributary.broker.log.IdempotentAppender;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.purgatory.Purgatory;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * AlterReplicaLogDirs and DescribeLogDirs as a broker with two log dirs answers them (its replica manager over a real
 * ZooKeeper): Kafka's errors, a move, its cancellation, and a move the broker stopped in the middle of that goes on
 * after the restart. Each round copies at most {@code replica.fetch.max.bytes}, 1 KiB here, so that a throttle of
 * 1 B/s holds a move back after its first round.
 */
@Timeout(60)
class ReplicaLogDirsTest {
    private static final int BROKER = 0;
    private static final int CONNECTION_TIMEOUT_MS = 30_000;
    private static final TopicPartition HERE = new TopicPartition("here", 0);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dir;
    private EmbeddedZooKeeper server;
    private ZkClient zk;
    private ClusterView view;
    private List<Path> dirs;
    private LogManager logs;
    private TopicManager topics;
    private ReplicaManager replicas;

    @BeforeEach
    void start() throws Exception {
        server = EmbeddedZooKeeper.start(dir.resolve("zookeeper"), 0);
        zk = ZkClient.connect(server.connectString(), 6_000, CONNECTION_TIMEOUT_MS);
        view = ClusterView.start(zk, CONNECTION_TIMEOUT_MS);
        new BrokerRegistry(zk, BROKER, "127.0.0.1", 9092, List.of("PLAINTEXT://127.0.0.1:9092"), Map.of("PLAINTEXT", "PLAINTEXT"),
                Time.SYSTEM).register(CONNECTION_TIMEOUT_MS, true);
        dirs = List.of(dir.resolve("d1").toAbsolutePath(), dir.resolve("d2").toAbsolutePath());
        startBroker();
        topics.create(HERE.topic(), 1, (short) 1, Map.of(), false);
        for (int i = 0; i < 20; i++) {
            replicas.appendAsLeader(HERE, MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(new byte[500])), (short) 1);
        }
        assertThat(logs.logDirOf(HERE)).contains(dirs.get(0));
    }

    private void startBroker() {
        BrokerConfig config = new BrokerConfig(Map.of(BrokerConfig.BROKER_ID, Integer.toString(BROKER),
                LogConfig.LOG_DIRS, dirs.get(0) + "," + dirs.get(1), BrokerConfig.ZOOKEEPER_CONNECT, server.connectString(),
                BrokerConfig.REPLICA_FETCH_MAX_BYTES, "1024"));
        logs = LogManager.open(dirs, config.logDefaults(), Time.SYSTEM);
        topics = new TopicManager(new TopicStore(zk), logs, config.logDefaults(), BROKER, () -> Set.of(BROKER, 1));
        replicas = new ReplicaManager(config.replicationConfig(null), topics, logs, new IdempotentAppender(), new Purgatory<>("fetch"),
                view, new PartitionStateStore(zk), HighWatermarkCheckpoints.load(dirs), Time.SYSTEM, java.util.Optional.empty());
        topics.addListener(replicas);
        topics.load();
    }

    private void stopBroker() {
        replicas.close();
        logs.close();
    }

    @AfterEach
    void stop() throws Exception {
        stopBroker();
        view.close();
        zk.close();
        server.close();
    }

    @Test
    void alterReplicaLogDirsAnswersAsKafkaDoes() {
        assertThat(replicas.alterReplicaLogDir(HERE, dir.resolve("d3").toAbsolutePath().toString())).isEqualTo(Errors.LOG_DIR_NOT_FOUND);
        assertThat(replicas.alterReplicaLogDir(HERE, "d2")).as("not absolute").isEqualTo(Errors.LOG_DIR_NOT_FOUND);
        assertThat(replicas.alterReplicaLogDir(new TopicPartition("nowhere", 0), dirs.get(1).toString()))
                .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
        SortedMap<Integer, List<Integer>> onBrokerOne = new TreeMap<>(Map.of(0, List.of(1)));
        topics.create("elsewhere", onBrokerOne, Map.of(), false);
        assertThat(replicas.alterReplicaLogDir(new TopicPartition("elsewhere", 0), dirs.get(1).toString()))
                .as("kafka-reassign-partitions asks again until the replica is here").isEqualTo(Errors.REPLICA_NOT_AVAILABLE);
        assertThat(replicas.alterReplicaLogDir(HERE, dirs.get(0).toString())).as("where it is").isEqualTo(Errors.NONE);
        assertThat(logs.futureLog(HERE)).isEmpty();

        replicas.alterLogDirsThrottle().setRate(1);
        assertThat(replicas.alterReplicaLogDir(HERE, dirs.get(1).toString())).isEqualTo(Errors.NONE);
        assertThat(replicas.alterReplicaLogDir(HERE, dirs.get(1).toString())).as("the same move again").isEqualTo(Errors.NONE);
        assertThat(logs.futureLogDirOf(HERE)).contains(dirs.get(1));
        assertThat(replicas.alterReplicaLogDir(HERE, dirs.get(0).toString())).as("back: cancels it").isEqualTo(Errors.NONE);
        assertThat(logs.futureLog(HERE)).isEmpty();
        assertThat(replicas.replicaLogs()).noneMatch(ReplicaManager.ReplicaLog::future);

        replicas.alterLogDirsThrottle().setRate(ReplicationThrottle.UNTHROTTLED);
        assertThat(replicas.alterReplicaLogDir(HERE, dirs.get(1).toString())).isEqualTo(Errors.NONE);
        Awaitility.await("moved").atMost(TIMEOUT).until(() -> logs.logDirOf(HERE).orElseThrow().equals(dirs.get(1)));
        assertThat(logs.log(HERE).orElseThrow().logEndOffset()).isEqualTo(20);
    }

    @Test
    void aMoveTheBrokerStoppedInTheMiddleOfGoesOnAfterTheRestart() {
        replicas.alterLogDirsThrottle().setRate(1);
        assertThat(replicas.alterReplicaLogDir(HERE, dirs.get(1).toString())).isEqualTo(Errors.NONE);
        Awaitility.await("one round copied").atMost(TIMEOUT).until(() -> logs.futureLog(HERE).orElseThrow().logEndOffset() > 0);
        ReplicaManager.ReplicaLog future = replicas.replicaLogs().stream().filter(ReplicaManager.ReplicaLog::future).findFirst().orElseThrow();
        assertThat(future.partition()).isEqualTo(HERE);
        assertThat(future.logDir()).isEqualTo(dirs.get(1));
        assertThat(future.size()).isPositive();
        assertThat(future.offsetLag()).as("behind the log it copies").isEqualTo(20 - logs.futureLog(HERE).orElseThrow().logEndOffset());
        assertThat(replicas.replicaLogs()).filteredOn(log -> !log.future()).singleElement()
                .extracting(ReplicaManager.ReplicaLog::logDir).isEqualTo(dirs.get(0));

        stopBroker();
        startBroker(); // unthrottled now
        Awaitility.await("moved").atMost(TIMEOUT).until(() -> logs.logDirOf(HERE).orElseThrow().equals(dirs.get(1)));
        assertThat(logs.futureLog(HERE)).isEmpty();
        assertThat(logs.log(HERE).orElseThrow().logEndOffset()).isEqualTo(20);
        replicas.appendAsLeader(HERE, MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(new byte[500])), (short) 1);
        assertThat(logs.log(HERE).orElseThrow().logEndOffset()).isEqualTo(21);
    }
}

package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
import io.tributary.broker.testing.TcpProxy;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A leader's resignation when its ZooKeeper session may have expired (rule 8 of docs/architecture.md), against a real
 * ZooKeeper server that the test cuts off (a {@link TcpProxy} that drops every byte): it must come by the session
 * deadline however long other work on the replicas waits for ZooKeeper meanwhile (a CreateTopics or a watch applying
 * a partition state, whose read Curator keeps retrying while it reconnects).
 */
class SessionLossResignationTest {
    private static final int BROKER = 0;
    /** The connection is suspended 2/3 of it (4 s) after the cut, and the session may expire 1/3 later. */
    private static final int SESSION_TIMEOUT_MS = 6_000;
    /** A read cut off from ZooKeeper waits about this long for a connection (29 s measured). */
    private static final int CONNECTION_TIMEOUT_MS = 30_000;
    /** How late the resignation may come after the session deadline on a loaded machine. */
    private static final long TOLERANCE_MS = 2_000;
    private static final TopicPartition LED = new TopicPartition("led", 0);
    private static final TopicPartition APPLIED = new TopicPartition("applied", 0);

    @TempDir
    Path dir;
    private EmbeddedZooKeeper server;
    private TcpProxy proxy;
    private ZkClient zk;
    private volatile long suspendedAtNanos;
    private ClusterView view;
    private LogManager logs;
    private ReplicaManager replicas;
    private final List<TopicPartition> resigned = new CopyOnWriteArrayList<>();
    private final ExecutorService stuckRequest = Executors.newSingleThreadExecutor();

    @BeforeEach
    void lead() throws Exception {
        server = EmbeddedZooKeeper.start(dir.resolve("zookeeper"), 0);
        proxy = TcpProxy.to(server.connectString());
        zk = ZkClient.connect(proxy.address(), SESSION_TIMEOUT_MS, CONNECTION_TIMEOUT_MS);
        view = ClusterView.start(zk, CONNECTION_TIMEOUT_MS);
        new BrokerRegistry(zk, BROKER, "127.0.0.1", 9092, List.of("PLAINTEXT://127.0.0.1:9092"), Map.of("PLAINTEXT", "PLAINTEXT"),
                Time.SYSTEM).register(CONNECTION_TIMEOUT_MS, true);
        Path logDir = dir.resolve("logs");
        BrokerConfig config = new BrokerConfig(Map.of(BrokerConfig.BROKER_ID, Integer.toString(BROKER),
                LogConfig.LOG_DIRS, logDir.toString(), BrokerConfig.ZOOKEEPER_CONNECT, server.connectString()));
        LogConfig logConfig = LogConfig.fromBroker(Map.of(LogConfig.LOG_DIRS, logDir.toString()));
        logs = LogManager.open(List.of(logDir), logConfig, Time.SYSTEM);
        TopicManager topics = new TopicManager(new TopicStore(zk), logs, logConfig, BROKER, () -> Set.of(BROKER, 1));
        PartitionStateStore states = new PartitionStateStore(zk);
        replicas = new ReplicaManager(config.replicationConfig(null), topics, logs, new IdempotentAppender(), new Purgatory<>("fetch"),
                view, states, HighWatermarkCheckpoints.load(List.of(logDir)), Time.SYSTEM,
                java.util.Optional.empty());
        topics.addListener(replicas);
        replicas.addLeadershipListener(new ReplicaManager.LeadershipListener() {
            @Override
            public void becameLeader(TopicPartition partition, int leaderEpoch) {
            }

            @Override
            public void resigned(TopicPartition partition) {
                resigned.add(partition);
            }
        });
        zk.curator().getConnectionStateListenable().addListener((client, state) -> {
            if (state == ConnectionState.SUSPENDED) {
                suspendedAtNanos = System.nanoTime();
            }
            replicas.zooKeeperConnectionChanged(state, zk.sessionMayExpireAfterSuspensionMs());
        });
        for (TopicPartition partition : List.of(LED, APPLIED)) {
            topics.create(partition.topic(), 1, (short) 2, Map.of(), false);
            // Broker 1 is in sync too (it has not registered: the controller is not part of this test), so another
            // broker could be elected in this one's place.
            states.update(partition, states.read(partition).orElseThrow().withIsr(List.of(BROKER, 1))).orElseThrow();
            replicas.apply(partition);
        }
        assertThat(replicas.leaderEpoch(LED)).as("leads").isZero();
    }

    @AfterEach
    void stop() throws Exception {
        stuckRequest.shutdownNow();
        proxy.close(); // the read still waiting fails at once
        replicas.close();
        view.close();
        zk.close();
        logs.close();
        server.close();
    }

    @Test
    @Timeout(120)
    void aLeaderResignsByItsSessionDeadlineWhileAnotherPartitionsStateIsReadFromTheLostZooKeeper() {
        proxy.cut();
        // A request (a CreateTopics, say) applies a partition's state meanwhile: its read waits for ZooKeeper.
        stuckRequest.execute(() -> replicas.apply(APPLIED));
        Awaitility.await("resigned").atMost(Duration.ofSeconds(90)).until(() -> resigned.contains(LED));
        long resignedAfterSuspensionMs = (System.nanoTime() - suspendedAtNanos) / 1_000_000;
        assertThat(replicas.leaderEpoch(LED)).isEqualTo(-1);
        assertThat(resignedAfterSuspensionMs).as("ms from the suspension to the resignation: the server may expire the "
                + "session a third of the session timeout after it").isLessThanOrEqualTo(SESSION_TIMEOUT_MS / 3 + TOLERANCE_MS);
    }
}

package io.tributary.broker.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.cluster.BrokerRegistry;
import io.tributary.broker.cluster.ZkClient;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.awaitility.Awaitility;

/**
 * Several brokers, each in its own JVM ({@link BrokerProcess}), on one ZooKeeper server in another
 * JVM ({@link ExternalZooKeeper}), all on loopback with free ports. Broker ids are 0..n-1; each
 * has its data under {@code dir/broker-<id>}.
 */
public final class TestCluster implements AutoCloseable {
    private final ExternalZooKeeper zookeeper;
    private final List<BrokerProcess> brokers;

    private TestCluster(ExternalZooKeeper zookeeper, List<BrokerProcess> brokers) {
        this.zookeeper = zookeeper;
        this.brokers = brokers;
    }

    /** Starts ZooKeeper and {@code size} brokers with {@code overrides} on top of quick test settings. */
    public static TestCluster start(Path dir, int size, Map<String, String> overrides) throws IOException, InterruptedException {
        return start(dir, size, overrides, (id, zookeeper) -> zookeeper);
    }

    /** How a broker reaches ZooKeeper: the connect string broker {@code id} gets, given the server's own. */
    public interface ZooKeeperRoute {
        String connectString(int id, String zookeeper) throws IOException;
    }

    /** {@link #start(Path, int, Map)} with each broker's ZooKeeper connect string chosen by {@code route} (through a proxy, say). */
    public static TestCluster start(Path dir, int size, Map<String, String> overrides, ZooKeeperRoute route)
            throws IOException, InterruptedException {
        ExternalZooKeeper zookeeper = ExternalZooKeeper.start(dir);
        List<BrokerProcess> brokers = new ArrayList<>();
        TestCluster cluster = new TestCluster(zookeeper, brokers);
        try {
            for (int id = 0; id < size; id++) {
                Map<String, String> settings = new HashMap<>();
                settings.put(BrokerConfig.BROKER_ID, Integer.toString(id));
                settings.put(BrokerConfig.ZOOKEEPER_CONNECT, route.connectString(id, zookeeper.connectString()));
                settings.put(BrokerConfig.ZOOKEEPER_SESSION_TIMEOUT_MS, "3000");
                settings.put(BrokerConfig.DEFAULT_REPLICATION_FACTOR, Integer.toString(size));
                settings.put(BrokerConfig.OFFSETS_TOPIC_REPLICATION_FACTOR, Integer.toString(size));
                settings.put(BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "3");
                settings.put(BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "0");
                settings.put(BrokerConfig.REPLICA_FETCH_BACKOFF_MS, "200");
                settings.put(BrokerConfig.CONTROLLED_SHUTDOWN_TIMEOUT_MS, "15000");
                settings.putAll(overrides);
                brokers.add(BrokerProcess.start(Files.createDirectories(dir.resolve("broker-" + id)), settings));
            }
            return cluster;
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** The ZooKeeper server's own address (brokers may reach it otherwise, see {@link ZooKeeperRoute}). */
    public String zookeeperConnectString() {
        return zookeeper.connectString();
    }

    public BrokerProcess broker(int id) {
        return brokers.get(id);
    }

    public int size() {
        return brokers.size();
    }

    public String bootstrapServers() {
        return brokers.stream().map(BrokerProcess::bootstrapServers).collect(Collectors.joining(","));
    }

    /** host:port of broker {@code id}'s inter-broker listener, as it registered it in ZooKeeper. */
    public String interBrokerAddress(int id) throws InterruptedException, IOException {
        try (ZkClient zk = ZkClient.connect(zookeeper.connectString(), 10_000, 10_000)) {
            JsonNode registration = new ObjectMapper().readTree(zk.read(BrokerRegistry.brokerPath(id)).orElseThrow().data());
            return registration.path("host").asText() + ":" + registration.path("port").asInt();
        }
    }

    /** The partition as the cluster's metadata describes it now. */
    public static TopicPartitionInfo describe(Admin admin, String topic, int partition) throws InterruptedException, ExecutionException {
        TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
        return description.partitions().get(partition);
    }

    /** The current leader's id, or -1 while there is none. */
    public static int leaderOf(Admin admin, String topic, int partition) {
        try {
            Node leader = describe(admin, topic, partition).leader();
            return leader == null ? -1 : leader.id();
        } catch (InterruptedException | ExecutionException e) {
            return -1;
        }
    }

    /** The current ISR's broker ids. */
    public static List<Integer> isrOf(Admin admin, String topic, int partition) {
        try {
            return describe(admin, topic, partition).isr().stream().map(Node::id).sorted().toList();
        } catch (InterruptedException | ExecutionException e) {
            return List.of();
        }
    }

    /** Waits until the partition has a leader and all {@code size} replicas in sync. */
    public void awaitFullIsr(Admin admin, String topic, int partition, Duration timeout) {
        Awaitility.await(topic + "-" + partition + " fully in sync").atMost(timeout).pollInterval(Duration.ofMillis(200))
                .until(() -> leaderOf(admin, topic, partition) >= 0 && isrOf(admin, topic, partition).size() == size());
    }

    /** Sends SIGSTOP or SIGCONT to a broker. */
    public void signal(int id, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(broker(id).pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + broker(id).pid() + " failed");
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (BrokerProcess broker : brokers) {
            try {
                signal(brokers.indexOf(broker), "CONT");
            } catch (IOException | RuntimeException e) {
                // not stopped, or already gone
            }
            broker.close();
        }
        zookeeper.close();
    }
}

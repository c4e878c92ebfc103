package io.tributary.chaos.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import io.tributary.chaos.net.NetworkLab;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster under test: an external ZooKeeper and the brokers, each in a namespace of its own on
 * a {@link NetworkLab}, and the topic. This JVM is the clients' machine. {@link #close()} kills
 * what still runs and removes the network.
 */
public final class ChaosCluster implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ChaosCluster.class);
    private static final int ZOOKEEPER_HOST = 2;
    private static final int FIRST_BROKER_HOST = 11;
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(90);

    private final ClusterSettings settings;
    private final NetworkLab lab;
    private final ZooKeeperNode zookeeper;
    private final List<BrokerNode> brokers;
    private Admin admin;

    private ChaosCluster(ClusterSettings settings, NetworkLab lab, ZooKeeperNode zookeeper, List<BrokerNode> brokers) {
        this.settings = settings;
        this.lab = lab;
        this.zookeeper = zookeeper;
        this.brokers = brokers;
    }

    /** Builds the network, starts ZooKeeper and the brokers, creates the topic and waits for a full ISR everywhere. */
    public static ChaosCluster start(Path dir, ClusterSettings settings) throws Exception {
        NetworkLab lab = NetworkLab.create();
        ChaosCluster cluster;
        try {
            ZooKeeperNode zookeeper = ZooKeeperNode.create(lab, lab.addHost("zk", ZOOKEEPER_HOST),
                    Files.createDirectories(dir.resolve("zookeeper")));
            List<BrokerNode> brokers = new ArrayList<>();
            for (int id = 1; id <= settings.brokers(); id++) {
                brokers.add(BrokerNode.create(lab, lab.addHost("b" + id, FIRST_BROKER_HOST + id - 1), id,
                        Files.createDirectories(dir.resolve("broker-" + id)), zookeeper.connectString(), settings));
            }
            cluster = new ChaosCluster(settings, lab, zookeeper, brokers);
        } catch (Exception | Error e) {
            lab.close();
            throw e;
        }
        try {
            cluster.zookeeper.start();
            CompletableFuture.allOf(cluster.brokers.stream().map(b -> CompletableFuture.runAsync(b::start))
                    .toArray(CompletableFuture[]::new)).get(STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            cluster.admin = Admin.create(adminSettings(cluster.bootstrapServers()));
            cluster.await("all brokers registered", STEP_TIMEOUT, () -> cluster.registeredBrokers() == settings.brokers());
            cluster.createTopic();
            cluster.await("a full ISR on every partition", STEP_TIMEOUT, cluster::fullIsrEverywhere);
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private static Properties adminSettings(String bootstrap) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000");
        props.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "100");
        return props;
    }

    private void createTopic() throws Exception {
        NewTopic topic = new NewTopic(settings.topic(), settings.partitions(), (short) settings.replicationFactor())
                .configs(Map.of("min.insync.replicas", Integer.toString(settings.minInSyncReplicas())));
        CreateTopicsOptions options = new CreateTopicsOptions().timeoutMs((int) STEP_TIMEOUT.toMillis());
        try {
            admin.createTopics(List.of(topic), options).all().get(STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            // On a loaded machine an attempt can time out after the controller created the topic:
            // the admin's retry then finds it.
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }

    private int registeredBrokers() {
        try {
            return admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size();
        } catch (ExecutionException | TimeoutException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Each partition as the cluster's metadata shows it now, or empty if no broker answered in time. */
    public Optional<List<TopicPartitionInfo>> partitions() {
        try {
            TopicDescription description = admin.describeTopics(List.of(settings.topic())).allTopicNames()
                    .get(5, TimeUnit.SECONDS).get(settings.topic());
            return Optional.of(description.partitions());
        } catch (ExecutionException | TimeoutException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The broker the metadata names as leader of {@code partition}, or -1 if none or unknown. */
    public int leaderOf(int partition) {
        return partitions().map(all -> all.get(partition).leader()).map(leader -> leader == null ? -1 : leader.id()).orElse(-1);
    }

    /** The controller the metadata names, or -1 if unknown. */
    public int controller() {
        try {
            Node controller = admin.describeCluster().controller().get(5, TimeUnit.SECONDS);
            return controller == null ? -1 : controller.id();
        } catch (ExecutionException | TimeoutException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Whether every partition has a leader and all its replicas in sync. */
    public boolean fullIsrEverywhere() {
        return partitions().map(all -> all.size() == settings.partitions() && all.stream().allMatch(p ->
                p.leader() != null && p.isr().size() == settings.replicationFactor())).orElse(false);
    }

    /** Waits until every broker runs and every partition has a full ISR again. */
    public void awaitHealthy(Duration timeout) {
        await("a healthy cluster (every broker up, every ISR full)", timeout, () -> registeredBrokers() == settings.brokers()
                && fullIsrEverywhere());
    }

    /** SIGTERM to every broker (a clean stop, so the logs and checkpoints are complete), then to ZooKeeper. */
    public void stopCleanly() {
        closeAdmin();
        CompletableFuture.allOf(brokers.stream().filter(b -> b.jvm().isAlive())
                .map(b -> CompletableFuture.runAsync(() -> b.jvm().terminate())).toArray(CompletableFuture[]::new)).join();
        if (zookeeper.jvm().isAlive()) {
            zookeeper.jvm().terminate();
        }
    }

    public String bootstrapServers() {
        return brokers.stream().map(BrokerNode::address).collect(Collectors.joining(","));
    }

    public BrokerNode broker(int id) {
        return brokers.get(id - 1);
    }

    public List<BrokerNode> brokers() {
        return brokers;
    }

    public ZooKeeperNode zookeeper() {
        return zookeeper;
    }

    public NetworkLab network() {
        return lab;
    }

    public ClusterSettings settings() {
        return settings;
    }

    private static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no " + what + " within " + timeout);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private void closeAdmin() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
            admin = null;
        }
    }

    @Override
    public void close() {
        closeAdmin();
        for (BrokerNode broker : brokers) {
            try {
                broker.jvm().kill();
            } catch (RuntimeException e) {
                log.warn("could not kill {}: {}", broker.jvm().name(), e.toString());
            }
        }
        try {
            zookeeper.jvm().kill();
        } catch (RuntimeException e) {
            log.warn("could not kill ZooKeeper: {}", e.toString());
        }
        lab.close();
    }
}

package io.tributary.testkit.tributary;

import io.tributary.broker.BrokerConfig;
import io.tributary.broker.Server;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.log.LogConfig;
import org.apache.kafka.common.utils.Time;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Several Tributary brokers in this JVM (ids 0..n-1) on one ZooKeeper server, all on loopback with free ports, for the
 * tests of what only a cluster has: replicas to move, leaders to elect. The brokers share this JVM's MBean server, so
 * only the first one's JMX MBeans are registered.
 */
public final class TributaryCluster implements AutoCloseable {
    private final EmbeddedZooKeeper zookeeper;
    private final List<Server> brokers = new ArrayList<>();

    private TributaryCluster(EmbeddedZooKeeper zookeeper) {
        this.zookeeper = zookeeper;
    }

    /** Starts ZooKeeper and {@code size} brokers with {@code overrides}, data under {@code dir}. */
    public static TributaryCluster start(Path dir, int size, Map<String, String> overrides) throws Exception {
        TributaryCluster cluster = new TributaryCluster(EmbeddedZooKeeper.start(Files.createDirectories(dir.resolve("zookeeper")), 0));
        try {
            for (int id = 0; id < size; id++) {
                Map<String, String> props = new HashMap<>();
                props.put(BrokerConfig.BROKER_ID, Integer.toString(id));
                props.put(BrokerConfig.LISTENERS, "PLAINTEXT://127.0.0.1:0");
                props.put(BrokerConfig.ZOOKEEPER_CONNECT, cluster.zookeeper.connectString());
                props.put(LogConfig.LOG_DIRS, dir.resolve("broker-" + id).toString());
                props.put(BrokerConfig.DEFAULT_REPLICATION_FACTOR, Integer.toString(size));
                props.put(BrokerConfig.OFFSETS_TOPIC_REPLICATION_FACTOR, Integer.toString(size));
                props.put(BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "3");
                props.put(BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "0");
                props.put(BrokerConfig.REPLICA_FETCH_BACKOFF_MS, "200");
                props.putAll(overrides);
                cluster.brokers.add(Server.start(new BrokerConfig(props), Time.SYSTEM));
            }
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    public String bootstrapServers() {
        return brokers.stream().map(Server::bootstrapServers).collect(Collectors.joining(","));
    }

    @Override
    public void close() {
        brokers.forEach(Server::close);
        zookeeper.close();
    }
}

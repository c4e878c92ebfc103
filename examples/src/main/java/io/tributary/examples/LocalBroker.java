package io.tributary.examples;

import io.tributary.broker.BrokerConfig;
import io.tributary.broker.Server;
import io.tributary.broker.log.LogConfig;
import org.apache.kafka.common.utils.Time;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * One Tributary broker in this JVM with its own embedded ZooKeeper (on a free port), data under
 * {@code dir}, listening on 127.0.0.1:{@code port} (0 picks a free port).
 */
public final class LocalBroker implements AutoCloseable {
    private final Server server;

    private LocalBroker(Server server) {
        this.server = server;
    }

    public static LocalBroker start(Path dir, int port) throws Exception {
        Map<String, String> props = new HashMap<>();
        props.put(BrokerConfig.LISTENERS, "PLAINTEXT://127.0.0.1:" + port);
        props.put(BrokerConfig.ZOOKEEPER_CONNECT, "");
        props.put(BrokerConfig.ZOOKEEPER_EMBEDDED_PORT, "0");
        props.put(LogConfig.LOG_DIRS, dir.toAbsolutePath().toString());
        // One machine, a few clients: fewer threads, a small offsets topic, no wait for more group members.
        props.put(BrokerConfig.NUM_NETWORK_THREADS, "2");
        props.put(BrokerConfig.NUM_IO_THREADS, "4");
        props.put(BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "6");
        props.put(BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "0");
        return new LocalBroker(Server.start(new BrokerConfig(props), Time.SYSTEM));
    }

    public String bootstrapServers() {
        return server.bootstrapServers();
    }

    @Override
    public void close() {
        server.close();
    }
}

package io.tributary.broker.testing;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.Server;
import io.tributary.broker.log.LogConfig;
import org.apache.kafka.common.utils.Time;

/**
 * A broker in the test's JVM on free loopback ports, with its own embedded ZooKeeper (unless
 * the overrides name one) and its data under a test directory.
 */
public final class TestBroker implements AutoCloseable {
    private final Server server;

    private TestBroker(Server server) {
        this.server = server;
    }

    public static TestBroker start(Path dir) throws Exception {
        return start(dir, Map.of());
    }

    public static TestBroker start(Path dir, Map<String, String> overrides) throws Exception {
        return start(dir, overrides, Time.SYSTEM);
    }

    /** A broker on {@code time} (say, a {@link SkippingTime} the test moves forward). */
    public static TestBroker start(Path dir, Map<String, String> overrides, Time time) throws Exception {
        return new TestBroker(Server.start(new BrokerConfig(properties(dir, overrides)), time));
    }

    /**
     * Settings for a test broker: port 0 everywhere, data in {@code dir/logs}, then the overrides. Relative {@code
     * log.dirs} are folders of {@code dir}, so that the brokers of a cluster, which share their overrides, each get their
     * own.
     */
    public static Map<String, String> properties(Path dir, Map<String, String> overrides) {
        Map<String, String> props = new HashMap<>();
        props.put(BrokerConfig.LISTENERS, "PLAINTEXT://127.0.0.1:0");
        props.put(BrokerConfig.ZOOKEEPER_EMBEDDED_PORT, "0");
        props.put(LogConfig.LOG_DIRS, dir.resolve("logs").toString());
        props.put(BrokerConfig.NUM_NETWORK_THREADS, "2");
        props.put(BrokerConfig.NUM_IO_THREADS, "4");
        props.putAll(overrides);
        props.computeIfPresent(LogConfig.LOG_DIRS, (key, dirs) -> Arrays.stream(dirs.split(","))
                .map(logDir -> dir.resolve(logDir.trim()).toString()).collect(Collectors.joining(",")));
        return props;
    }

    public String bootstrapServers() {
        return server.bootstrapServers();
    }

    /** host:port of the listener named {@code listener}. */
    public String bootstrapServers(String listener) {
        InetSocketAddress address = server.boundAddress(listener);
        return address.getHostString() + ":" + address.getPort();
    }

    public int port(String listener) {
        return server.boundAddress(listener).getPort();
    }

    /** http://host:port of the first {@code http.listeners} address. */
    public String httpUrl() {
        InetSocketAddress address = server.httpAddresses().get(0);
        return "http://" + address.getHostString() + ":" + address.getPort();
    }

    public int port() {
        return server.boundAddress().getPort();
    }

    @Override
    public void close() {
        server.close();
    }
}

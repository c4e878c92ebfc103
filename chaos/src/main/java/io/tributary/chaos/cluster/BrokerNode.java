package io.tributary.chaos.cluster;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import io.tributary.broker.TributaryServer;
import io.tributary.chaos.net.Host;
import io.tributary.chaos.net.NetworkLab;
import io.tributary.chaos.process.ChildJvm;

/**
 * One broker as bin/tributary-server runs it ({@link TributaryServer} with a properties file), in
 * its own namespace, listening on port 9092 of its host. Restarts keep the id, address and data.
 */
public final class BrokerNode {
    private static final int PORT = 9092;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final int id;
    private final Host host;
    private final Path logDir;
    private final ChildJvm jvm;

    private BrokerNode(int id, Host host, Path logDir, ChildJvm jvm) {
        this.id = id;
        this.host = host;
        this.logDir = logDir;
        this.jvm = jvm;
    }

    /** Writes {@code dir/server.properties}; {@link #start()} runs the broker. */
    public static BrokerNode create(NetworkLab lab, Host host, int id, Path dir, String zookeeper, ClusterSettings settings) {
        Path logDir = dir.resolve("logs");
        Properties props = new Properties();
        props.setProperty("broker.id", Integer.toString(id));
        props.setProperty("listeners", "PLAINTEXT://" + host.address() + ":" + PORT);
        props.setProperty("zookeeper.connect", zookeeper);
        props.setProperty("zookeeper.session.timeout.ms", Integer.toString(settings.sessionTimeoutMs()));
        props.setProperty("log.dirs", logDir.toString());
        props.setProperty("min.insync.replicas", Integer.toString(settings.minInSyncReplicas()));
        props.setProperty("default.replication.factor", Integer.toString(settings.replicationFactor()));
        props.setProperty("offsets.topic.replication.factor", Integer.toString(settings.replicationFactor()));
        props.setProperty("unclean.leader.election.enable", "false");
        props.setProperty("replica.lag.time.max.ms", Integer.toString(settings.replicaLagTimeMaxMs()));
        props.setProperty("group.initial.rebalance.delay.ms", "0");
        props.setProperty("offsets.topic.num.partitions", "3");
        // Only the final stop is a SIGTERM, of all brokers at once: moving leadership then would just wait out the timeout.
        props.setProperty("controlled.shutdown.enable", "false");
        props.setProperty("num.network.threads", "2");
        props.setProperty("num.io.threads", "4");
        Path file = dir.resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(file)) {
            props.store(out, "chaos broker " + id);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChildJvm jvm = new ChildJvm("broker " + id, lab.inside(host, List.of()), List.of("-Xmx384m",
                "-Dzookeeper.admin.enableServer=false", "-Dlog4j.configuration=" + LogConfigs.broker(dir).toUri()),
                TributaryServer.class.getName(), List.of(file.toString()), dir.resolve("broker.log"));
        return new BrokerNode(id, host, logDir, jvm);
    }

    /** Starts the broker and waits until it listens (not until it has registered). */
    public void start() {
        long before = jvm.outputLines();
        jvm.start(() -> jvm.printed("listening on", before), START_TIMEOUT);
    }

    public int id() {
        return id;
    }

    public Host host() {
        return host;
    }

    public String address() {
        return host.address() + ":" + PORT;
    }

    public Path logDir() {
        return logDir;
    }

    public ChildJvm jvm() {
        return jvm;
    }
}

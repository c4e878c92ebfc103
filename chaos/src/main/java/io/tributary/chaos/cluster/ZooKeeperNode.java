package io.tributary.chaos.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import io.tributary.chaos.net.Host;
import io.tributary.chaos.net.NetworkLab;
import io.tributary.chaos.process.ChildJvm;
import org.apache.zookeeper.server.ZooKeeperServerMain;

/** A standalone ZooKeeper ({@link ZooKeeperServerMain}) in its own namespace, on port 2181 of its host. */
public final class ZooKeeperNode {
    private static final int PORT = 2181;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Host host;
    private final ChildJvm jvm;

    private ZooKeeperNode(Host host, ChildJvm jvm) {
        this.host = host;
        this.jvm = jvm;
    }

    /** Writes the configuration under {@code dir}; {@link #start()} runs it. */
    public static ZooKeeperNode create(NetworkLab lab, Host host, Path dir) {
        try {
            Path data = Files.createDirectories(dir.resolve("data"));
            Path config = dir.resolve("zoo.cfg");
            // tickTime 1000: sessions of 2 to 60 s are allowed, and expire within about a tick of their timeout.
            Files.writeString(config, String.join("\n", "tickTime=1000", "dataDir=" + data, "clientPort=" + PORT,
                    "clientPortAddress=" + host.address(), "maxSessionTimeout=60000", "admin.enableServer=false", ""));
            ChildJvm jvm = new ChildJvm("zookeeper", lab.inside(host, List.of()), List.of("-Xmx128m",
                    "-Dzookeeper.admin.enableServer=false", "-Dlog4j.configuration=" + LogConfigs.quiet(dir).toUri()),
                    ZooKeeperServerMain.class.getName(), List.of(config.toString()), dir.resolve("zookeeper.log"));
            return new ZooKeeperNode(host, jvm);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void start() {
        jvm.start(this::answers, START_TIMEOUT);
    }

    private boolean answers() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host.address(), PORT), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public String connectString() {
        return host.address() + ":" + PORT;
    }

    public Host host() {
        return host;
    }

    public ChildJvm jvm() {
        return jvm;
    }
}

package io.tributary.broker.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import io.tributary.testkit.FreePorts;
import org.apache.zookeeper.server.ZooKeeperServerMain;
import org.awaitility.Awaitility;

/**
 * A standalone ZooKeeper server in its own JVM ({@link ZooKeeperServerMain}), on a fixed free port
 * so that it can be killed and started again on the same port and data.
 */
public final class ExternalZooKeeper implements AutoCloseable {
    private final Path config;
    private final Path data;
    private final Path output;
    private final int port;
    private Process process;

    private ExternalZooKeeper(Path config, Path data, Path output, int port) {
        this.config = config;
        this.data = data;
        this.output = output;
        this.port = port;
    }

    public static ExternalZooKeeper start(Path dir) throws IOException {
        int port = FreePorts.next();
        Path data = Files.createDirectories(dir.resolve("zookeeper-data"));
        Path config = dir.resolve("zoo.cfg");
        Files.writeString(config, String.join("\n", "tickTime=500", "dataDir=" + data, "clientPort=" + port,
                "clientPortAddress=127.0.0.1", "maxSessionTimeout=60000", "admin.enableServer=false", ""));
        ExternalZooKeeper zookeeper = new ExternalZooKeeper(config, data, dir.resolve("zookeeper.log"), port);
        zookeeper.launch();
        return zookeeper;
    }

    private void launch() throws IOException {
        process = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-Dzookeeper.admin.enableServer=false", "-cp", System.getProperty("java.class.path"),
                ZooKeeperServerMain.class.getName(), config.toString()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile())).start();
        try {
            awaitListening();
        } catch (RuntimeException e) {
            process.destroyForcibly(); // the caller gets no object to close
            throw e;
        }
    }

    private void awaitListening() {
        Awaitility.await("ZooKeeper on port " + port).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    if (!process.isAlive()) {
                        throw new IllegalStateException("ZooKeeper exited with " + process.exitValue() + "; see " + output);
                    }
                    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
                        return true;
                    } catch (IOException e) {
                        return false;
                    }
                });
    }

    public String connectString() {
        return "127.0.0.1:" + port;
    }

    /** SIGKILL: the server vanishes without closing sessions. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Starts the server again on the same port and data. */
    public void restart() throws IOException {
        launch();
    }

    /** Starts the server again on the same port with no data: every session and node is gone. */
    public void restartEmpty() throws IOException {
        try (var files = Files.walk(data)) {
            files.sorted(java.util.Comparator.reverseOrder()).filter(f -> !f.equals(data)).forEach(f -> f.toFile().delete());
        }
        launch();
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }
}

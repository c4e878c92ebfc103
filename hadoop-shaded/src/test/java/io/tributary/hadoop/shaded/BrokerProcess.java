package io.tributary.hadoop.shaded;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A Tributary broker as {@code bin/tributary-server} runs it, in a process of its own, so that
 * nothing of the broker's class path enters the Spark JVM of the test.
 */
final class BrokerProcess implements AutoCloseable {
    private final Process process;
    private final String bootstrapServers;

    private BrokerProcess(Process process, String bootstrapServers) {
        this.process = process;
        this.bootstrapServers = bootstrapServers;
    }

    static BrokerProcess start(Path home, Path dir) throws Exception {
        int port = freePort();
        int zookeeperPort = freePort();
        Files.createDirectories(dir);
        Process process = new ProcessBuilder(List.of("bash", home.resolve("bin/tributary-server").toString(),
            home.resolve("config/server.properties").toString(),
            "--override", "listeners=PLAINTEXT://127.0.0.1:" + port,
            "--override", "zookeeper.embedded.port=" + zookeeperPort,
            "--override", "http.listeners=http://127.0.0.1:0",
            "--override", "log.dirs=" + dir.resolve("logs")))
            .redirectErrorStream(true).redirectOutput(dir.resolve("broker.log").toFile()).start();
        BrokerProcess broker = new BrokerProcess(process, "127.0.0.1:" + port);
        broker.awaitReady(Duration.ofSeconds(60), dir.resolve("broker.log"));
        return broker;
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    }

    private void awaitReady(Duration timeout, Path log) throws Exception {
        try {
            Awaitility.await("the broker answers DescribeCluster").atMost(timeout).pollInterval(Duration.ofMillis(200))
                    .ignoreExceptionsInstanceOf(ExecutionException.class)
                    .until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException("the broker exited " + process.exitValue() + ":\n" + Files.readString(log));
                        }
                        try (Admin admin = admin()) {
                            return !admin.describeCluster().nodes().get(2, TimeUnit.SECONDS).isEmpty();
                        } catch (TimeoutException e) {
                            return false;
                        }
                    });
        } catch (ConditionTimeoutException e) {
            close();
            throw new IllegalStateException("the broker was not ready in " + timeout + ":\n" + Files.readString(log), e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy(); // SIGTERM: the broker shuts down cleanly
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}

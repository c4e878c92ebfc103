package io.tributary.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.ExternalCommand;
import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.ZooKeeperSessions;
import io.tributary.testkit.FreePorts;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/tributary-zookeeper config/zookeeper.properties --override ...} as an operator runs it, from an
 * unrelated working directory: a real ZooKeeper client connects, a broker registers in it, SIGTERM stops it, and a
 * bad configuration is refused with exit code 2 and one line naming the problem. Needs the packaged jar.
 */
@Timeout(180)
class StandaloneZooKeeperIT {
    private static final Path HOME = Path.of("..").toAbsolutePath().normalize();
    private static final Path SCRIPT = HOME.resolve("bin/tributary-zookeeper");
    private static final Path CONFIG = HOME.resolve("config/zookeeper.properties");

    @Test
    void servesClientsAndBrokersAndStopsOnSigterm(@TempDir Path dir) throws Exception {
        int port = FreePorts.next();
        Path output = dir.resolve("zookeeper.out");
        Process zookeeper = start(dir, output, CONFIG.toString(), "--override", "clientPort=" + port);
        try {
            Awaitility.await("start-up line in " + output).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        assertThat(zookeeper.isAlive()).as("running; output: %s", Files.readString(output)).isTrue();
                        return Files.readString(output).contains("ZooKeeper (standalone) listening on 127.0.0.1:" + port);
                    });
            // the shipped relative dataDir, under the working directory
            assertThat(Files.readString(output)).contains("data in ./tributary-data/zookeeper");
            assertThat(dir.resolve("tributary-data/zookeeper/version-2")).isDirectory();

            try (ZooKeeper client = ZooKeeperSessions.connect("127.0.0.1:" + port)) {
                // the cluster's chroot, created once as docs/operations.md says
                client.create("/tributary", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                try (TestBroker broker = TestBroker.start(dir.resolve("broker"),
                        Map.of(BrokerConfig.BROKER_ID, "7", BrokerConfig.ZOOKEEPER_CONNECT, "127.0.0.1:" + port + "/tributary"))) {
                    assertThat(client.getChildren("/tributary/brokers/ids", false)).containsExactly("7");
                    assertThat(new String(client.getData("/tributary/brokers/ids/7", false, null), StandardCharsets.UTF_8))
                            .contains("\"port\":" + broker.port());
                }
            }

            zookeeper.destroy(); // SIGTERM
            assertThat(zookeeper.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(zookeeper.exitValue()).isEqualTo(128 + 15);
            assertThat(listening(port)).as("port %d closed", port).isFalse();
        } finally {
            zookeeper.destroyForcibly();
        }
    }

    @Test
    void runsEachNodeOfAThreeNodeEnsemble(@TempDir Path dir) throws Exception {
        List<Integer> clientPorts = List.of(FreePorts.next(), FreePorts.next(), FreePorts.next());
        List<String> members = new ArrayList<>();
        for (int id = 1; id <= 3; id++) {
            members.add("server." + id + "=127.0.0.1:" + FreePorts.next() + ":" + FreePorts.next());
        }
        List<Process> nodes = new ArrayList<>();
        try {
            for (int id = 1; id <= 3; id++) {
                Path node = Files.createDirectories(dir.resolve("zk" + id + "/data"));
                Files.writeString(node.resolve("myid"), id + "\n");
                Path config = dir.resolve("zk" + id + "/zoo.cfg");
                Files.writeString(config, String.join("\n", "tickTime=500", "initLimit=20", "syncLimit=10",
                        "dataDir=" + node, "clientPort=" + clientPorts.get(id - 1), "clientPortAddress=127.0.0.1",
                        "admin.enableServer=false", String.join("\n", members), ""));
                nodes.add(start(dir, dir.resolve("zk" + id + ".out"), config.toString()));
            }
            try (ZooKeeper first = ZooKeeperSessions.connect("127.0.0.1:" + clientPorts.get(0));
                 ZooKeeper third = ZooKeeperSessions.connect("127.0.0.1:" + clientPorts.get(2))) {
                first.create("/written-through-node-1", "x".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.PERSISTENT);
                Awaitility.await("node 3 has the write").atMost(Duration.ofSeconds(30))
                        .until(() -> third.exists("/written-through-node-1", false) != null);
            }
            assertThat(Files.readString(dir.resolve("zk2.out"))).contains("ZooKeeper server 2 of an ensemble of 3 starting on 127.0.0.1:" + clientPorts.get(1));
            for (Process node : nodes) {
                node.destroy();
                assertThat(node.waitFor(60, TimeUnit.SECONDS)).isTrue();
                assertThat(node.exitValue()).isEqualTo(128 + 15);
            }
        } finally {
            nodes.forEach(Process::destroyForcibly);
        }
    }

    @Test
    void refusesAnUnknownKey(@TempDir Path dir) throws Exception {
        ExternalCommand.Result result = run(dir, CONFIG.toString(), "--override", "clientPrt=2182");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderr()).contains("unknown ZooKeeper configuration key clientPrt in " + CONFIG);
    }

    @Test
    void refusesAValueThatIsNotANumber(@TempDir Path dir) throws Exception {
        ExternalCommand.Result result = run(dir, CONFIG.toString(), "--override", "clientPort=twenty");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderr()).contains("clientPort must be a number, not 'twenty'");
    }

    @Test
    void refusesAMissingFileAndAMissingDataDir(@TempDir Path dir) throws Exception {
        ExternalCommand.Result missing = run(dir, dir.resolve("nothing.properties").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.stderr()).contains("cannot read " + dir.resolve("nothing.properties"));

        Path noDataDir = dir.resolve("zoo.cfg");
        Files.writeString(noDataDir, "clientPort=2181\nclientPortAddress=127.0.0.1\n");
        ExternalCommand.Result invalid = run(dir, noDataDir.toString());
        assertThat(invalid.exitCode()).isEqualTo(2);
        assertThat(invalid.stderr()).contains("invalid ZooKeeper configuration " + noDataDir + ": dataDir is not set");
        assertThat(dir.resolve("tributary-data")).doesNotExist();
    }

    private static Process start(Path dir, Path output, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().put("TRIBUTARY_JVM_OPTS", "-Xmx128m");
        return builder.start();
    }

    private static ExternalCommand.Result run(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
        command.addAll(List.of(args));
        return ExternalCommand.run(command, dir, "", 60);
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

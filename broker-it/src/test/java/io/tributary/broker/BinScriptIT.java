package io.tributary.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.tributary.broker.testing.Clients;
import org.apache.kafka.clients.admin.Admin;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/tributary-server config/server.properties --override ...} from an unrelated working
 * directory: it finds its jars, logs where it listens and where its data is, serves, and shuts
 * down cleanly on SIGTERM. Needs the packaged jar (the package phase runs before the ITs).
 */
class BinScriptIT {
    private static final Path HOME = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+), data in \\[(.*)\\]");

    @Test
    void runsInTheForegroundAndStopsCleanlyOnSigterm(@TempDir Path dir) throws Exception {
        Path output = dir.resolve("server.out");
        Path data = dir.resolve("data");
        Process server = new ProcessBuilder(List.of(HOME.resolve("bin/tributary-server").toString(),
                HOME.resolve("config/server.properties").toString(),
                "--override", "listeners=PLAINTEXT://127.0.0.1:0",
                "--override", "zookeeper.embedded.port=0",
                "--override", "http.listeners=http://127.0.0.1:0",
                "--override", "log.dirs=" + data))
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            Matcher started = Awaitility.await("start-up line in " + output).atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> LISTENING.matcher(Files.readString(output)), Matcher::find);
            assertThat(started.group(2)).isEqualTo(data.toString());
            try (Admin admin = Clients.admin("127.0.0.1:" + started.group(1))) {
                assertThat(admin.describeCluster().nodes().get()).hasSize(1);
            }
            server.destroy();
            assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(server.exitValue()).isEqualTo(128 + 15);
            assertThat(Files.readString(output)).contains("Tributary broker stopped");
            assertThat(data.resolve(".kafka_cleanshutdown")).exists();
        } finally {
            server.destroyForcibly();
        }
    }
}

package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A group member in another JVM is SIGKILLed: it never leaves the group, so its partitions move to the
 * surviving member only once its session times out.
 */
class MemberCrashIT {
    private static final String TOPIC = "crash";
    private static final int SESSION_TIMEOUT_MS = 3000;

    @TempDir
    Path dir;

    @Test
    void theKilledMembersPartitionsMoveAfterItsSessionTimeout() throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of(
                BrokerConfig.GROUP_MIN_SESSION_TIMEOUT_MS, "1000",
                BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "300",
                BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "5"))) {
            try (Admin admin = Clients.admin(broker.bootstrapServers())) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 6, (short) 1))).all().get();
            }
            Process other = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-cp", System.getProperty("java.class.path"), GroupMemberMain.class.getName(),
                    broker.bootstrapServers(), "crash-g", TOPIC, Integer.toString(SESSION_TIMEOUT_MS))
                    .redirectError(dir.resolve("member.err").toFile()).start();
            AtomicInteger otherAssigned = new AtomicInteger(-1);
            Thread output = new Thread(() -> follow(other, otherAssigned), "member-output");
            output.start();
            try (GroupMember survivor = GroupMember.start("survivor", broker.bootstrapServers(), "crash-g", TOPIC,
                    new ConsumedRecords(), Map.of())) {
                Awaitility.await().atMost(Duration.ofSeconds(60))
                        .until(() -> otherAssigned.get() == 3 && survivor.assignment().size() == 3);

                other.destroyForcibly();
                assertThat(other.waitFor(30, TimeUnit.SECONDS)).isTrue();
                long killed = System.nanoTime();

                Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> survivor.assignment().size() == 6);
                assertThat(Duration.ofNanos(System.nanoTime() - killed)).as("no sooner than the session timeout allows")
                        .isGreaterThan(Duration.ofMillis(SESSION_TIMEOUT_MS - 1000));
            } finally {
                other.destroyForcibly();
                output.join(10_000);
            }
        }
    }

    private static void follow(Process process, AtomicInteger assigned) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.startsWith("assigned ")) {
                    assigned.set(Integer.parseInt(line.substring("assigned ".length())));
                }
            }
        } catch (IOException e) {
            // the process is gone
        }
    }
}

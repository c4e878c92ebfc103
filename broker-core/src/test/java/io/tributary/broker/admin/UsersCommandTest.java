package io.tributary.broker.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.security.ScramUsers;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code bin/tributary users} against a real ZooKeeper server: what it stores is Kafka's salted format, never the password. */
@Timeout(60)
class UsersCommandTest {
    private EmbeddedZooKeeper zookeeper;
    private ZkClient zk;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void start(@TempDir Path dir) throws Exception {
        zookeeper = EmbeddedZooKeeper.start(dir, 0);
        zk = ZkClient.connect(zookeeper.connectString(), 10_000, 10_000);
    }

    @AfterEach
    void stop() {
        zk.close();
        zookeeper.close();
    }

    private int users(String... args) {
        CommandLine commandLine = UsersCommand.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        String[] withZooKeeper = java.util.Arrays.copyOf(args, args.length + 2);
        withZooKeeper[args.length] = "--zookeeper";
        withZooKeeper[args.length + 1] = zookeeper.connectString();
        return commandLine.execute(withZooKeeper);
    }

    @Test
    void addsListsAndDeletesUsersInKafkasFormat() throws Exception {
        assertThat(users("add", "alice", "--mechanism", "SCRAM-SHA-256", "--password", "alice-secret")).isZero();
        assertThat(users("add", "alice", "--mechanism", "SCRAM-SHA-512", "--password", "alice-secret", "--iterations", "8192")).isZero();
        assertThat(users("add", "broker", "--mechanism", "SCRAM-SHA-512", "--password", "broker-secret")).isZero();

        String stored = new String(zk.read(ScramUsers.userPath("alice")).orElseThrow().data(), StandardCharsets.UTF_8);
        assertThat(stored).startsWith("{\"version\":1,\"config\":{").contains("\"SCRAM-SHA-256\":\"salt=")
                .contains("iterations=8192").doesNotContain("alice-secret");
        Map<ScramMechanism, ScramCredential> alice = new ScramUsers(zk).all().get("alice");
        ScramCredential sha512 = alice.get(ScramMechanism.SCRAM_SHA_512);
        ScramFormatter formatter = new ScramFormatter(ScramMechanism.SCRAM_SHA_512);
        byte[] salted = formatter.saltedPassword("alice-secret", sha512.salt(), sha512.iterations());
        assertThat(formatter.storedKey(formatter.clientKey(salted))).isEqualTo(sha512.storedKey());

        out.getBuffer().setLength(0);
        assertThat(users("list")).isZero();
        assertThat(out.toString()).isEqualTo("alice\tSCRAM-SHA-256 iterations=4096\tSCRAM-SHA-512 iterations=8192\n"
                + "broker\tSCRAM-SHA-512 iterations=4096\n");

        assertThat(users("delete", "alice")).isZero();
        assertThat(zk.read(ScramUsers.userPath("alice"))).isEmpty();
        assertThat(users("delete", "alice")).isEqualTo(1);
        assertThat(err.toString()).contains("no user alice");
    }

    @Test
    void refusesWhatItCannotStoreSafely() {
        assertThat(users("add", "bob", "--mechanism", "SCRAM-SHA-1", "--password", "x")).isEqualTo(2);
        assertThat(users("add", "bob", "--mechanism", "SCRAM-SHA-256", "--password", "x", "--iterations", "100")).isEqualTo(2);
        assertThat(users("add", "bob", "--mechanism", "SCRAM-SHA-256")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown mechanism SCRAM-SHA-1").contains("iterations must be between 4096");
        assertThat(zk.read(ScramUsers.userPath("bob"))).isEmpty();
    }
}

package io.tributary.consumer.cli;

import io.tributary.testkit.tributary.SecuredBroker;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import static io.tributary.consumer.cli.CliRunner.assertOneLineError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/tributary --command-config FILE} against a broker with one SASL_SSL listener (SCRAM) and ACLs: alice,
 * allowed the topic and the group, creates, produces, lists and consumes; bob, allowed only to read the topic, is
 * refused writing it and joining the group, and a wrong password is refused: one line on stderr each, and exit 1.
 */
@Timeout(120)
class SecuredCliIT {
    @TempDir
    static Path dir;
    private static SecuredBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = SecuredBroker.start(dir.resolve("broker"), Map.of());
        broker.addUser("alice", "alice-secret");
        broker.addUser("bob", "bob-secret");
        broker.allow("alice", ResourceType.TOPIC, "orders", AclOperation.CREATE, AclOperation.WRITE, AclOperation.READ);
        broker.allow("alice", ResourceType.GROUP, "orders-cli", AclOperation.READ);
        broker.allow("bob", ResourceType.TOPIC, "orders", AclOperation.READ); // but no group, and no WRITE
        broker.writeClientConfig(dir.resolve("alice.properties"), "alice", "alice-secret");
        broker.writeClientConfig(dir.resolve("bob.properties"), "bob", "bob-secret");
        broker.writeClientConfig(dir.resolve("wrong.properties"), "alice", "not-her-password");
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private static CliRunner.Result run(String stdin, String user, String... args) {
        String[] withConfig = Arrays.copyOf(args, args.length + 2);
        withConfig[args.length] = "--command-config";
        withConfig[args.length + 1] = dir.resolve(user + ".properties").toString();
        return new CliRunner(broker.bootstrapServers()).runWithInput(stdin, withConfig);
    }

    @Test
    void anAllowedUserCreatesProducesListsAndConsumes() {
        CliRunner.Result created = run("", "alice", "topics", "create", "orders", "--partitions", "2");
        assertThat(created.exitCode()).as(created.toString()).isZero();

        CliRunner.Result produced = run("k1:one\nk2:two\nk3:three\n", "alice", "produce", "orders", "--key-separator", ":");
        assertThat(produced.exitCode()).as(produced.toString()).isZero();

        assertThat(run("", "alice", "topics", "list").out().lines()).containsExactly("orders");
        CliRunner.Result consumed = run("", "alice", "consume", "orders", "--group", "orders-cli", "--from-beginning",
                "--max-messages", "3", "--format", "{key}={value}");
        assertThat(consumed.exitCode()).as(consumed.toString()).isZero();
        assertThat(consumed.out().lines()).containsExactlyInAnyOrder("k1=one", "k2=two", "k3=three");

        assertOneLineError(run("k:v\n", "bob", "produce", "orders", "--acks", "1"), "not authorized to access topics: [orders]");
        // acks=all is idempotent: InitProducerId wants IDEMPOTENT_WRITE on the cluster or WRITE on some topic
        assertOneLineError(run("k:v\n", "bob", "produce", "orders"), "Cluster authorization failed");
        assertOneLineError(run("", "bob", "consume", "orders", "--group", "orders-cli", "--max-messages", "1"),
                "not authorized to access group: orders-cli");
    }

    @Test
    void aWrongPasswordIsOneLineAndExitOne() {
        assertOneLineError(run("", "wrong", "topics", "list"), "Authentication failed");
        assertOneLineError(run("k:v\n", "wrong", "produce", "orders", "--key-separator", ":"), "Authentication failed");
        assertOneLineError(run("", "wrong", "consume", "orders", "--from-beginning", "--max-messages", "1"),
                "Authentication failed");
    }

    @Test
    void aMissingCommandConfigFileIsOneLine() {
        assertOneLineError(run("", "nobody", "topics", "list"), "no --command-config file");
    }
}

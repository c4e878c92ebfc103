package io.tributary.consumer.cli;

import io.tributary.testkit.tributary.TributaryCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.tributary.consumer.cli.CliRunner.assertOneLineError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code tributary reassign} and {@code tributary elect} against three brokers, checked with the Admin client. */
@Timeout(180)
class ReplicaCommandsIT {
    @TempDir
    static Path dir;
    private static TributaryCluster cluster;
    private static Admin admin;

    @BeforeAll
    static void startCluster() throws Exception {
        // No automatic preferred elections: the test makes its own.
        cluster = TributaryCluster.start(dir, 3, Map.of("auto.leader.rebalance.enable", "false", "replica.lag.time.max.ms", "4000"));
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
    }

    @AfterAll
    static void stopCluster() {
        if (admin != null) {
            admin.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static CliRunner cli() {
        return new CliRunner(cluster.bootstrapServers());
    }

    private static TopicPartitionInfo partition(String topic, int partition) throws Exception {
        TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
        return description.partitions().get(partition);
    }

    private static List<Integer> ids(List<Node> nodes) {
        return nodes.stream().map(Node::id).toList();
    }

    @Test
    void reassignMovesReplicasThenAPreferredElectionMovesTheLeader() throws Exception {
        admin.createTopics(List.of(new NewTopic("moved", Map.of(0, List.of(0, 1))))).all().get();
        await().atMost(Duration.ofSeconds(60)).until(() -> partition("moved", 0).isr().size() == 2);
        CliRunner cli = cli();
        assertThat(cli.runWithInput("a\nb\nc\n", "produce", "moved").exitCode()).isZero();

        CliRunner.Result started = cli.run("reassign", "start", "moved:0=1,2", "--wait", "--timeout", "60");
        assertThat(started.exitCode()).as(started.toString()).isZero();
        assertThat(started.out()).contains("Started reassigning moved:0 to 1,2.", "Reassignment complete.");
        TopicPartitionInfo moved = partition("moved", 0);
        assertThat(ids(moved.replicas())).containsExactly(1, 2);
        assertThat(moved.leader().id()).as("the old leader left: the first new replica leads").isEqualTo(1);
        assertThat(cli.run("reassign", "list").out()).isEqualTo("No reassignment in progress." + System.lineSeparator());

        // Same replicas, the other order: broker 1 still leads, broker 2 is now preferred.
        assertThat(cli.run("reassign", "start", "moved:0=2,1", "--wait").exitCode()).isZero();
        await().atMost(Duration.ofSeconds(30)).until(() -> ids(partition("moved", 0).replicas()).equals(List.of(2, 1)));
        assertThat(partition("moved", 0).leader().id()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(30)).until(() -> partition("moved", 0).isr().size() == 2);

        CliRunner.Result elected = cli.run("elect", "--type", "preferred", "--partition", "moved:0");
        assertThat(elected.exitCode()).as(elected.toString()).isZero();
        assertThat(elected.out()).isEqualTo("Elected a new leader for moved:0." + System.lineSeparator());
        await().atMost(Duration.ofSeconds(30)).until(() -> partition("moved", 0).leader().id() == 2);

        CliRunner.Result again = cli.run("elect", "--type", "preferred", "--partition", "moved:0");
        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(again.out()).startsWith("No election needed for moved:0");
        CliRunner.Result unclean = cli.run("elect", "--type", "unclean", "--partition", "moved:0");
        assertThat(unclean.out()).as("it has a leader").startsWith("No election needed for moved:0");
    }

    @Test
    void aReassignmentInProgressIsListedAndCanBeCancelled() throws Exception {
        // Broker 2 is to join a partition it cannot catch up on: throttled to 1 byte/s, and with records to copy.
        admin.createTopics(List.of(new NewTopic("slow", Map.of(0, List.of(0, 1))).configs(Map.of(
                "leader.replication.throttled.replicas", "*", "follower.replication.throttled.replicas", "*")))).all().get();
        CliRunner cli = cli();
        assertThat(cli.runWithInput("a\nb\nc\n", "produce", "slow").exitCode()).isZero();
        setThrottle("1");
        try {
            assertThat(cli.run("reassign", "start", "slow:0=0,1,2").exitCode()).isZero();
            CliRunner.Result listed = cli.run("reassign", "list");
            assertThat(listed.out().lines().toList()).containsExactly("PARTITION  REPLICAS  ADDING  REMOVING", "slow:0     0,1,2     2");

            CliRunner.Result cancelled = cli.run("reassign", "cancel", "slow:0");
            assertThat(cancelled.exitCode()).as(cancelled.toString()).isZero();
            assertThat(cancelled.out()).contains("Cancelled the reassignment of slow:0.");
            await().atMost(Duration.ofSeconds(30)).until(() -> ids(partition("slow", 0).replicas()).equals(List.of(0, 1)));
            assertThat(cli.run("reassign", "list").out()).contains("No reassignment in progress.");
        } finally {
            setThrottle("");
        }
    }

    @Test
    void badPartitionsAreOneLineErrors() {
        CliRunner cli = cli();
        assertOneLineError(cli.run("reassign", "start", "nosuchtopic:0=0,1"), "Unknown partition nosuchtopic-0");
        assertOneLineError(cli.run("reassign", "start", "moved0=1,2"), "not TOPIC:PARTITION");
        assertOneLineError(cli.run("reassign", "start", "moved:0=1,1"), "broker 1 named twice");
        assertOneLineError(cli.run("elect", "--type", "sideways", "--partition", "moved:0"), "--type must be preferred or unclean");
        CliRunner.Result unknown = cli.run("elect", "--type", "preferred", "--partition", "nosuchtopic:0");
        assertThat(unknown.exitCode()).as(unknown.toString()).isEqualTo(1);
        assertThat(unknown.err()).startsWith("tributary: nosuchtopic:0: ");
    }

    /** Both replication throttles of every broker; empty removes them. */
    private static void setThrottle(String rate) throws Exception {
        Map<ConfigResource, Collection<AlterConfigOp>> ops = new HashMap<>();
        AlterConfigOp.OpType type = rate.isEmpty() ? AlterConfigOp.OpType.DELETE : AlterConfigOp.OpType.SET;
        for (int id = 0; id < 3; id++) {
            ops.put(new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(id)), List.of(
                    new AlterConfigOp(new ConfigEntry("leader.replication.throttled.rate", rate), type),
                    new AlterConfigOp(new ConfigEntry("follower.replication.throttled.rate", rate), type)));
        }
        admin.incrementalAlterConfigs(ops).all().get();
    }
}

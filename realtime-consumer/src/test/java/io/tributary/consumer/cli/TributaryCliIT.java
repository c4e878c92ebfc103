package io.tributary.consumer.cli;

import io.tributary.consumer.RealtimeConsumer;
import io.tributary.consumer.StartPosition;
import io.tributary.consumer.TestBroker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tributary.consumer.cli.CliRunner.assertOneLineError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Every subcommand end to end against a real broker (see {@link TestBroker} for which one). */
class TributaryCliIT {
    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    private static final AtomicInteger names = new AtomicInteger();

    private static String unique(String prefix) {
        return prefix + "-" + names.incrementAndGet();
    }

    private CliRunner cli() {
        return new CliRunner(broker.bootstrapServers());
    }

    private static void assertOk(CliRunner.Result result) {
        assertThat(result.exitCode()).as(result.toString()).isZero();
    }

    @Test
    void topicsCreateListDescribeAlterDelete() {
        String topic = unique("cli-topic");
        CliRunner cli = cli();

        CliRunner.Result created = cli.run("topics", "create", topic, "--partitions", "3",
                "--replication-factor", "1", "--config", "retention.ms=123456", "--config", "cleanup.policy=delete");
        assertOk(created);
        assertThat(created.out()).isEqualTo("Created topic " + topic + "." + System.lineSeparator());

        assertThat(cli.run("topics", "list").out().lines()).contains(topic);

        CliRunner.Result described = cli.run("topics", "describe", topic);
        assertOk(described);
        assertThat(described.out().lines().toList()).hasSize(4);
        assertThat(described.out()).contains("Topic: " + topic + "\tTopicId: ")
                .contains("PartitionCount: 3\tReplicationFactor: 1\tConfigs: cleanup.policy=delete,retention.ms=123456")
                .contains("\tTopic: " + topic + "\tPartition: 2\tLeader: ");

        CliRunner.Result altered = cli.run("topics", "alter", topic, "--config", "retention.ms=999000");
        assertOk(altered);
        assertThat(altered.out()).contains("Updated topic " + topic + ": retention.ms=999000.");
        assertThat(cli.run("topics", "describe", topic).out()).contains("retention.ms=999000");

        CliRunner.Result deleted = cli.run("topics", "delete", topic);
        assertOk(deleted);
        assertThat(deleted.out()).contains("Deleted topic " + topic + ".");
        await().atMost(Duration.ofSeconds(30)).until(() -> !cli.run("topics", "list").out().lines().toList().contains(topic));
    }

    @Test
    void topicErrorsAreOneLine() throws Exception {
        String topic = unique("cli-dup");
        broker.createTopic(topic, 1);
        CliRunner cli = cli();

        assertOneLineError(cli.run("topics", "create", topic, "--partitions", "1"), "already exists");
        assertOneLineError(cli.run("topics", "describe", "no-such-topic"), "unknown topic: no-such-topic");
        assertOneLineError(cli.run("topics", "delete", "no-such-topic"), "unknown topic: no-such-topic");
        assertOneLineError(cli.run("topics", "alter", "no-such-topic", "--config", "retention.ms=1"),
                "unknown topic: no-such-topic");
        assertOneLineError(cli.run("topics", "create", unique("cli-bad"), "--partitions", "0"),
                "--partitions must be at least 1");
        assertOneLineError(cli.run("topics", "alter", topic, "--config", "retention.ms=soon"), "retention.ms");
    }

    @Test
    void producedLinesComeBackInTheConsumeFormat() throws Exception {
        String topic = unique("cli-roundtrip");
        broker.createTopic(topic, 1);
        CliRunner cli = cli();

        CliRunner.Result produced = cli.runWithInput("k1:v1\nk2:v2:with:colons\n", "produce", topic,
                "--key-separator", ":", "--header", "source=cli", "--header", "n=1", "--acks", "1",
                "--compression", "lz4", "--rate", "1000");
        assertOk(produced);

        CliRunner.Result consumed = cli.run("consume", topic, "--from-beginning", "--max-messages", "2",
                "--format", "{key}={value}\\t{topic}/{partition}@{offset} [{headers}]");
        assertOk(consumed);
        assertThat(consumed.out().lines()).containsExactly(
                "k1=v1\t" + topic + "/0@0 [source=cli,n=1]",
                "k2=v2:with:colons\t" + topic + "/0@1 [source=cli,n=1]");
        assertThat(consumed.err()).isEqualTo("Processed a total of 2 messages" + System.lineSeparator());
    }

    @Test
    void aLineWithoutTheKeySeparatorStopsProduceAfterSendingTheLinesBefore() throws Exception {
        String topic = unique("cli-badline");
        broker.createTopic(topic, 1);
        CliRunner cli = cli();

        CliRunner.Result produced = cli.runWithInput("a=1\nb=2\nno separator\nc=3\n", "produce", topic,
                "--key-separator", "=");
        assertOneLineError(produced, "line 3 has no key separator '='; the 2 line(s) before it were sent");

        assertThat(broker.readFromBeginning(topic, 2)).extracting(r -> r.key() + "=" + r.value())
                .containsExactly("a=1", "b=2");
        assertThat(broker.endOffsets(topic, 1)).isEqualTo(Map.of(0, 2L));
    }

    @Test
    void produceAndConsumeRejectAnUnknownTopic() {
        CliRunner cli = cli();

        assertOneLineError(cli.runWithInput("x\n", "produce", "no-such-topic"), "unknown topic: no-such-topic");
        assertOneLineError(cli.run("consume", "no-such-topic", "--max-messages", "1"), "unknown topic: no-such-topic");
    }

    @Test
    void consumeWithAGroupResumesWhereItStoppedAndGroupsDescribeShowsTheLag() throws Exception {
        String topic = unique("cli-group");
        String group = unique("cli-g");
        broker.createTopic(topic, 1);
        broker.produceNumbered(topic, 1, 0, 5);
        CliRunner cli = cli();

        CliRunner.Result first = cli.run("consume", topic, "--group", group, "--from-beginning", "--max-messages", "3");
        assertOk(first);
        assertThat(first.out().lines()).containsExactly("0-0", "0-1", "0-2");

        CliRunner.Result described = cli.run("groups", "describe", group);
        assertOk(described);
        assertThat(described.out().lines().toList()).hasSize(2);
        assertThat(described.out().lines().findFirst().orElseThrow().split("\\s+")).containsExactly(
                "GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST", "CLIENT-ID");
        assertThat(described.out().lines().skip(1).findFirst().orElseThrow().split("\\s+"))
                .containsExactly(group, topic, "0", "3", "5", "2", "-", "-", "-");

        assertThat(cli.run("groups", "list").out().lines()).contains(group);

        CliRunner.Result second = cli.run("consume", topic, "--group", group, "--max-messages", "2");
        assertOk(second);
        assertThat(second.out().lines()).containsExactly("0-3", "0-4");
        assertThat(broker.committed(group, topic)).isEqualTo(Map.of(0, 5L));
    }

    @Test
    void consumeFromADatetimeStartsAtTheFirstRecordAtOrAfterIt() throws Exception {
        String topic = unique("cli-datetime");
        broker.createTopic(topic, 1);
        Instant base = broker.produceOneASecond(topic, 10);

        CliRunner.Result consumed = cli().run("consume", topic, "--from-datetime", base.plusSeconds(7).toString(),
                "--max-messages", "3", "--format", "{value}@{timestamp}");

        assertOk(consumed);
        assertThat(consumed.out().lines()).containsExactly(
                "v7@" + base.plusSeconds(7).toEpochMilli(),
                "v8@" + base.plusSeconds(8).toEpochMilli(),
                "v9@" + base.plusSeconds(9).toEpochMilli());
    }

    @Test
    void consumeDrawsAStatusLineWhenStderrIsATerminal() throws Exception {
        String topic = unique("cli-status");
        broker.createTopic(topic, 1);
        broker.produceNumbered(topic, 1, 0, 4);
        // Every clock reading is a second later, so the status line redraws on every poll.
        CliRunner terminal = new CliRunner(broker.bootstrapServers(), true, new FakeTime(1_000_000_000L),
                Map.of("default.api.timeout.ms", 10_000));

        CliRunner.Result consumed = terminal.run("consume", topic, "--from-beginning", "--max-messages", "4");

        assertOk(consumed);
        assertThat(consumed.out().lines()).hasSize(4);
        assertThat(consumed.err()).contains("\r\u001b[K4 records  ").contains("records/s  lag 0")
                .endsWith("\r\u001b[KProcessed a total of 4 messages" + System.lineSeparator());
    }

    @Test
    void groupsResetIsADryRunUnlessExecuted() throws Exception {
        String topic = unique("cli-reset");
        String group = unique("cli-g");
        broker.createTopic(topic, 2);
        broker.produceNumbered(topic, 2, 0, 10);
        CliRunner cli = cli();
        assertOk(cli.run("consume", topic, "--group", group, "--from-beginning", "--max-messages", "20"));
        assertThat(broker.committed(group, topic)).isEqualTo(Map.of(0, 10L, 1, 10L));

        CliRunner.Result dryRun = cli.run("groups", "reset", group, "--topic", topic, "--to-earliest");
        assertOk(dryRun);
        assertThat(dryRun.out().lines().skip(1).map(line -> List.of(line.split("\\s+"))))
                .startsWith(List.of(group, topic, "0", "10", "0"), List.of(group, topic, "1", "10", "0"));
        assertThat(dryRun.out()).contains("Dry run: nothing changed");
        assertThat(broker.committed(group, topic)).isEqualTo(Map.of(0, 10L, 1, 10L));

        assertOk(cli.run("groups", "reset", group, "--topic", topic, "--shift-by", "-3", "--execute"));
        assertThat(broker.committed(group, topic)).isEqualTo(Map.of(0, 7L, 1, 7L));

        assertOk(cli.run("groups", "reset", group, "--topic", topic, "--shift-by", "-100", "--execute"));
        assertThat(broker.committed(group, topic)).isEqualTo(Map.of(0, 0L, 1, 0L));

        assertOk(cli.run("groups", "reset", group, "--topic", topic, "--to-latest", "--execute"));
        assertThat(broker.committed(group, topic)).isEqualTo(Map.of(0, 10L, 1, 10L));

        assertOk(cli.run("groups", "reset", group, "--topic", topic,
                "--to-datetime", Instant.now().plus(Duration.ofDays(1)).toString(), "--execute"));
        assertThat(broker.committed(group, topic)).isEqualTo(Map.of(0, 10L, 1, 10L));

        assertOk(cli.run("groups", "reset", group, "--topic", topic,
                "--to-datetime", "2000-01-01", "--execute"));
        assertThat(broker.committed(group, topic)).isEqualTo(Map.of(0, 0L, 1, 0L));
    }

    @Test
    void groupsErrorsAreOneLine() throws Exception {
        String topic = unique("cli-active");
        String group = unique("cli-g");
        broker.createTopic(topic, 1);
        CliRunner cli = cli();

        assertOneLineError(cli.run("groups", "describe", "no-such-group"), "does not exist");
        assertOneLineError(cli.run("groups", "reset", group, "--topic", "no-such-topic", "--to-earliest"),
                "unknown topic");
        assertOneLineError(cli.run("groups", "reset", unique("cli-fresh"), "--topic", topic, "--shift-by", "1"),
                "has no committed offset to shift from");

        try (RealtimeConsumer member = RealtimeConsumer.builder().bootstrapServers(broker.bootstrapServers())
                .groupId(group).topics(topic).startPosition(StartPosition.earliest())
                .recordHandler(record -> { }).start()) {
            await().atMost(Duration.ofSeconds(30)).until(() -> broker.members(group) == 1 && broker.isStable(group));
            assertOneLineError(cli.run("groups", "reset", group, "--topic", topic, "--to-earliest", "--execute"),
                    "has 1 active member(s)");
            CliRunner.Result described = cli.run("groups", "describe", group);
            assertOk(described);
            assertThat(described.out()).contains(group + "  " + topic).contains("/127.0.0.1");
            assertThat(member.isRunning()).isTrue();
        }
    }
}

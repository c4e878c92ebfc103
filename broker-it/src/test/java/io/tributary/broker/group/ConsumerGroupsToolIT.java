package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.tools.consumer.group.ConsumerGroupCommand;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's own {@code kafka-consumer-groups} (ConsumerGroupCommand, kafka-tools 4.4) lists and describes a
 * consumer (KIP-848) group and a classic group side by side: types, states, assignor, members, offsets and lag; and
 * deletes them, refused while they have members.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsumerGroupsToolIT {
    private static final String TOPIC = "described";

    @TempDir
    Path dir;

    /** What the tool's exit call becomes: an exception, so the test goes on. */
    private static final class ToolExit extends RuntimeException {
        final int code;

        ToolExit(int code, String message) {
            super("exit " + code + ": " + message);
            this.code = code;
        }
    }

    private static String tool(TestBroker broker, String... command) {
        String[] args = new String[command.length + 2];
        args[0] = "--bootstrap-server";
        args[1] = broker.bootstrapServers();
        System.arraycopy(command, 0, args, 2, command.length);
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        Exit.setExitProcedure((code, message) -> {
            throw new ToolExit(code, message);
        });
        try {
            ConsumerGroupCommand.main(args);
        } catch (ToolExit exit) {
            assertThat(exit.code).as("kafka-consumer-groups " + String.join(" ", command) + " exit code; output: " + captured).isZero();
        } finally {
            Exit.resetExitProcedure();
            System.setOut(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    /** The output's lines that start with {@code first}, split into columns. */
    private static List<List<String>> rows(String output, String first) {
        return output.lines().map(String::trim).filter(line -> line.startsWith(first + " "))
                .map(line -> List.of(line.split("\\s+"))).toList();
    }

    @Test
    void listsAndDescribesAConsumerGroupAndAClassicGroup() throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of(BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "3",
                BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "100", BrokerConfig.GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS, "500"))) {
            try (Admin admin = Clients.admin(broker.bootstrapServers())) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1))).all().get();
            }
            try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers())) {
                for (int i = 0; i < 30; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, i % 3, null, new byte[]{(byte) i}));
                }
            }
            ConsumedRecords modernRecords = new ConsumedRecords();
            ConsumedRecords classicRecords = new ConsumedRecords();
            try (GroupMember modern = GroupMember.start("modern-client", broker.bootstrapServers(), "modern", TOPIC, modernRecords,
                    Map.of(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer"));
                 GroupMember classic = GroupMember.start("classic-client", broker.bootstrapServers(), "classic", TOPIC, classicRecords,
                         Map.of())) {
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> modernRecords.count() == 30 && classicRecords.count() == 30
                        && modern.assignment().size() == 3 && classic.assignment().size() == 3);

                Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                    for (String group : List.of("modern", "classic")) {
                        List<List<String>> partitions = rows(tool(broker, "--describe", "--group", group), group);
                        assertThat(partitions).as(group).hasSize(3).allSatisfy(row -> {
                            assertThat(row.get(1)).isEqualTo(TOPIC);
                            assertThat(row.subList(3, 6)).as("current offset, log end offset, lag").containsExactly("10", "10", "0");
                            assertThat(row.get(row.size() - 1)).isEqualTo(group + "-client");
                        });
                    }
                });
                List<String> modernState = rows(tool(broker, "--describe", "--group", "modern", "--state"), "modern").get(0);
                assertThat(modernState).contains("uniform", "Stable");
                List<String> classicState = rows(tool(broker, "--describe", "--group", "classic", "--state"), "classic").get(0);
                assertThat(classicState).contains("range", "Stable");
                List<String> members = rows(tool(broker, "--describe", "--group", "modern", "--members"), "modern").get(0);
                assertThat(members).contains("modern-client", "3");

                String listed = tool(broker, "--list", "--type");
                assertThat(rows(listed, "modern").get(0)).contains("Consumer");
                assertThat(rows(listed, "classic").get(0)).contains("Classic");

                assertThat(tool(broker, "--delete", "--group", "classic")).as("as against Kafka")
                        .contains("* Group 'classic' could not be deleted due to: ", "GroupNotEmptyException");
            }
            Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                for (String group : List.of("modern", "classic")) {
                    assertThat(rows(tool(broker, "--describe", "--group", group, "--state"), group).get(0)).as(group).contains("Empty");
                }
            });
            assertThat(tool(broker, "--delete", "--group", "modern", "--group", "classic"))
                    .contains("Deletion of requested consumer groups (", "'modern'", "'classic'", ") was successful.");
            assertThat(tool(broker, "--list")).doesNotContain("modern", "classic");
        }
    }
}

package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.ExternalCommand;
import io.tributary.broker.testing.ExternalCommand.Result;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Consumer groups of the C and JavaScript clients: kcat -G (librdkafka), several kafkajs members in one
 * group, and a librdkafka member sharing a group with a Java member under the range assignor.
 */
class ClientGroupsIT {
    private static final Path CLIENTS = Path.of("..", "clients", "js").toAbsolutePath().normalize();
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private static TestBroker broker;
    private static Path workDir;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        workDir = dir;
        broker = TestBroker.start(dir, Map.of(
                BrokerConfig.GROUP_MIN_SESSION_TIMEOUT_MS, "1000",
                BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "300",
                BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "5"));
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void kcatBalancedConsumerReadsEverythingAndCommits() throws Exception {
        String topic = createTopic("kcat-group", 3);
        Map<TopicPartition, Long> end = ConsumerGroupIT.produceTo(broker.bootstrapServers(), topic, 3, 0, 300);

        Result result = ExternalCommand.run(List.of("kcat", "-b", broker.bootstrapServers(), "-G", "kcat-g", topic,
                "-X", "auto.offset.reset=earliest", "-f", "%p %o\\n", "-c", "300", "-q"), workDir, "", 90);

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout().lines().toList()).hasSize(300).doesNotHaveDuplicates();
        awaitCommitted("kcat-g", end);
    }

    @Test
    void kafkajsMembersShareAGroupAndReadEachRecordOnce() throws Exception {
        String topic = createTopic("kafkajs-group", 4);
        Map<TopicPartition, Long> end = ConsumerGroupIT.produceTo(broker.bootstrapServers(), topic, 4, 0, 800);

        Result result = ExternalCommand.run(List.of("node", "kafkajs-group.mjs", broker.bootstrapServers(), topic,
                "kafkajs-g", "800", "2"), CLIENTS, "", 120);

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        JsonNode summary = new ObjectMapper().readTree(result.stdout());
        List<String> read = new ArrayList<>();
        summary.path("records").forEach(r -> read.add(r.path("partition").asInt() + "@" + r.path("offset").asLong()));
        assertThat(read).hasSize(800).doesNotHaveDuplicates();
        assertThat(summary.path("assignments").size()).isEqualTo(2);
        awaitCommitted("kafkajs-g", end);
    }

    @Test
    void aLibrdkafkaMemberAndAJavaMemberSplitTheTopicWithTheRangeAssignor() throws Exception {
        String topic = createTopic("mixed-group", 6);
        String group = "mixed-g";
        Map<TopicPartition, Long> end = ConsumerGroupIT.produceTo(broker.bootstrapServers(), topic, 6, 0, 600);
        ConsumedRecords consumed = new ConsumedRecords();
        Process kcat = new ProcessBuilder("kcat", "-b", broker.bootstrapServers(), "-G", group, topic,
                "-X", "auto.offset.reset=earliest", "-X", "partition.assignment.strategy=range",
                "-X", "auto.commit.interval.ms=100", "-f", "%p %o\\n", "-q", "-u")
                .redirectErrorStream(false).start();
        Thread kcatOutput = new Thread(() -> readPartitionOffsets(kcat, consumed), "kcat-output");
        kcatOutput.start();
        try (GroupMember java = GroupMember.start("java", broker.bootstrapServers(), group, topic, consumed,
                Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RangeAssignor.class.getName()))) {
            Awaitility.await().atMost(DEADLINE).until(() -> consumed.count() >= 600 && java.assignment().size() == 3);
            try (Admin admin = Clients.admin(broker.bootstrapServers())) {
                ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
                assertThat(description.partitionAssignor()).isEqualTo("range");
                assertThat(description.members()).hasSize(2)
                        .allSatisfy(m -> assertThat(m.assignment().topicPartitions()).hasSize(3));
                assertThat(description.members()).extracting(MemberDescription::clientId).contains("java", "rdkafka");
            }
            consumed.assertExactlyOnceInOrder(end);
        } finally {
            kcat.destroy();
            kcat.waitFor(30, TimeUnit.SECONDS);
            kcatOutput.join(10_000);
        }
    }

    private static void readPartitionOffsets(Process process, ConsumedRecords consumed) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                String[] fields = line.trim().split(" ");
                consumed.add("kcat", new TopicPartition("mixed-group", Integer.parseInt(fields[0])), Long.parseLong(fields[1]));
            }
        } catch (IOException e) {
            // kcat stopped
        }
    }

    private static void awaitCommitted(String group, Map<TopicPartition, Long> end) {
        try (Admin admin = Clients.admin(broker.bootstrapServers())) {
            Awaitility.await().atMost(DEADLINE).untilAsserted(() -> {
                Map<TopicPartition, OffsetAndMetadata> committed =
                        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
                assertThat(committed.keySet()).containsExactlyInAnyOrderElementsOf(end.keySet());
                end.forEach((partition, offset) -> assertThat(committed.get(partition).offset()).isEqualTo(offset));
            });
        }
    }

    private static String createTopic(String name, int partitions) throws Exception {
        try (Admin admin = Clients.admin(broker.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get();
        }
        return name;
    }
}

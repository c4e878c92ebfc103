package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Java consumers with {@code group.protocol=consumer} (KIP-848) against one broker: they share a topic
 * through the server-side assignor, rebalance when members come and go (a member that closes
 * without leaving loses its partitions once its session times out), commit with their member
 * epochs, and a static member that comes back keeps its partitions.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConsumerProtocolIT {
    private static final int PARTITIONS = 6;
    private static final int SESSION_TIMEOUT_MS = 4000;
    private static final Map<String, Object> CONSUMER_PROTOCOL = Map.of(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
    private static TestBroker broker;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir, Map.of(
                BrokerConfig.GROUP_CONSUMER_SESSION_TIMEOUT_MS, Integer.toString(SESSION_TIMEOUT_MS),
                BrokerConfig.GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS, "300",
                BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "5"));
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private static void createTopic(String topic) throws Exception {
        try (Admin admin = Clients.admin(broker.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get();
        }
    }

    /** Sends {@code perPartition} records to each partition. */
    private static void produce(String topic, int perPartition) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers())) {
            for (int i = 0; i < perPartition; i++) {
                for (int partition = 0; partition < PARTITIONS; partition++) {
                    producer.send(new ProducerRecord<>(topic, partition, null, ("r" + i).getBytes()));
                }
            }
            producer.flush();
        }
    }

    private static Map<TopicPartition, Long> ends(String topic, long end) {
        Map<TopicPartition, Long> ends = new HashMap<>();
        for (int partition = 0; partition < PARTITIONS; partition++) {
            ends.put(new TopicPartition(topic, partition), end);
        }
        return ends;
    }

    private static GroupMember member(String name, String group, String topic, ConsumedRecords consumed, Map<String, Object> extra) {
        Map<String, Object> overrides = new HashMap<>(CONSUMER_PROTOCOL);
        overrides.putAll(extra);
        return GroupMember.start(name, broker.bootstrapServers(), group, topic, consumed, overrides);
    }

    private static void awaitSizes(List<GroupMember> members, int size) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            for (GroupMember member : members) {
                assertThat(member.failure()).isNull();
                assertThat(member.assignment()).as(member.name()).hasSize(size);
            }
        });
    }

    @Test
    void membersShareTheTopicRebalanceOnJoinAndTakeOverFromAKilledMember() throws Exception {
        String topic = "shared";
        createTopic(topic);
        produce(topic, 50);
        ConsumedRecords consumed = new ConsumedRecords();
        try (GroupMember a = member("a", "g-shared", topic, consumed, Map.of());
             GroupMember b = member("b", "g-shared", topic, consumed, Map.of())) {
            awaitSizes(List.of(a, b), 3);
            Process c = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-cp", System.getProperty("java.class.path"), GroupMemberMain.class.getName(),
                    broker.bootstrapServers(), "g-shared", topic, "consumer")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            AtomicInteger assignedToC = new AtomicInteger(-1);
            Thread output = new Thread(() -> follow(c, topic, consumed, assignedToC), "member-c-output");
            output.start();
            try {
                // c is another JVM: on a loaded machine it takes a while to start and join
                Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> a.assignment().size() == 2 && b.assignment().size() == 2);
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> assignedToC.get() == 2);
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> consumed.count() == PARTITIONS * 50);
                try (Admin admin = Clients.admin(broker.bootstrapServers())) {
                    ConsumerGroupDescription group = admin.describeConsumerGroups(List.of("g-shared")).all().get().get("g-shared");
                    assertThat(group.type()).isEqualTo(GroupType.CONSUMER);
                    assertThat(group.groupState()).isEqualTo(GroupState.STABLE);
                    assertThat(group.members()).hasSize(3);
                    assertThat(group.partitionAssignor()).isEqualTo("uniform");
                    GroupListing listing = admin.listGroups().all().get().stream()
                            .filter(g -> g.groupId().equals("g-shared")).findFirst().orElseThrow();
                    assertThat(listing.type()).contains(GroupType.CONSUMER);
                }

                c.destroyForcibly();
                assertThat(c.waitFor(30, TimeUnit.SECONDS)).isTrue();
                long killed = System.nanoTime();
                produce(topic, 50);
                awaitSizes(List.of(a, b), 3);
                assertThat(Duration.ofNanos(System.nanoTime() - killed)).as("its partitions moved when its session ended")
                        .isGreaterThan(Duration.ofMillis(SESSION_TIMEOUT_MS - 1000));
                assertThat(a.assignment()).doesNotContainAnyElementsOf(b.assignment());
                Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(
                        () -> consumed.assertNothingLostRepeatedOnlyAfter("c", ends(topic, 100)));
            } finally {
                c.destroyForcibly();
                output.join(10_000);
            }
        }
    }

    /** Records what the member in the other JVM consumed and how many partitions it has. */
    private static void follow(Process process, String topic, ConsumedRecords consumed, AtomicInteger assigned) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                String[] words = line.split(" ");
                if (words[0].equals("assigned")) {
                    assigned.set(Integer.parseInt(words[1]));
                } else if (words[0].equals("consumed")) {
                    consumed.add("c", new TopicPartition(topic, Integer.parseInt(words[1])), Long.parseLong(words[2]));
                }
            }
        } catch (IOException e) {
            // the process is gone
        }
    }

    @Test
    void aStaticMemberThatComesBackKeepsItsPartitionsWithoutARebalance() throws Exception {
        String topic = "static";
        createTopic(topic);
        ConsumedRecords consumed = new ConsumedRecords();
        try (GroupMember a = member("a", "g-static", topic, consumed, Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "instance-a"))) {
            GroupMember b = member("b", "g-static", topic, consumed, Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "instance-b"));
            awaitSizes(List.of(a, b), 3);
            Set<TopicPartition> ofB = b.assignment();
            int rebalancesOfA = a.rebalances();
            b.close();
            try (GroupMember again = member("b2", "g-static", topic, consumed, Map.of(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "instance-b"))) {
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> again.assignment().equals(ofB));
                assertThat(a.assignment()).hasSize(3);
                assertThat(a.rebalances()).as("the other member saw no rebalance").isEqualTo(rebalancesOfA);
            }
        }
    }
}

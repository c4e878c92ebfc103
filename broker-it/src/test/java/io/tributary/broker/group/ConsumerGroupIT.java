package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kafka-clients consumers in groups against one broker: a group shares a 6-partition topic so that
 * each record is processed exactly once and each partition in order, through members joining,
 * leaving and getting stuck, with each of the three built-in assignors; two groups read the same
 * topic independently.
 */
class ConsumerGroupIT {
    private static final int PARTITIONS = 6;
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private static TestBroker broker;
    private final List<GroupMember> members = new ArrayList<>();

    @BeforeAll
    static void startBroker(@TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir, Map.of(
                BrokerConfig.GROUP_MIN_SESSION_TIMEOUT_MS, "1000",
                BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "300",
                BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "5"));
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @AfterEach
    void closeMembers() throws InterruptedException {
        for (GroupMember member : members) {
            member.close();
        }
    }

    @Test
    void threeMembersShareSixPartitionsAndProcessEveryRecordOnceInOrder() throws Exception {
        String topic = createTopic("three-members");
        Map<TopicPartition, Long> end = produce(topic, 0, 3000);
        ConsumedRecords consumed = new ConsumedRecords();
        for (int i = 0; i < 3; i++) {
            members.add(GroupMember.start("m" + i, broker.bootstrapServers(), "g-three", topic, consumed, Map.of()));
        }

        Awaitility.await().atMost(DEADLINE).until(() -> consumed.count() >= 3000);
        Awaitility.await().atMost(DEADLINE).until(() -> members.stream().allMatch(m -> m.assignment().size() == 2));

        consumed.assertExactlyOnceInOrder(end);
        assertDisjointAndComplete(topic);
        assertThat(members).allSatisfy(m -> assertThat(m.failure()).isNull());
    }

    @ParameterizedTest
    @ValueSource(classes = {RangeAssignor.class, RoundRobinAssignor.class, CooperativeStickyAssignor.class})
    void membersJoiningAndLeavingNeitherLoseNorDuplicate(Class<?> assignor) throws Exception {
        String topic = createTopic("churn-" + assignor.getSimpleName());
        String group = "g-churn-" + assignor.getSimpleName();
        Map<String, Object> settings = Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, assignor.getName());
        ConsumedRecords consumed = new ConsumedRecords();
        produce(topic, 0, 3000);
        for (int i = 0; i < 3; i++) {
            members.add(GroupMember.start("m" + i, broker.bootstrapServers(), group, topic, consumed, settings));
        }
        Awaitility.await().atMost(DEADLINE).until(() -> healthy() && consumed.count() >= 1000);

        members.add(GroupMember.start("m3", broker.bootstrapServers(), group, topic, consumed, settings));
        Awaitility.await().atMost(DEADLINE).until(() -> !members.get(3).assignment().isEmpty());
        GroupMember leaving = members.remove(0);
        leaving.close();
        Map<TopicPartition, Long> end = produce(topic, 3000, 3000);

        Awaitility.await().atMost(DEADLINE).until(() -> healthy() && consumed.count() >= 6000);
        Awaitility.await().atMost(DEADLINE).until(() -> members.stream().mapToInt(m -> m.assignment().size()).sum() == PARTITIONS);
        consumed.assertExactlyOnceInOrder(end);
        assertDisjointAndComplete(topic);
        assertThat(members).allSatisfy(m -> assertThat(m.failure()).isNull());
    }

    @Test
    void partitionsOfAMemberThatStopsPollingMoveToTheOthers() throws Exception {
        String topic = createTopic("stuck-member");
        ConsumedRecords consumed = new ConsumedRecords();
        Map<String, Object> settings = Map.of(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 3000);
        produce(topic, 0, 600);
        for (int i = 0; i < 2; i++) {
            members.add(GroupMember.start("m" + i, broker.bootstrapServers(), "g-stuck", topic, consumed, settings));
        }
        Awaitility.await().atMost(DEADLINE).until(() -> members.stream().allMatch(m -> m.assignment().size() == 3));
        Awaitility.await().atMost(DEADLINE).until(() -> consumed.count() >= 600);

        members.get(0).stopPolling();
        Map<TopicPartition, Long> end = produce(topic, 600, 600);

        Awaitility.await().atMost(DEADLINE).until(() -> members.get(1).assignment().size() == PARTITIONS);
        Awaitility.await().atMost(DEADLINE).until(() -> consumed.count() >= 1200);
        consumed.assertExactlyOnceInOrder(end);
    }

    @Test
    void twoGroupsEachReadTheWholeTopic() throws Exception {
        String topic = createTopic("two-groups");
        Map<TopicPartition, Long> end = produce(topic, 0, 1200);
        ConsumedRecords first = new ConsumedRecords();
        ConsumedRecords second = new ConsumedRecords();
        members.add(GroupMember.start("a0", broker.bootstrapServers(), "g-first", topic, first, Map.of()));
        members.add(GroupMember.start("a1", broker.bootstrapServers(), "g-first", topic, first, Map.of()));
        members.add(GroupMember.start("b0", broker.bootstrapServers(), "g-second", topic, second, Map.of()));

        Awaitility.await().atMost(DEADLINE).until(() -> first.count() >= 1200 && second.count() >= 1200);
        first.assertExactlyOnceInOrder(end);
        second.assertExactlyOnceInOrder(end);
        try (Admin admin = Clients.admin(broker.bootstrapServers())) {
            assertThat(admin.listConsumerGroupOffsets("g-first").partitionsToOffsetAndMetadata().get())
                    .allSatisfy((partition, offset) -> assertThat(offset.offset()).isEqualTo(end.get(partition)));
            assertThat(admin.listConsumerGroupOffsets("g-second").partitionsToOffsetAndMetadata().get())
                    .allSatisfy((partition, offset) -> assertThat(offset.offset()).isEqualTo(end.get(partition)));
        }
    }

    @Test
    void adminListsGroupsAndDeletesOffsetsAndGroups() throws Exception {
        String topic = createTopic("admin-groups");
        String group = "g-admin";
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (int partition = 0; partition < PARTITIONS; partition++) {
            offsets.put(new TopicPartition(topic, partition), new OffsetAndMetadata(partition));
        }
        try (KafkaConsumer<byte[], byte[]> committer = Clients.consumer(broker.bootstrapServers(),
                Map.of(ConsumerConfig.GROUP_ID_CONFIG, group))) {
            committer.assign(offsets.keySet());
            committer.commitSync(offsets);
        }
        try (Admin admin = Clients.admin(broker.bootstrapServers())) {
            assertThat(admin.listConsumerGroups().all().get()).extracting(ConsumerGroupListing::groupId).contains(group);

            TopicPartition first = new TopicPartition(topic, 0);
            admin.deleteConsumerGroupOffsets(group, Set.of(first)).all().get();
            assertThat(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get())
                    .hasSize(PARTITIONS - 1).doesNotContainKey(first);

            admin.deleteConsumerGroups(List.of(group)).all().get();
            assertThat(admin.listConsumerGroups().all().get()).extracting(ConsumerGroupListing::groupId).doesNotContain(group);
            assertThat(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get()).isEmpty();
        }
    }

    /** Fails at once, with the cause, if a member's poll loop died. */
    private boolean healthy() {
        for (GroupMember member : members) {
            if (member.failure() != null) {
                throw new AssertionError("member " + member.name() + " failed", member.failure());
            }
        }
        return true;
    }

    private void assertDisjointAndComplete(String topic) {
        Set<TopicPartition> seen = new HashSet<>();
        for (GroupMember member : members) {
            for (TopicPartition partition : member.assignment()) {
                assertThat(seen.add(partition)).as("%s assigned twice", partition).isTrue();
            }
        }
        assertThat(seen).hasSize(PARTITIONS).allMatch(p -> p.topic().equals(topic));
    }

    private static String createTopic(String name) throws Exception {
        try (Admin admin = Clients.admin(broker.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(name, PARTITIONS, (short) 1))).all().get();
        }
        return name;
    }

    private static Map<TopicPartition, Long> produce(String topic, int first, int count) throws Exception {
        return produceTo(broker.bootstrapServers(), topic, PARTITIONS, first, count);
    }

    /** Produces {@code count} keyed records spread over {@code partitions} partitions; returns their end offsets. */
    static Map<TopicPartition, Long> produceTo(String bootstrap, String topic, int partitions, int first, int count)
            throws Exception {
        Map<TopicPartition, Long> end = new HashMap<>();
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(bootstrap)) {
            for (int i = first; i < first + count; i++) {
                int partition = i % partitions;
                producer.send(new ProducerRecord<>(topic, partition, bytes("key-" + i), bytes("value-" + i)),
                        (metadata, e) -> {
                            if (metadata != null) {
                                synchronized (end) {
                                    end.merge(new TopicPartition(topic, metadata.partition()), metadata.offset() + 1, Math::max);
                                }
                            }
                        });
            }
            producer.flush();
        }
        assertThat(end).hasSize(partitions);
        return end;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers (separate JVMs) and a consumer (KIP-848) group in the middle of an online migration: a classic group
 * was upgraded by a consumer-protocol member, and one classic member is still in it. When the coordinator is
 * SIGKILLed, the new leader of the group's offsets partition rebuilds the mixed group from its records in
 * {@code __consumer_offsets} — same group epoch, same members (the classic one still classic) and assignment — and
 * both members go on consuming from their committed offsets, each through its own protocol. Then the
 * consumer-protocol member leaves, the group turns classic, and its coordinator is SIGKILLed too: the next one loads the
 * classic group from its record, and its member heartbeats and consumes on in its generation, without rejoining.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ConsumerGroupFailoverIT {
    private static final String GROUP = "failover-group";
    private static final String TOPIC = "failover";
    private static final int PARTITIONS = 4;
    private static final int OFFSETS_PARTITIONS = 3;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private static void produce(TestCluster cluster, int perPartition, int from) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers(), Map.of(ProducerConfig.ACKS_CONFIG, "all"))) {
            for (int i = from; i < from + perPartition; i++) {
                for (int partition = 0; partition < PARTITIONS; partition++) {
                    producer.send(new ProducerRecord<>(TOPIC, partition, null, ("r" + i).getBytes()));
                }
            }
            producer.flush();
        }
    }

    @Test
    void theNewCoordinatorRebuildsTheGroupAndItsMembersGoOn() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3, Map.of(BrokerConfig.MIN_INSYNC_REPLICAS, "2",
                BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, Integer.toString(OFFSETS_PARTITIONS),
                BrokerConfig.GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS, "500", BrokerConfig.GROUP_CONSUMER_SESSION_TIMEOUT_MS, "20000",
                BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "300"));
             Admin admin = Clients.admin(cluster.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3))).all().get();
            produce(cluster, 20, 0);
            ConsumedRecords consumed = new ConsumedRecords();
            Map<String, Object> consumerProtocol = Map.of(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
            Map<String, Object> classicProtocol = Map.of(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
            List<GroupMember> members = new ArrayList<>();
            try {
                GroupMember b = GroupMember.start("b", cluster.bootstrapServers(), GROUP, TOPIC, consumed, classicProtocol);
                members.add(b);
                GroupMember c = GroupMember.start("c", cluster.bootstrapServers(), GROUP, TOPIC, consumed, classicProtocol);
                members.add(c);
                Awaitility.await().atMost(TIMEOUT).until(() -> b.assignment().size() == 2 && c.assignment().size() == 2);
                GroupMember a = GroupMember.start("a", cluster.bootstrapServers(), GROUP, TOPIC, consumed, consumerProtocol);
                members.add(a);
                Awaitility.await().atMost(TIMEOUT).until(() -> !a.assignment().isEmpty());
                members.remove(c);
                c.close();
                Awaitility.await().atMost(TIMEOUT).until(() -> a.assignment().size() == 2 && b.assignment().size() == 2
                        && consumed.count() == PARTITIONS * 20);
                int offsetsPartition = Utils.abs(GROUP.hashCode()) % OFFSETS_PARTITIONS;
                cluster.awaitFullIsr(admin, "__consumer_offsets", offsetsPartition, TIMEOUT);
                ConsumerGroupDescription before = stableGroup(admin);
                assertThat(upgraded(before)).as("a upgraded the group, b is still a classic member")
                        .isEqualTo(Map.of("a", true, "b", false));
                int coordinator = before.coordinator().id();

                cluster.broker(coordinator).kill();
                Awaitility.await("a new coordinator").atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                        .until(() -> admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP).coordinator().id() != coordinator);
                ConsumerGroupDescription after = stableGroup(admin);

                assertThat(after.groupEpoch()).as("the group was loaded, not formed again").isEqualTo(before.groupEpoch());
                assertThat(assignments(after)).isEqualTo(assignments(before));
                assertThat(upgraded(after)).isEqualTo(upgraded(before));
                produce(cluster, 20, 20);
                Awaitility.await().atMost(TIMEOUT).until(() -> consumed.count() >= PARTITIONS * 40);
                Map<TopicPartition, Long> ends = new HashMap<>();
                for (int partition = 0; partition < PARTITIONS; partition++) {
                    ends.put(new TopicPartition(TOPIC, partition), 40L);
                }
                consumed.assertExactlyOnceInOrder(ends);
                assertThat(a.failure()).isNull();
                assertThat(b.failure()).isNull();

                members.remove(a);
                a.close();
                ConsumerGroupDescription classic = Awaitility.await("b alone, in a classic group").atMost(TIMEOUT)
                        .pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                        .until(() -> admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP),
                                group -> group.type() == GroupType.CLASSIC && group.groupState() == GroupState.STABLE
                                        && group.members().size() == 1 && b.assignment().size() == PARTITIONS);
                int rebalances = b.rebalances();
                cluster.broker(coordinator).restart();
                cluster.awaitFullIsr(admin, "__consumer_offsets", offsetsPartition, TIMEOUT);
                int second = classic.coordinator().id();

                cluster.broker(second).kill();
                Awaitility.await("a third coordinator").atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                        .until(() -> admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP).coordinator().id() != second);

                ConsumerGroupDescription loaded = admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP);
                assertThat(loaded.groupState()).as("loaded from its record, not Empty").isEqualTo(GroupState.STABLE);
                assertThat(loaded.members()).extracting(MemberDescription::consumerId)
                        .containsExactlyElementsOf(classic.members().stream().map(MemberDescription::consumerId).toList());
                produce(cluster, 20, 40);
                Awaitility.await().atMost(TIMEOUT).until(() -> consumed.count() >= PARTITIONS * 60);
                ends.replaceAll((partition, end) -> 60L);
                consumed.assertExactlyOnceInOrder(ends);
                assertThat(b.rebalances()).as("b went on in its generation, without rejoining").isEqualTo(rebalances);
                assertThat(b.failure()).isNull();
            } finally {
                for (GroupMember member : members) {
                    member.close();
                }
            }
        }
    }

    /** Whether each member (by client id) speaks the consumer protocol. */
    private static Map<String, Boolean> upgraded(ConsumerGroupDescription group) {
        Map<String, Boolean> byClient = new HashMap<>();
        group.members().forEach(member -> byClient.put(member.clientId(), member.upgraded().orElseThrow()));
        return byClient;
    }

    private static ConsumerGroupDescription stableGroup(Admin admin) {
        return Awaitility.await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP),
                        group -> group.groupState() == GroupState.STABLE && group.members().size() == 2);
    }

    private static Map<String, Object> assignments(ConsumerGroupDescription group) {
        Map<String, Object> byMember = new HashMap<>();
        for (MemberDescription member : group.members()) {
            byMember.put(member.consumerId(), member.assignment().topicPartitions());
        }
        return byMember;
    }
}

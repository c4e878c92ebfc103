package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.Clients;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Committed offsets against a broker in its own JVM: AdminClient sees them (and so the lag), they survive a
 * SIGKILL and a SIGTERM of the broker, and a consumer of the group resumes exactly after them.
 */
class OffsetDurabilityIT {
    private static final String TOPIC = "durable";
    private static final String GROUP = "durable-group";
    private static final int PARTITIONS = 3;
    private static final int PER_PARTITION = 100;

    @TempDir
    Path dir;

    @Test
    void committedOffsetsAreReportedAndSurviveSigkillAndSigterm() throws Exception {
        try (BrokerProcess broker = BrokerProcess.start(dir, Map.of(
                BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "0",
                BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "5"))) {
            String bootstrap = broker.bootstrapServers();
            try (Admin admin = Clients.admin(bootstrap)) {
                admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get();
            }
            try (KafkaProducer<byte[], byte[]> producer = Clients.producer(bootstrap)) {
                for (int i = 0; i < PARTITIONS * PER_PARTITION; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, i % PARTITIONS, null, ("v" + i).getBytes()));
                }
            }
            Map<TopicPartition, Long> committed = Map.of(tp(0), 10L, tp(1), 20L, tp(2), 30L);
            try (KafkaConsumer<byte[], byte[]> member = groupConsumer(bootstrap)) {
                member.subscribe(List.of(TOPIC));
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                    member.poll(Duration.ofMillis(100));
                    return member.assignment().size() == PARTITIONS;
                });
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                committed.forEach((partition, offset) -> offsets.put(partition, new OffsetAndMetadata(offset, "note-" + offset)));
                member.commitSync(offsets);

                try (Admin admin = Clients.admin(bootstrap)) {
                    ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP);
                    assertThat(group.groupState()).isEqualTo(GroupState.STABLE);
                    assertThat(group.members()).hasSize(1);
                    assertThat(group.members().iterator().next().assignment().topicPartitions())
                            .containsExactlyInAnyOrderElementsOf(committed.keySet());
                    assertLag(admin, committed);
                }
            }

            broker.kill();
            broker.restart();
            try (Admin admin = Clients.admin(bootstrap)) {
                assertThat(admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP).groupState())
                        .isEqualTo(GroupState.EMPTY);
                assertLag(admin, committed);
                assertThat(admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get().get(tp(1)).metadata())
                        .isEqualTo("note-20");
            }
            Map<TopicPartition, Long> resumed = resumeAndCommitEverything(bootstrap);
            assertThat(resumed).isEqualTo(committed);

            assertThat(broker.terminate()).isEqualTo(128 + 15);
            broker.restart();
            try (Admin admin = Clients.admin(bootstrap)) {
                assertLag(admin, Map.of(tp(0), (long) PER_PARTITION, tp(1), (long) PER_PARTITION, tp(2), (long) PER_PARTITION));
            }
        }
    }

    /** The committed offsets Admin reports, and the lag (log end - committed) they imply. */
    private static void assertLag(Admin admin, Map<TopicPartition, Long> committed) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> reported = admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        committed.keySet().forEach(p -> latest.put(p, OffsetSpec.latest()));
        Map<TopicPartition, ListOffsetsResultInfo> ends = admin.listOffsets(latest).all().get();
        assertThat(reported.keySet()).containsExactlyInAnyOrderElementsOf(committed.keySet());
        committed.forEach((partition, offset) -> {
            assertThat(reported.get(partition).offset()).isEqualTo(offset);
            assertThat(ends.get(partition).offset() - reported.get(partition).offset()).isEqualTo(PER_PARTITION - offset);
        });
    }

    /** A new member of the group reads every partition to its end; returns the first offset it got per partition. */
    private static Map<TopicPartition, Long> resumeAndCommitEverything(String bootstrap) {
        Map<TopicPartition, Long> first = new HashMap<>();
        Map<TopicPartition, Long> next = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> member = groupConsumer(bootstrap)) {
            member.subscribe(List.of(TOPIC));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> record : member.poll(Duration.ofMillis(100))) {
                    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                    first.putIfAbsent(partition, record.offset());
                    next.put(partition, record.offset() + 1);
                }
                return next.size() == PARTITIONS && next.values().stream().allMatch(o -> o == PER_PARTITION);
            });
            member.commitSync();
        }
        return first;
    }

    private static KafkaConsumer<byte[], byte[]> groupConsumer(String bootstrap) {
        return Clients.consumer(bootstrap, Map.of(ConsumerConfig.GROUP_ID_CONFIG, GROUP,
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000));
    }

    private static TopicPartition tp(int partition) {
        return new TopicPartition(TOPIC, partition);
    }
}

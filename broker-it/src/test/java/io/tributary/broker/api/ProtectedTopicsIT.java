package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Clients cannot write, delete, create or grow internal topics, nor create topics whose folders cannot be deleted. */
@Timeout(120)
class ProtectedTopicsIT {
    private static final String OFFSETS = "__consumer_offsets";
    private static Path logDir;
    private static TestBroker broker;
    private static Admin admin;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        logDir = dir.resolve("logs");
        broker = TestBroker.start(dir, Map.of("offsets.topic.num.partitions", "2", "offsets.topic.replication.factor", "1"));
        admin = Clients.admin(broker.bootstrapServers());
        admin.listConsumerGroupOffsets("any-group").partitionsToOffsetAndMetadata().get(); // the coordinator creates the topic
        await().atMost(Duration.ofSeconds(30)).until(() -> admin.listTopics(new ListTopicsOptions()
                .listInternal(true)).names().get().contains(OFFSETS));
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    @Test
    void producingToAnInternalTopicIsRefusedAndAppendsNothing() throws Exception {
        TopicPartition partition = new TopicPartition(OFFSETS, 0);
        long before = endOffset(partition);
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers())) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(OFFSETS, 0, "forged".getBytes(), "commit".getBytes())).get())
                    .hasCauseInstanceOf(InvalidTopicException.class)
                    .hasMessageContaining("Cannot append to internal topic");
        }
        assertThat(endOffset(partition)).isEqualTo(before);
    }

    @Test
    void internalTopicsCannotBeDeletedCreatedOrGrown() throws Exception {
        assertThatThrownBy(() -> admin.deleteTopics(List.of(OFFSETS)).all().get())
                .hasCauseInstanceOf(TopicAuthorizationException.class);
        assertThatThrownBy(() -> admin.createPartitions(Map.of(OFFSETS, NewPartitions.increaseTo(3))).all().get())
                .hasCauseInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("__transaction_state", 1, (short) 1))).all().get())
                .hasCauseInstanceOf(InvalidRequestException.class);
        assertThat(admin.describeTopics(List.of(OFFSETS)).allTopicNames().get().get(OFFSETS).partitions()).hasSize(2);
    }

    @Test
    void topicsWithTheLongestNamesKafkaAllowsCanBeCreatedAndDeletedAndLongerOnesAreRefused() throws Exception {
        String longest = "t".repeat(249); // "<topic>-<p>.<32 hex>-delete" would pass 255 bytes: the deletion name cuts the topic short
        admin.createTopics(List.of(new NewTopic(longest, 3, (short) 1))).all().get();
        admin.deleteTopics(List.of(longest)).all().get();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(foldersOf("tttt")).isEmpty());

        assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("w".repeat(250), 1, (short) 1))).all().get())
                .hasCauseInstanceOf(InvalidTopicException.class);
        assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("bad/name", 1, (short) 1))).all().get())
                .hasCauseInstanceOf(InvalidTopicException.class);
        assertThat(admin.listTopics().names().get()).noneMatch(name -> name.length() > 249);
    }

    private static List<Path> foldersOf(String topic) throws Exception {
        try (Stream<Path> folders = Files.list(logDir)) {
            return folders.filter(folder -> folder.getFileName().toString().startsWith(topic)).toList();
        }
    }

    private static long endOffset(TopicPartition partition) throws Exception {
        return admin.listOffsets(Map.of(partition, OffsetSpec.latest())).all().get().get(partition).offset();
    }
}

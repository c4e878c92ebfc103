package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.errors.SecurityDisabledException;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kafka-clients' AdminClient: topics, partitions, configs, cluster and offsets. */
class AdminIT {
    private static TestBroker broker;
    private static Admin admin;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir, Map.of("auto.create.topics.enable", "false"));
        admin = Clients.admin(broker.bootstrapServers());
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    @Test
    void createsDescribesAndDeletesTopics() throws Exception {
        admin.createTopics(List.of(new NewTopic("orders", 3, (short) 1).configs(Map.of("retention.ms", "3600000")))).all().get();

        TopicDescription description = admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders");
        assertThat(description.partitions()).hasSize(3)
                .allSatisfy(p -> assertThat(p.leader().id()).isZero())
                .allSatisfy(p -> assertThat(p.isr()).extracting(n -> n.id()).containsExactly(0));
        assertThat(description.topicId()).isNotNull();
        assertThat(admin.listTopics().names().get()).contains("orders");

        assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1))).all().get())
                .hasCauseInstanceOf(TopicExistsException.class);

        admin.deleteTopics(List.of("orders")).all().get();
        // Deletion is carried out by the controller after the request is accepted, as in Kafka.
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(admin.listTopics().names().get()).doesNotContain("orders"));
        assertThatThrownBy(() -> admin.describeTopics(List.of("orders")).allTopicNames().get())
                .hasCauseInstanceOf(UnknownTopicOrPartitionException.class);
    }

    @Test
    void rejectsInvalidTopics() {
        for (String name : List.of("bad/name", "..", ".", "x".repeat(250), "space in name")) {
            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic(name, 1, (short) 1))).all().get())
                    .as(name).hasCauseInstanceOf(InvalidTopicException.class);
        }
        assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("three-replicas", 1, (short) 3))).all().get())
                .hasCauseInstanceOf(InvalidReplicationFactorException.class);
        assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("bad-config", 1, (short) 1)
                .configs(Map.of("retention.ms", "soon"))))
                .all().get())
                .hasCauseInstanceOf(InvalidConfigurationException.class);
        assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("unknown-config", 1, (short) 1)
                .configs(Map.of("no.such.config", "1"))))
                .all().get())
                .hasCauseInstanceOf(InvalidConfigurationException.class);
    }

    @Test
    void describesAndAltersTopicConfigsLive() throws Exception {
        admin.createTopics(List.of(new NewTopic("configured", 1, (short) 1).configs(Map.of("retention.ms", "3600000")))).all().get();
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "configured");

        Config config = admin.describeConfigs(List.of(topic)).all().get().get(topic);
        assertThat(config.get("retention.ms").value()).isEqualTo("3600000");
        assertThat(config.get("retention.ms").source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
        assertThat(config.get("segment.bytes").source()).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
        assertThat(config.get("max.message.bytes").value()).isEqualTo("1048588");

        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers())) {
            byte[] big = new byte[4000];
            producer.send(new ProducerRecord<>("configured", big)).get();

            alter(topic, new AlterConfigOp(new ConfigEntry("max.message.bytes", "1000"), AlterConfigOp.OpType.SET));
            assertThat(admin.describeConfigs(List.of(topic)).all().get().get(topic).get("max.message.bytes").value()).isEqualTo("1000");
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("configured", big)).get())
                    .hasCauseInstanceOf(RecordTooLargeException.class);

            alter(topic, new AlterConfigOp(new ConfigEntry("max.message.bytes", ""), AlterConfigOp.OpType.DELETE));
            producer.send(new ProducerRecord<>("configured", big)).get();
        }
        alter(topic, new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.APPEND));
        assertThat(admin.describeConfigs(List.of(topic)).all().get().get(topic).get("cleanup.policy").value()).isEqualTo("delete,compact");

        assertThatThrownBy(() -> alter(topic, new AlterConfigOp(new ConfigEntry("retention.ms", "never"), AlterConfigOp.OpType.SET)))
                .hasCauseInstanceOf(InvalidConfigurationException.class);
    }

    @Test
    void aclApisSayThatSecurityIsDisabledWithoutAnAuthorizer() {
        assertThatThrownBy(() -> admin.describeAcls(AclBindingFilter.ANY).values().get())
                .hasCauseInstanceOf(SecurityDisabledException.class);
    }

    private static void alter(ConfigResource resource, AlterConfigOp op) throws ExecutionException, InterruptedException {
        admin.incrementalAlterConfigs(Map.of(resource, List.of(op))).all().get();
    }

    @Test
    void describesTheBrokerAndTheCluster() throws Exception {
        DescribeClusterResult cluster = admin.describeCluster();
        assertThat(cluster.nodes().get()).singleElement().satisfies(node -> {
            assertThat(node.id()).isZero();
            assertThat(node.port()).isEqualTo(broker.port());
        });
        assertThat(cluster.clusterId().get()).isNotBlank();
        assertThat(cluster.controller().get().id()).isZero();

        ConfigResource brokerResource = new ConfigResource(ConfigResource.Type.BROKER, "0");
        Config config = admin.describeConfigs(List.of(brokerResource)).all().get().get(brokerResource);
        assertThat(config.get("auto.create.topics.enable").value()).isEqualTo("false");
        assertThat(config.get("num.partitions").value()).isEqualTo("1");
    }

    @Test
    void addsPartitions() throws Exception {
        admin.createTopics(List.of(new NewTopic("growing", 2, (short) 1))).all().get();
        admin.createPartitions(Map.of("growing", NewPartitions.increaseTo(5))).all().get();
        assertThat(admin.describeTopics(List.of("growing")).allTopicNames().get().get("growing").partitions()).hasSize(5);
        assertThatThrownBy(() -> admin.createPartitions(Map.of("growing", NewPartitions.increaseTo(3))).all().get())
                .hasCauseInstanceOf(InvalidPartitionsException.class);
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers())) {
            assertThat(producer.send(new ProducerRecord<>("growing", 4, null, new byte[] {1})).get().partition()).isEqualTo(4);
        }
    }

    @Test
    void listsOffsetsByEarliestLatestTimestampAndMaxTimestamp() throws Exception {
        admin.createTopics(List.of(new NewTopic("timed", 1, (short) 1))).all().get();
        TopicPartition partition = new TopicPartition("timed", 0);
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers())) {
            long[] timestamps = {1_000, 5_000, 3_000, 9_000, 7_000};
            for (long timestamp : timestamps) {
                producer.send(new ProducerRecord<>("timed", 0, timestamp, null, new byte[] {1})).get();
            }
        }
        assertThat(offset(partition, OffsetSpec.earliest())).isZero();
        assertThat(offset(partition, OffsetSpec.latest())).isEqualTo(5);
        assertThat(offset(partition, OffsetSpec.forTimestamp(4_000))).isEqualTo(1);
        assertThat(offset(partition, OffsetSpec.forTimestamp(10_000))).isEqualTo(-1);
        assertThat(offset(partition, OffsetSpec.maxTimestamp())).isEqualTo(3);
        assertThat(admin.listOffsets(Map.of(partition, OffsetSpec.maxTimestamp())).all().get().get(partition).timestamp()).isEqualTo(9_000);
    }

    private static long offset(TopicPartition partition, OffsetSpec spec) throws Exception {
        return admin.listOffsets(Map.of(partition, spec)).all().get().get(partition).offset();
    }

    @Test
    void metadataDoesNotCreateTopicsWhenAutoCreationIsOff() throws Exception {
        assertThatThrownBy(() -> admin.describeTopics(Set.of("never-created")).allTopicNames().get())
                .hasCauseInstanceOf(UnknownTopicOrPartitionException.class);
        assertThat(admin.listTopics().names().get()).doesNotContain("never-created");
    }
}

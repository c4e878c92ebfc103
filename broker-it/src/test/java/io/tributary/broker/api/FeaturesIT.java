package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.SupportedVersionRange;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.tools.FeatureCommand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The feature flags in ApiVersions, as Kafka's {@code kafka-features} and the Java admin client read them. */
@Timeout(120)
class FeaturesIT {
    private static Path workDir;
    private static TestBroker broker;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        workDir = dir;
        broker = TestBroker.start(dir, Map.of("transaction.state.log.replication.factor", "1",
                "transaction.state.log.num.partitions", "1"));
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void kafkaFeaturesDescribePrintsEachFeatureAtTheLevelWeImplement() throws Exception {
        String described = KafkaTool.succeed(FeatureCommand.class, workDir, "--bootstrap-server", broker.bootstrapServers(),
                "describe");
        for (Features.Feature feature : Features.all()) {
            assertThat(described).containsPattern("Feature: " + feature.name().replace(".", "\\.")
                    + "\\s+SupportedMinVersion: 0\\s+SupportedMaxVersion: " + feature.level()
                    + "\\s+FinalizedVersionLevel: " + feature.level() + "\\b");
        }
        assertThat(described).contains("Feature: transaction.version").doesNotContain("metadata.version", "kraft.version");
    }

    @Test
    void theAdminClientSeesNoFeatureAboveWhatWeImplement() throws Exception {
        try (Admin admin = Clients.admin(broker.bootstrapServers())) {
            FeatureMetadata features = admin.describeFeatures().featureMetadata().get();
            assertThat(features.supportedFeatures()).containsEntry("transaction.version", new SupportedVersionRange((short) 0, (short) 2))
                    .containsKeys("group.version", "share.version", "streams.version", "eligible.leader.replicas.version")
                    .doesNotContainKeys("metadata.version", "kraft.version");
            assertThat(features.finalizedFeaturesEpoch()).isPresent();
            features.finalizedFeatures().forEach((name, range) -> assertThat(range.maxVersionLevel())
                    .isEqualTo(features.supportedFeatures().get(name).maxVersion()));
            assertThat(features.finalizedFeatures()).containsEntry("transaction.version",
                    new FinalizedVersionRange((short) 2, (short) 2));
        }
    }

    /** transaction.version 2 switches the 4.4 producer to KIP-890's EndTxn v5 and Produce v12+, which we answer. */
    @Test
    void aTransactionalProducerStillCommits() throws Exception {
        try (Admin admin = Clients.admin(broker.bootstrapServers())) {
            admin.createTopics(java.util.List.of(new NewTopic("features-txn", 1, (short) 1))).all().get();
        }
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(),
                Map.of("transactional.id", "features-txn-producer", "max.block.ms", 30_000))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("features-txn", new byte[] {1})).get();
            producer.commitTransaction();
        }
    }
}

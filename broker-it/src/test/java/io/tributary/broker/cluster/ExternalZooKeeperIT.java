package io.tributary.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.ExternalZooKeeper;
import io.tributary.broker.testing.Records;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker on a ZooKeeper server that runs in another JVM: its registration, topics and configs
 * are in ZooKeeper in Kafka's layout; when ZooKeeper dies the broker keeps serving, and when it
 * comes back (here even without its data) the broker registers again.
 */
class ExternalZooKeeperIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void registersAndStoresTopicsAndKeepsServingWhileZooKeeperIsAway(@TempDir Path dir) throws Exception {
        try (ExternalZooKeeper zookeeper = ExternalZooKeeper.start(dir);
             TestBroker broker = TestBroker.start(dir, Map.of("zookeeper.connect", zookeeper.connectString(),
                     "zookeeper.session.timeout.ms", "4000"));
             ZkClient zk = ZkClient.connect(zookeeper.connectString(), 4000, 10_000);
             Admin admin = Clients.admin(broker.bootstrapServers());
             KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers())) {

            JsonNode registration = json(zk, BrokerRegistry.brokerPath(0));
            assertThat(registration.path("endpoints").get(0).asText()).isEqualTo("PLAINTEXT://127.0.0.1:" + broker.port());

            admin.createTopics(List.of(new NewTopic("stored", 2, (short) 1).configs(Map.of("retention.ms", "7200000")))).all().get();
            JsonNode topic = json(zk, "/brokers/topics/stored");
            assertThat(topic.path("partitions").path("1").get(0).asInt()).isZero();
            assertThat(topic.path("topic_id").asText()).isEqualTo(admin.describeTopics(List.of("stored")).allTopicNames().get()
                    .get("stored").topicId().toString());
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, "stored");
            admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry("segment.bytes", "1048576"),
                    AlterConfigOp.OpType.SET)))).all().get();
            assertThat(json(zk, "/config/topics/stored").path("config").path("segment.bytes").asText()).isEqualTo("1048576");
            assertThat(json(zk, "/config/topics/stored").path("config").path("retention.ms").asText()).isEqualTo("7200000");

            zookeeper.kill();
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>("stored", i % 2, null, ("while-away-" + i).getBytes(StandardCharsets.UTF_8))).get();
            }
            assertThat(Records.readAll(broker.bootstrapServers(), "stored", Duration.ofSeconds(30))).hasSize(100);

            // Back without its data: the broker's session and node are gone, so it must register anew.
            zookeeper.restartEmpty();
            Awaitility.await("re-registration").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> registered(zookeeper));
            admin.createTopics(List.of(new NewTopic("after-return", 1, (short) 1))).all().get();
            assertThat(Records.readAll(broker.bootstrapServers(), "stored", Duration.ofSeconds(30))).hasSize(100);
        }
    }

    private static boolean registered(ExternalZooKeeper zookeeper) {
        try (ZkClient zk = ZkClient.connect(zookeeper.connectString(), 4000, 2000)) {
            return zk.read(BrokerRegistry.brokerPath(0)).isPresent();
        } catch (RuntimeException | InterruptedException e) {
            return false;
        }
    }

    private static JsonNode json(ZkClient zk, String path) throws Exception {
        return JSON.readTree(zk.read(path).orElseThrow(() -> new AssertionError(path + " is missing")).data());
    }
}

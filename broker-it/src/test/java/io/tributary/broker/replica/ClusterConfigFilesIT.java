package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.ExternalZooKeeper;
import io.tributary.broker.testing.Records;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documented three-broker cluster ({@code config/cluster/broker-{0,1,2}.properties}, see
 * docs/operations.md) starts from those files on one ZooKeeper — only the ports, data folders and
 * ZooKeeper address are replaced by free ones — and replicates a topic to all three brokers.
 */
class ClusterConfigFilesIT {
    private static final Path CONFIG = Path.of(System.getProperty("user.dir")).resolveSibling("config").resolve("cluster");

    @Test
    void theDocumentedFilesMakeAReplicatingCluster(@TempDir Path dir) throws Exception {
        List<BrokerProcess> brokers = new ArrayList<>();
        try (ExternalZooKeeper zookeeper = ExternalZooKeeper.start(dir)) {
            for (int id = 0; id < 3; id++) {
                Map<String, String> settings = fileSettings(CONFIG.resolve("broker-" + id + ".properties"));
                assertThat(settings).containsEntry(BrokerConfig.BROKER_ID, Integer.toString(id))
                        .containsEntry(BrokerConfig.DEFAULT_REPLICATION_FACTOR, "3");
                settings.remove(BrokerConfig.LISTENERS); // a free port instead
                settings.put(BrokerConfig.HTTP_LISTENERS, "http://127.0.0.1:0"); // likewise for GET /metrics
                Path brokerDir = Files.createDirectories(dir.resolve("broker-" + id));
                settings.put(LogConfig.LOG_DIRS, brokerDir.resolve("logs").toString());
                settings.put(BrokerConfig.ZOOKEEPER_CONNECT, zookeeper.connectString());
                brokers.add(BrokerProcess.start(brokerDir, settings));
            }
            String bootstrap = brokers.stream().map(BrokerProcess::bootstrapServers).collect(Collectors.joining(","));
            try (Admin admin = Clients.admin(bootstrap);
                 KafkaProducer<byte[], byte[]> producer = Clients.producer(bootstrap)) {
                admin.createTopics(List.of(new NewTopic("documented", Optional.of(2), Optional.empty()))).all().get();
                Awaitility.await("both partitions on all three brokers, in sync").atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> TestCluster.isrOf(admin, "documented", 0).size() == 3
                                && TestCluster.isrOf(admin, "documented", 1).size() == 3);
                for (int i = 0; i < 100; i++) {
                    producer.send(new ProducerRecord<>("documented", ("r" + i).getBytes(StandardCharsets.UTF_8)));
                }
                producer.flush();
                assertThat(Records.readAll(bootstrap, "documented", Duration.ofSeconds(60))).hasSize(100);
            }
        } finally {
            for (BrokerProcess broker : brokers) {
                broker.close();
            }
        }
    }

    private static Map<String, String> fileSettings(Path file) throws IOException {
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            props.load(in);
        }
        Map<String, String> settings = new HashMap<>();
        props.stringPropertyNames().forEach(key -> settings.put(key, props.getProperty(key)));
        return settings;
    }
}

package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.Records;
import io.tributary.broker.testing.TestBroker;
import io.tributary.testkit.TestCertificates;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A single broker whose only listener is SASL_SSL and which has no login of its own (no JAAS configuration): it
 * starts, registers that listener as the inter-broker one, and serves SCRAM clients; it would need a login only to
 * replicate.
 */
@Timeout(120)
class SaslSslOnlyBrokerIT {
    @Test
    void startsAndServesScramClientsWithoutInterBrokerCredentials(@TempDir Path dir) throws Exception {
        TestCertificates certificates = TestCertificates.create(dir.resolve("certs"));
        try (EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(dir.resolve("zookeeper"), 0)) {
            try (ZkClient zk = ZkClient.connect(zookeeper.connectString(), 10_000, 10_000)) {
                new ScramUsers(zk).put("alice", ScramMechanism.SCRAM_SHA_256,
                        ScramUsers.credential(ScramMechanism.SCRAM_SHA_256, "alice-secret", 4096));
            }
            Map<String, String> settings = new HashMap<>(certificates.brokerSettings(""));
            settings.put("listeners", "SASL_SSL://127.0.0.1:0");
            settings.put("zookeeper.connect", zookeeper.connectString());
            try (TestBroker broker = TestBroker.start(dir, settings)) {
                Map<String, Object> alice = new HashMap<>(certificates.clientSettings("SASL_SSL", false));
                alice.put("sasl.mechanism", "SCRAM-SHA-256");
                alice.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"alice\" password=\"alice-secret\";");
                String bootstrap = broker.bootstrapServers("SASL_SSL");
                try (Admin admin = Clients.admin(bootstrap, alice);
                     KafkaProducer<byte[], byte[]> producer = Clients.producer(bootstrap, alice)) {
                    admin.createTopics(List.of(new NewTopic("alone", 1, (short) 1))).all().get();
                    for (int i = 0; i < 50; i++) {
                        producer.send(new ProducerRecord<>("alone", ("v" + i).getBytes(StandardCharsets.UTF_8))).get();
                    }
                }
                assertThat(Records.readAll(bootstrap, "alone", Duration.ofSeconds(30), alice)).hasSize(50);
            }
        }
    }
}

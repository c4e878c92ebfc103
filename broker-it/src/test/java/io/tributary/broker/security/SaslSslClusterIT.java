package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.admin.UsersCommand;
import io.tributary.broker.cluster.BrokerRegistry;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.ExternalCommand;
import io.tributary.broker.testing.Records;
import io.tributary.testkit.TestCertificates;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers replicating over SASL_SSL as their own principal (SCRAM-SHA-512 user {@code broker}, bootstrapped
 * with {@code bin/tributary users add} straight into ZooKeeper), clients on the same listener with their own users:
 * acks=all writes reach every replica, and the brokers register the SASL_SSL listener as the inter-broker one.
 */
@Timeout(300)
class SaslSslClusterIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    private static void users(Path dir, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), UsersCommand.class.getName()));
        command.addAll(List.of(args));
        ExternalCommand.Result result = ExternalCommand.run(command, dir, "", 60);
        assertThat(result.exitCode()).as("users %s: %s", String.join(" ", args), result.stderr()).isZero();
    }

    @Test
    void replicatesOverSaslSslAsTheBrokerPrincipal(@TempDir Path dir) throws Exception {
        TestCertificates certificates = TestCertificates.create(dir.resolve("certs"));
        Map<String, String> settings = new HashMap<>(certificates.brokerSettings(""));
        settings.put("listeners", "SASL_SSL://127.0.0.1:0");
        settings.put("inter.broker.listener.name", "SASL_SSL");
        settings.put("sasl.enabled.mechanisms", "SCRAM-SHA-512");
        settings.put("sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512");
        settings.put("listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"broker\" password=\"broker-secret\";");
        settings.put("min.insync.replicas", "3");
        try (TestCluster cluster = TestCluster.start(dir, 3, settings)) {
            users(dir, "add", "broker", "--mechanism", "SCRAM-SHA-512", "--password", "broker-secret", "--zookeeper", cluster.zookeeperConnectString());
            users(dir, "add", "alice", "--mechanism", "SCRAM-SHA-512", "--password", "alice-secret", "--iterations", "8192",
                    "--zookeeper", cluster.zookeeperConnectString());

            List<Integer> saslPorts = new java.util.ArrayList<>();
            try (ZkClient zk = ZkClient.connect(cluster.zookeeperConnectString(), 10_000, 10_000)) {
                ObjectMapper json = new ObjectMapper();
                for (int id = 0; id < 3; id++) {
                    JsonNode registration = json.readTree(zk.read(BrokerRegistry.brokerPath(id)).orElseThrow().data());
                    assertThat(registration.path("listener_security_protocol_map").path("SASL_SSL").asText()).isEqualTo("SASL_SSL");
                    assertThat(registration.path("endpoints").get(1).asText()).startsWith("SASL_SSL://127.0.0.1:")
                            .endsWith(":" + registration.path("port").asInt()); // host/port: the inter-broker listener
                    saslPorts.add(registration.path("port").asInt());
                }
            }
            String saslBootstrap = "127.0.0.1:" + saslPorts.get(0);
            Map<String, Object> alice = new HashMap<>(certificates.clientSettings("SASL_SSL", false));
            alice.put("sasl.mechanism", "SCRAM-SHA-512");
            alice.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                    + "username=\"alice\" password=\"alice-secret\";");
            try (Admin admin = Clients.admin(saslBootstrap, alice)) {
                admin.createTopics(List.of(new NewTopic("over-sasl-ssl", 3, (short) 3))).all().get();
                for (int p = 0; p < 3; p++) {
                    cluster.awaitFullIsr(admin, "over-sasl-ssl", p, TIMEOUT);
                }
                try (KafkaProducer<byte[], byte[]> producer = Clients.producer(saslBootstrap, alice)) {
                    for (int i = 0; i < 300; i++) {
                        producer.send(new ProducerRecord<>("over-sasl-ssl", ("k" + i).getBytes(StandardCharsets.UTF_8),
                                ("v" + i).getBytes(StandardCharsets.UTF_8))).get();
                    }
                }
                // Every broker has every record: acks=all with min.insync.replicas=3 needed all three.
                assertThat(Records.readAll(saslBootstrap, "over-sasl-ssl", TIMEOUT, alice)).hasSize(300);
                for (int p = 0; p < 3; p++) {
                    assertThat(TestCluster.isrOf(admin, "over-sasl-ssl", p)).containsExactly(0, 1, 2);
                }
                // A client must not set the brokers' own password: it could then log in as a follower.
                var brokerPassword = admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("broker",
                        new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), "chosen-by-alice"))).all();
                assertThatThrownBy(brokerPassword::get).hasCauseInstanceOf(ClusterAuthorizationException.class);
                admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("alice",
                        new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), "alice-secret"))).all().get();
            }
        }
    }
}

package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.admin.UsersCommand;
import io.tributary.broker.cluster.BrokerRegistry;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.ExternalCommand;
import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.Records;
import io.tributary.broker.testing.TestCluster;
import io.tributary.testkit.TestCertificates;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateDelegationTokenOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RenewDelegationTokenOptions;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.UnsupportedByAuthenticationException;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.apache.kafka.tools.DelegationTokenCommand;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers replicating over SASL_SSL as their own principal (SCRAM-SHA-512 user {@code broker}, bootstrapped
 * with {@code bin/tributary users add} straight into ZooKeeper), clients on the same listener with their own users:
 * acks=all writes reach every replica, and the brokers register the SASL_SSL listener as the inter-broker one.
 * Delegation tokens are on: a client logs in with a token created through another broker.
 */
@Timeout(300)
class SaslSslClusterIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    private static Path workDir;
    private static TestCertificates certificates;
    private static TestCluster cluster;
    private static Map<String, Object> alice;

    private static void users(Path dir, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), UsersCommand.class.getName()));
        command.addAll(List.of(args));
        ExternalCommand.Result result = ExternalCommand.run(command, dir, "", 60);
        assertThat(result.exitCode()).as("users %s: %s", String.join(" ", args), result.stderr()).isZero();
    }

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        workDir = dir;
        certificates = TestCertificates.create(dir.resolve("certs"));
        Map<String, String> settings = new HashMap<>(certificates.brokerSettings(""));
        settings.put("listeners", "SASL_SSL://127.0.0.1:0");
        settings.put("inter.broker.listener.name", "SASL_SSL");
        settings.put("sasl.enabled.mechanisms", "SCRAM-SHA-512");
        settings.put("sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512");
        settings.put("listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"broker\" password=\"broker-secret\";");
        settings.put("min.insync.replicas", "3");
        settings.put("delegation.token.secret.key", "token-secret");
        cluster = TestCluster.start(dir, 3, settings);
        users(dir, "add", "broker", "--mechanism", "SCRAM-SHA-512", "--password", "broker-secret", "--zookeeper", cluster.zookeeperConnectString());
        users(dir, "add", "alice", "--mechanism", "SCRAM-SHA-512", "--password", "alice-secret", "--iterations", "8192",
                "--zookeeper", cluster.zookeeperConnectString());
        alice = new HashMap<>(certificates.clientSettings("SASL_SSL", false));
        alice.put("sasl.mechanism", "SCRAM-SHA-512");
        alice.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"alice\" password=\"alice-secret\";");
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void replicatesOverSaslSslAsTheBrokerPrincipal() throws Exception {
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

    /**
     * Delegation tokens (KIP-48): alice creates one through broker 0 and a producer and a consumer log in with it
     * through broker 1 (its watch learned of the token) as alice; with the token a client may not ask for tokens; a
     * wrong HMAC is refused; the token no longer logs anyone in once alice expires it, nor does a short-lived one
     * once its life ends. Then Kafka's own kafka-delegation-tokens creates, describes, renews and expires one.
     */
    @Test
    void delegationTokensLogClientsInOnEveryBrokerUntilTheyExpire() throws Exception {
        String broker0 = cluster.interBrokerAddress(0);
        String broker1 = cluster.interBrokerAddress(1);
        try (Admin admin = Clients.admin(broker0, alice)) {
            admin.createTopics(List.of(new NewTopic("with-a-token", 1, (short) 3))).all().get();
            DelegationToken token = admin.createDelegationToken(new CreateDelegationTokenOptions()
                    .renewers(List.of(new KafkaPrincipal("User", "bob")))).delegationToken().get();
            assertThat(token.tokenInfo().owner()).isEqualTo(new KafkaPrincipal("User", "alice"));
            assertThat(admin.describeDelegationToken().delegationTokens().get()).containsExactly(token);

            Map<String, Object> withToken = tokenLogin(token.tokenInfo().tokenId(), token.hmacAsBase64String());
            Awaitility.await("the token logs a producer in through broker 1").atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> {
                try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker1, withToken)) {
                    producer.send(new ProducerRecord<>("with-a-token", "by-token".getBytes(StandardCharsets.UTF_8))).get();
                }
            });
            assertThat(Records.readAll(broker1, "with-a-token", TIMEOUT, withToken)).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                    .contains("by-token");
            try (Admin tokenAdmin = Clients.admin(broker1, withToken)) {
                assertThatThrownBy(() -> tokenAdmin.createDelegationToken().delegationToken().get())
                        .hasCauseInstanceOf(UnsupportedByAuthenticationException.class);
            }
            assertRefused(broker1, tokenLogin(token.tokenInfo().tokenId(), "d3Jvbmc="));

            long renewed = admin.renewDelegationToken(token.hmac(), new RenewDelegationTokenOptions().renewTimePeriodMs(60_000))
                    .expiryTimestamp().get();
            assertThat(renewed).isGreaterThan(token.tokenInfo().issueTimestamp()).isLessThanOrEqualTo(token.tokenInfo().maxTimestamp());
            admin.expireDelegationToken(token.hmac()).expiryTimestamp().get();
            assertThat(admin.describeDelegationToken().delegationTokens().get()).isEmpty();
            assertRefused(broker0, withToken);
            Awaitility.await("broker 1 forgets the expired token").atMost(TIMEOUT).untilAsserted(() -> assertRefused(broker1, withToken));

            DelegationToken shortLived = admin.createDelegationToken(new CreateDelegationTokenOptions().maxlifeTimeMs(2_000))
                    .delegationToken().get();
            Awaitility.await("a token whose life ended logs nobody in").atMost(TIMEOUT).untilAsserted(() ->
                    assertRefused(broker0, tokenLogin(shortLived.tokenInfo().tokenId(), shortLived.hmacAsBase64String())));
        }

        Files.writeString(workDir.resolve("alice.properties"), alice.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n", "", "\n")));
        String created = KafkaTool.succeed(DelegationTokenCommand.class, workDir, "--bootstrap-server", broker0,
                "--command-config", "alice.properties", "--create", "--max-life-time-period", "-1", "--renewer-principal", "User:bob");
        String[] row = created.lines().filter(line -> !line.isBlank()).reduce((first, second) -> second).orElseThrow().trim().split("\\s+");
        String tokenId = row[0];
        String hmac = row[1];
        // Without --owner-principal the tool sends an empty owner list, which Kafka answers with no tokens: name one.
        assertThat(KafkaTool.succeed(DelegationTokenCommand.class, workDir, "--bootstrap-server", broker1,
                "--command-config", "alice.properties", "--describe", "--owner-principal", "User:alice"))
                .contains(tokenId, hmac, "User:alice", "User:bob");
        assertThat(KafkaTool.succeed(DelegationTokenCommand.class, workDir, "--bootstrap-server", broker0,
                "--command-config", "alice.properties", "--renew", "--renew-time-period", "60000", "--hmac", hmac))
                .contains("Completed renew operation");
        assertThat(KafkaTool.succeed(DelegationTokenCommand.class, workDir, "--bootstrap-server", broker0,
                "--command-config", "alice.properties", "--expire", "--expiry-time-period", "-1", "--hmac", hmac))
                .contains("Completed expire operation");
        try (Admin admin = Clients.admin(broker0, alice)) {
            assertThat(admin.describeDelegationToken().delegationTokens().get()).extracting(t -> t.tokenInfo().tokenId()).doesNotContain(tokenId);
        }
    }

    /** A SCRAM login with a delegation token: its id as the user name, its base64 HMAC as the password. */
    private static Map<String, Object> tokenLogin(String tokenId, String hmac) {
        Map<String, Object> settings = new HashMap<>(certificates.clientSettings("SASL_SSL", false));
        settings.put("sasl.mechanism", "SCRAM-SHA-512");
        settings.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"" + tokenId + "\" password=\"" + hmac + "\" tokenauth=\"true\";");
        return settings;
    }

    /** A new connection logging in with {@code settings} is refused, and the broker carries on. */
    private static void assertRefused(String broker, Map<String, Object> settings) {
        try (Admin refused = Clients.admin(broker, settings)) {
            assertThatThrownBy(() -> refused.describeCluster().nodes().get())
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
        }
        try (Admin admin = Clients.admin(broker, alice)) {
            assertThat(admin.describeCluster().nodes()).succeedsWithin(TIMEOUT);
        }
    }
}

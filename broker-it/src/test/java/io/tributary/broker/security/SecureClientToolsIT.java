package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.ExternalCommand;
import io.tributary.broker.testing.ExternalCommand.Result;
import io.tributary.broker.testing.Records;
import io.tributary.broker.testing.TestBroker;
import io.tributary.testkit.TestCertificates;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.tools.ConfigCommand;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Outside clients and Kafka's own tool over secured listeners: Apache Kafka's {@code kafka-configs} adds SCRAM users
 * through the broker (AlterUserScramCredentials), then kcat (librdkafka) and kafkajs produce and consume over
 * SASL_SSL with them; a wrong password is refused and appends nothing.
 */
@Timeout(300)
class SecureClientToolsIT {
    private static final Path JS_CLIENTS = Path.of("..", "clients", "js").toAbsolutePath().normalize();

    private static Path workDir;
    private static TestCertificates certificates;
    private static TestBroker broker;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        workDir = dir;
        certificates = TestCertificates.create(dir.resolve("certs"));
        Map<String, String> settings = new HashMap<>(certificates.brokerSettings(""));
        settings.put("listeners", "PLAINTEXT://127.0.0.1:0,SASL_SSL://127.0.0.1:0");
        settings.put("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512");
        settings.put("listener.name.sasl_ssl.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required user_bob=\"bob-secret\";");
        broker = TestBroker.start(dir, settings);
        kafkaConfigs("--alter", "--add-config", "SCRAM-SHA-256=[iterations=8192,password=alice-secret],SCRAM-SHA-512=[password=alice-secret]",
                "--entity-type", "users", "--entity-name", "alice");
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    /** Apache Kafka's kafka-configs (kafka-tools 4.4) in a JVM of its own, against the PLAINTEXT listener. */
    private static Result kafkaConfigs(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ConfigCommand.class.getName(),
                "--bootstrap-server", broker.bootstrapServers("PLAINTEXT")));
        command.addAll(List.of(args));
        Result result = ExternalCommand.run(command, workDir, "", 120);
        assertThat(result.exitCode()).as("kafka-configs %s: %s %s", String.join(" ", args), result.stdout(), result.stderr()).isZero();
        return result;
    }

    private static Result kcat(String stdin, String mechanism, String user, String password, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("kcat", "-b", broker.bootstrapServers("SASL_SSL"),
                "-X", "security.protocol=SASL_SSL", "-X", "sasl.mechanisms=" + mechanism,
                "-X", "sasl.username=" + user, "-X", "sasl.password=" + password,
                "-X", "ssl.ca.location=" + certificates.pem("broker")));
        command.addAll(List.of(args));
        return ExternalCommand.run(command, workDir, stdin, 60);
    }

    /** Waits until alice can log in with {@code mechanism} (the broker's watch has seen her credential). */
    private static void awaitLogin(String mechanism) {
        Map<String, Object> alice = new HashMap<>(certificates.clientSettings("SASL_SSL", false));
        alice.put("sasl.mechanism", mechanism);
        alice.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"alice\" password=\"alice-secret\";");
        Awaitility.await("alice logs in with " + mechanism).atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
            try (Admin admin = Clients.admin(broker.bootstrapServers("SASL_SSL"), alice)) {
                admin.listTopics().names().get();
            }
        });
    }

    @Test
    void kafkaConfigsStoresSaltedCredentialsThatDescribeShows() throws Exception {
        try (Admin admin = Clients.admin(broker.bootstrapServers("PLAINTEXT"))) {
            UserScramCredentialsDescription alice = admin.describeUserScramCredentials(List.of("alice")).all().get().get("alice");
            assertThat(alice.credentialInfos()).extracting(ScramCredentialInfo::mechanism, ScramCredentialInfo::iterations)
                    .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(ScramMechanism.SCRAM_SHA_256, 8192),
                            org.assertj.core.groups.Tuple.tuple(ScramMechanism.SCRAM_SHA_512, 4096));
        }
    }

    /*
     * kcat speaks PLAIN here, not SCRAM: the librdkafka installed (2.0.2) repeats its own nonce in front of the
     * combined one in its final SCRAM message, which kafka-clients' ScramSaslServer (Apache Kafka 4.4's too) refuses
     * as RFC 5802 requires. SCRAM is covered by the Java client (SecureListenersIT) and kafkajs below.
     */
    @Test
    void kcatProducesAndConsumesWithPlainOverTlsAndAWrongPasswordIsRefused() throws Exception {
        String lines = IntStream.range(0, 200).mapToObj(i -> "key-" + i + ":value-" + i).collect(Collectors.joining("\n", "", "\n"));
        Result produced = kcat(lines, "PLAIN", "bob", "bob-secret", "-P", "-t", "kcat-plain", "-K", ":");
        assertThat(produced.exitCode()).as(produced.stderr()).isZero();

        Result refused = kcat("forged:record\n", "PLAIN", "bob", "wrong-password", "-P", "-t", "kcat-plain", "-K", ":",
                "-X", "message.timeout.ms=10000");
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.stderr()).contains("Authentication failed");

        Result consumed = kcat("", "PLAIN", "bob", "bob-secret", "-C", "-t", "kcat-plain", "-o", "beginning", "-e", "-q",
                "-f", "%k:%s\\n");
        assertThat(consumed.exitCode()).as(consumed.stderr()).isZero();
        assertThat(consumed.stdout()).isEqualTo(lines);
        assertThat(Records.readAll(broker.bootstrapServers("PLAINTEXT"), "kcat-plain", Duration.ofSeconds(30))).hasSize(200);
    }

    @Test
    void kafkajsProducesAndConsumesWithScramOverTls() throws Exception {
        assertThat(JS_CLIENTS.resolve("node_modules/kafkajs")).as("run 'npm install' in clients/js (.ci/run does)").exists();
        awaitLogin("SCRAM-SHA-512");
        Result result = ExternalCommand.run(List.of("env", "KAFKAJS_SSL_CA=" + certificates.pem("broker"),
                "KAFKAJS_SASL_MECHANISM=scram-sha-512", "KAFKAJS_SASL_USERNAME=alice", "KAFKAJS_SASL_PASSWORD=alice-secret",
                "node", "kafkajs-roundtrip.mjs", broker.bootstrapServers("SASL_SSL"), "kafkajs-sasl-ssl", "300", "gzip"),
                JS_CLIENTS, "", 120);
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        JsonNode summary = new ObjectMapper().readTree(result.stdout());
        List<String> values = new ArrayList<>();
        summary.path("records").forEach(r -> values.add(r.path("value").asText()));
        assertThat(values).hasSize(300).doesNotHaveDuplicates().contains("value-0", "value-299");
    }
}

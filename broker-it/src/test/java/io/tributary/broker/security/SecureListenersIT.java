package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import javax.net.ssl.SSLContext;
import java.util.concurrent.atomic.AtomicInteger;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.replica.BrokerChannel;
import io.tributary.broker.testing.CapturedLog;
import io.tributary.broker.testing.Clients;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.broker.testing.Records;
import io.tributary.broker.testing.TestBroker;
import io.tributary.testkit.TestCertificates;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.apache.kafka.common.security.scram.internals.ScramSaslClient;
import org.apache.log4j.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One broker with a listener of every kind (PLAINTEXT, SSL, mutual TLS, SASL_SSL, SASL_PLAINTEXT, a SASL_PLAINTEXT
 * one whose logins last {@value #SESSION_MS} ms, and an SSL one whose keystore file the tests replace), with Java
 * kafka-clients and raw frames: each listener serves what it should, advertises its own endpoints, and refuses what it
 * should with Kafka's errors, closing only the offending connection.
 */
@Timeout(180)
class SecureListenersIT {
    private static final String PLAIN_JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "user_bob=\"bob-secret\" user_dave=\"dave-secret\";";
    private static final long SESSION_MS = 2000;

    private static TestCertificates certificates;
    private static Path reloadedKeystore;
    private static TestBroker broker;
    private static Admin plaintextAdmin;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        certificates = TestCertificates.create(dir.resolve("certs"));
        Map<String, String> settings = new HashMap<>(certificates.brokerSettings(""));
        settings.put("listeners", "PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0,MTLS://127.0.0.1:0,SASL_SSL://127.0.0.1:0,"
                + "SASL_PLAINTEXT://127.0.0.1:0,REAUTH://127.0.0.1:0,RELOAD://127.0.0.1:0");
        settings.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,SSL:SSL,MTLS:SSL,SASL_SSL:SASL_SSL,"
                + "SASL_PLAINTEXT:SASL_PLAINTEXT,REAUTH:SASL_PLAINTEXT,RELOAD:SSL");
        reloadedKeystore = Files.copy(certificates.keystore("broker"), Files.createDirectories(dir.resolve("reload")).resolve("broker.p12"));
        settings.put("listener.name.reload.ssl.keystore.location", reloadedKeystore.toString());
        settings.put("listener.name.reauth.connections.max.reauth.ms", Long.toString(SESSION_MS));
        settings.put("listener.name.reauth.plain.sasl.jaas.config", PLAIN_JAAS);
        settings.put("listener.name.mtls.ssl.client.auth", "required");
        settings.put("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512");
        settings.put("listener.name.sasl_ssl.plain.sasl.jaas.config", PLAIN_JAAS);
        settings.put("listener.name.sasl_plaintext.plain.sasl.jaas.config", PLAIN_JAAS);
        settings.put("listener.name.sasl_plaintext.sasl.enabled.mechanisms", "PLAIN");
        broker = TestBroker.start(dir, settings);
        plaintextAdmin = Clients.admin(broker.bootstrapServers("PLAINTEXT"));
        plaintextAdmin.alterUserScramCredentials(List.of(
                new UserScramCredentialUpsertion("alice", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), "alice-secret"),
                new UserScramCredentialUpsertion("alice", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), "alice-secret")))
                .all().get();
    }

    @AfterAll
    static void stop() {
        if (plaintextAdmin != null) {
            plaintextAdmin.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private static Map<String, Object> sasl(String protocol, String mechanism, String user, String password) {
        Map<String, Object> settings = new HashMap<>(certificates.clientSettings(protocol, false));
        String module = mechanism.equals("PLAIN") ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                : "org.apache.kafka.common.security.scram.ScramLoginModule";
        settings.put("sasl.mechanism", mechanism);
        settings.put("sasl.jaas.config", module + " required username=\"" + user + "\" password=\"" + password + "\";");
        return settings;
    }

    /** Produces {@code count} records through {@code listener} with {@code settings} and reads them back the same way. */
    private static void roundTrip(String listener, Map<String, Object> settings, String topic) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(listener), settings)) {
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>(topic, ("k" + i).getBytes(StandardCharsets.UTF_8),
                        ("value-" + i).getBytes(StandardCharsets.UTF_8))).get();
            }
        }
        var read = Records.readAll(broker.bootstrapServers(listener), topic, Duration.ofSeconds(30), settings);
        assertThat(read).hasSize(100);
        assertThat(new String(read.get(99).value(), StandardCharsets.UTF_8)).isEqualTo("value-99");
    }

    private static long endOffset(String topic) throws Exception {
        try (var consumer = Clients.consumer(broker.bootstrapServers("PLAINTEXT"))) {
            TopicPartition partition = new TopicPartition(topic, 0);
            return consumer.endOffsets(List.of(partition), Duration.ofSeconds(10)).get(partition);
        }
    }

    @Test
    void producesAndConsumesOverTls() throws Exception {
        roundTrip("SSL", certificates.clientSettings("SSL", false), "over-tls");
    }

    @Test
    void mutualTlsAcceptsAClientCertificateAndRefusesAClientWithout() throws Exception {
        roundTrip("MTLS", certificates.clientSettings("SSL", true), "over-mtls");
        try (Admin anonymous = Clients.admin(broker.bootstrapServers("MTLS"), certificates.clientSettings("SSL", false))) {
            assertThatThrownBy(() -> anonymous.listTopics().names().get())
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(SslAuthenticationException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"SCRAM-SHA-256", "SCRAM-SHA-512"})
    void producesAndConsumesWithScramOverTls(String mechanism) throws Exception {
        roundTrip("SASL_SSL", sasl("SASL_SSL", mechanism, "alice", "alice-secret"), "scram-" + mechanism.toLowerCase());
    }

    @Test
    void producesAndConsumesWithPlainOverTls() throws Exception {
        roundTrip("SASL_SSL", sasl("SASL_SSL", "PLAIN", "bob", "bob-secret"), "plain-over-tls");
    }

    @ParameterizedTest
    @ValueSource(strings = {"SCRAM-SHA-256:alice:wrong-password", "SCRAM-SHA-512:mallory:alice-secret",
            "PLAIN:bob:wrong-password", "PLAIN:mallory:bob-secret"})
    void wrongPasswordsAndUnknownUsersAreRefusedAndAppendNothingWhileOthersCarryOn(String attempt) throws Exception {
        String[] parts = attempt.split(":");
        String topic = "refused-" + parts[0].toLowerCase() + "-" + parts[1];
        plaintextAdmin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        Map<String, Object> good = sasl("SASL_SSL", "SCRAM-SHA-256", "alice", "alice-secret");
        try (KafkaProducer<byte[], byte[]> honest = Clients.producer(broker.bootstrapServers("SASL_SSL"), good);
             KafkaProducer<byte[], byte[]> intruder = Clients.producer(broker.bootstrapServers("SASL_SSL"),
                     sasl("SASL_SSL", parts[0], parts[1], parts[2]))) {
            honest.send(new ProducerRecord<>(topic, "before".getBytes(StandardCharsets.UTF_8))).get();
            assertThatThrownBy(() -> intruder.send(new ProducerRecord<>(topic, "forged".getBytes(StandardCharsets.UTF_8))).get())
                    .satisfiesAnyOf(e -> assertThat(e).hasCauseInstanceOf(SaslAuthenticationException.class),
                            e -> assertThat(e).isInstanceOf(SaslAuthenticationException.class));
            honest.send(new ProducerRecord<>(topic, "after".getBytes(StandardCharsets.UTF_8))).get();
        }
        assertThat(endOffset(topic)).isEqualTo(2);
    }

    @Test
    void metadataNamesTheEndpointsOfTheListenerTheClientConnectedTo() throws Exception {
        for (String listener : List.of("PLAINTEXT", "SSL", "SASL_SSL")) {
            Map<String, Object> settings = listener.equals("SASL_SSL") ? sasl(listener, "SCRAM-SHA-256", "alice", "alice-secret")
                    : listener.equals("SSL") ? certificates.clientSettings("SSL", false) : Map.of();
            try (Admin admin = Clients.admin(broker.bootstrapServers(listener), settings)) {
                assertThat(admin.describeCluster().nodes().get()).extracting(Node::port).containsExactly(broker.port(listener));
            }
        }
        try (RawConnection raw = RawConnection.to(broker.bootstrapServers("PLAINTEXT"))) {
            MetadataResponse metadata = (MetadataResponse) raw.request(ApiKeys.METADATA, (short) 12,
                    new MetadataRequestData().setTopics(List.of()));
            assertThat(metadata.data().brokers()).singleElement()
                    .satisfies(b -> assertThat(b.port()).isEqualTo(broker.port("PLAINTEXT")));
        }
    }

    @Test
    void plaintextSentToATlsPortClosesOnlyThatConnection() throws Exception {
        for (String listener : List.of("SSL", "SASL_SSL")) {
            try (RawConnection raw = RawConnection.to(broker.bootstrapServers(listener))) {
                raw.send(ApiKeys.API_VERSIONS, (short) 3, new ApiVersionsRequestData()
                        .setClientSoftwareName("plaintext-client").setClientSoftwareVersion("1"));
                assertThat(raw.closedByBroker(Duration.ofSeconds(10))).isTrue();
            }
        }
        roundTrip("SSL", certificates.clientSettings("SSL", false), "after-plaintext-to-tls");
    }

    @Test
    void aClientThatDoesNotTrustTheBrokerFailsItsHandshakeAndTheBrokerCarriesOn() throws Exception {
        Map<String, Object> untrusting = new HashMap<>(certificates.clientSettings("SSL", false));
        untrusting.remove("ssl.truststore.location");
        untrusting.remove("ssl.truststore.password");
        try (Admin admin = Clients.admin(broker.bootstrapServers("SSL"), untrusting)) {
            assertThatThrownBy(() -> admin.listTopics().names().get())
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(SslAuthenticationException.class);
        }
        roundTrip("SSL", certificates.clientSettings("SSL", false), "after-untrusted");
    }

    private static SaslHandshakeResponseData handshake(RawConnection raw, String mechanism) throws Exception {
        return ((SaslHandshakeResponse) raw.request(ApiKeys.SASL_HANDSHAKE, (short) 1,
                new SaslHandshakeRequestData().setMechanism(mechanism))).data();
    }

    @Test
    void anUnknownMechanismGetsUnsupportedSaslMechanismAndTheConnectionIsClosed() throws Exception {
        try (RawConnection raw = RawConnection.to(broker.bootstrapServers("SASL_PLAINTEXT"))) {
            SaslHandshakeResponseData response = handshake(raw, "GSSAPI");
            assertThat(Errors.forCode(response.errorCode())).isEqualTo(Errors.UNSUPPORTED_SASL_MECHANISM);
            assertThat(response.mechanisms()).containsExactly("PLAIN");
            assertThat(raw.closedByBroker(Duration.ofSeconds(10))).isTrue();
        }
    }

    @Test
    void requestsBeforeAuthenticationGetIllegalSaslStateAndTheConnectionIsClosed() throws Exception {
        try (RawConnection raw = RawConnection.to(broker.bootstrapServers("SASL_PLAINTEXT"))) {
            MetadataResponse metadata = (MetadataResponse) raw.request(ApiKeys.METADATA, (short) 12, new MetadataRequestData()
                    .setTopics(List.of(new MetadataRequestData.MetadataRequestTopic().setName("over-tls"))));
            assertThat(metadata.errorCounts()).containsOnlyKeys(Errors.ILLEGAL_SASL_STATE);
            assertThat(metadata.data().brokers()).isEmpty();
            assertThat(raw.closedByBroker(Duration.ofSeconds(10))).isTrue();
        }
        try (RawConnection raw = RawConnection.to(broker.bootstrapServers("SASL_PLAINTEXT"))) {
            SaslAuthenticateResponseData early = ((SaslAuthenticateResponse) raw.request(ApiKeys.SASL_AUTHENTICATE, (short) 2,
                    new SaslAuthenticateRequestData().setAuthBytes(plainToken("bob", "bob-secret")))).data();
            assertThat(Errors.forCode(early.errorCode())).isEqualTo(Errors.ILLEGAL_SASL_STATE);
            assertThat(raw.closedByBroker(Duration.ofSeconds(10))).isTrue();
        }
    }

    @Test
    void anExchangeCutMidwayOrAHugeTokenCostsOnlyItsConnection() throws Exception {
        try (RawConnection cut = RawConnection.to(broker.bootstrapServers("SASL_PLAINTEXT"))) {
            assertThat(Errors.forCode(handshake(cut, "PLAIN").errorCode())).isEqualTo(Errors.NONE);
        }
        try (RawConnection huge = RawConnection.to(broker.bootstrapServers("SASL_PLAINTEXT"))) {
            assertThat(Errors.forCode(handshake(huge, "PLAIN").errorCode())).isEqualTo(Errors.NONE);
            ByteBuffer prefix = ByteBuffer.allocate(4).putInt(2 * 1024 * 1024).flip();
            huge.write(prefix.array()); // above sasl.server.max.receive.size before any byte of it arrives
            assertThat(huge.closedByBroker(Duration.ofSeconds(10))).isTrue();
        }
        try (RawConnection honest = RawConnection.to(broker.bootstrapServers("SASL_PLAINTEXT"))) {
            assertThat(Errors.forCode(handshake(honest, "PLAIN").errorCode())).isEqualTo(Errors.NONE);
            SaslAuthenticateResponseData done = ((SaslAuthenticateResponse) honest.request(ApiKeys.SASL_AUTHENTICATE, (short) 2,
                    new SaslAuthenticateRequestData().setAuthBytes(plainToken("bob", "bob-secret")))).data();
            assertThat(Errors.forCode(done.errorCode())).isEqualTo(Errors.NONE);
            MetadataResponse metadata = (MetadataResponse) honest.request(ApiKeys.METADATA, (short) 12,
                    new MetadataRequestData().setTopics(List.of()));
            assertThat(metadata.errorCounts()).doesNotContainKey(Errors.ILLEGAL_SASL_STATE);
            assertThat(metadata.data().brokers()).singleElement()
                    .satisfies(b -> assertThat(b.port()).isEqualTo(broker.port("SASL_PLAINTEXT")));
        }
    }

    @Test
    void aWrongPlainPasswordGetsSaslAuthenticationFailedOnTheWire() throws Exception {
        try (RawConnection raw = RawConnection.to(broker.bootstrapServers("SASL_PLAINTEXT"))) {
            assertThat(Errors.forCode(handshake(raw, "PLAIN").errorCode())).isEqualTo(Errors.NONE);
            SaslAuthenticateResponseData refused = ((SaslAuthenticateResponse) raw.request(ApiKeys.SASL_AUTHENTICATE, (short) 2,
                    new SaslAuthenticateRequestData().setAuthBytes(plainToken("bob", "guess")))).data();
            assertThat(Errors.forCode(refused.errorCode())).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
            assertThat(refused.errorMessage()).isNotBlank();
            assertThat(raw.closedByBroker(Duration.ofSeconds(10))).isTrue();
        }
    }

    @Test
    void aUserAddedLaterCanLogInOnceItsCredentialIsStored() throws Exception {
        plaintextAdmin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("carol",
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), "carol-secret"))).all().get();
        assertThat(plaintextAdmin.describeUserScramCredentials(List.of("carol")).all().get().get("carol").credentialInfos())
                .extracting(ScramCredentialInfo::mechanism, ScramCredentialInfo::iterations)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(ScramMechanism.SCRAM_SHA_512, 4096));
        Awaitility.await("carol can log in").atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
            try (Admin carol = Clients.admin(broker.bootstrapServers("SASL_SSL"), sasl("SASL_SSL", "SCRAM-SHA-512", "carol", "carol-secret"))) {
                carol.listTopics().names().get();
            }
        });
    }

    @Test
    void aUsersQuotaThrottlesThatAuthenticatedUserAndNoOneElse() throws Exception {
        plaintextAdmin.createTopics(List.of(new NewTopic("user-quota", 1, (short) 1))).all().get();
        ClientQuotaEntity alice = new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, "alice"));
        plaintextAdmin.alterClientQuotas(List.of(new ClientQuotaAlteration(alice,
                List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 20_000.0))))).all().get();
        Awaitility.await("alice's quota is in force").atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> maxProduceThrottleMs(sasl("SASL_SSL", "SCRAM-SHA-256", "alice", "alice-secret")) > 0);
        assertThat(maxProduceThrottleMs(sasl("SASL_SSL", "PLAIN", "bob", "bob-secret"))).as("bob's throttle").isZero();
    }

    /**
     * KIP-124: {@code request_percentage} counts the time the network threads spend on a client as well as the
     * handlers'. Two clients under the same quota send the same requests, turn about: one over a TLS connection it
     * keeps, the other over a new TLS connection each time (ApiVersions first, as clients do, then Metadata), so the
     * network thread does a TLS handshake for every request it sends. Counting handler time only, both reach their
     * quota after about as many requests; counting the network threads' time too, the reconnecting one is throttled
     * within a few, while the steady one is not within twice as many.
     */
    @Test
    void tlsHandshakesCountAgainstTheClientsRequestPercentage() throws Exception {
        SSLContext tls = certificates.sslContext("client");
        int port = broker.port("SSL");
        List<ClientQuotaAlteration> quotas = new ArrayList<>();
        try (RawConnection steady = RawConnection.overTls(null, "127.0.0.1", port, tls).withClientId("steady")) {
            versionsThenMetadataThrottleMs(steady); // its handshake is charged to these requests, before any quota applies
            for (String clientId : List.of("reconnecting", "steady")) {
                quotas.add(new ClientQuotaAlteration(new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, clientId)),
                        List.of(new ClientQuotaAlteration.Op("request_percentage", 1.0)))); // 100 ms per 10 s window
            }
            plaintextAdmin.alterClientQuotas(quotas).all().get();
            int reconnecting = 0;
            boolean reconnectingThrottled = false;
            while (!reconnectingThrottled && reconnecting < 300) {
                try (RawConnection connection = RawConnection.overTls(null, "127.0.0.1", port, tls).withClientId("reconnecting")) {
                    reconnecting++;
                    reconnectingThrottled = versionsThenMetadataThrottleMs(connection) > 0;
                }
                versionsThenMetadataThrottleMs(steady); // the same requests, turn about
            }
            int steadyRequests = reconnecting;
            boolean steadyThrottled = false;
            while (!steadyThrottled && steadyRequests < 2 * reconnecting) {
                steadyRequests++;
                steadyThrottled = versionsThenMetadataThrottleMs(steady) > 0;
            }
            System.out.printf("QUOTA-REPORT request_percentage=1: a new TLS connection per request %s after %d, one TLS connection "
                    + "%s after %d%n", reconnectingThrottled ? "throttled" : "not throttled", reconnecting,
                    steadyThrottled ? "throttled" : "not throttled", steadyRequests);
            assertThat(reconnectingThrottled).as("reconnecting client throttled within 300 requests").isTrue();
            assertThat(steadyThrottled).as("steady client throttled after %d requests, the reconnecting one after %d",
                    steadyRequests, reconnecting).isFalse();
        } finally {
            quotas.replaceAll(alteration -> new ClientQuotaAlteration(alteration.entity(),
                    List.of(new ClientQuotaAlteration.Op("request_percentage", null))));
            plaintextAdmin.alterClientQuotas(quotas).all().get();
        }
    }

    /** Asks for the API versions, then for metadata naming no topic; @return the throttle time of the latter */
    private static int versionsThenMetadataThrottleMs(RawConnection connection) throws IOException {
        connection.request(ApiKeys.API_VERSIONS, (short) 3, new ApiVersionsRequestData().setClientSoftwareName("raw")
                .setClientSoftwareVersion("1"));
        return ((MetadataResponse) connection.request(ApiKeys.METADATA, (short) 12,
                new MetadataRequestData().setTopics(List.of()))).throttleTimeMs();
    }

    /** Sends 100 KB in 10 KB records and @return the longest throttle time the broker answered with. */
    private static double maxProduceThrottleMs(Map<String, Object> settings) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers("SASL_SSL"), settings)) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>("user-quota", new byte[10_000])).get();
            }
            return producer.metrics().entrySet().stream()
                    .filter(e -> e.getKey().name().equals("produce-throttle-time-max"))
                    .mapToDouble(e -> (Double) e.getValue().metricValue()).filter(v -> !Double.isNaN(v)).max().orElse(0);
        }
    }

    @Test
    void anAuthenticatedClientClaimingToBeAReplicaIsRefused() throws Exception {
        plaintextAdmin.createTopics(List.of(new NewTopic("replica-claim", 1, (short) 1))).all().get();
        try (RawConnection raw = RawConnection.to(broker.bootstrapServers("SASL_PLAINTEXT"))) {
            assertThat(Errors.forCode(handshake(raw, "PLAIN").errorCode())).isEqualTo(Errors.NONE);
            raw.request(ApiKeys.SASL_AUTHENTICATE, (short) 2, new SaslAuthenticateRequestData().setAuthBytes(plainToken("bob", "bob-secret")));
            FetchRequestData fetch = new FetchRequestData().setReplicaId(0).setMaxWaitMs(0).setMinBytes(1).setMaxBytes(1 << 20);
            fetch.topics().add(new FetchRequestData.FetchTopic().setTopic("replica-claim").setPartitions(List.of(
                    new FetchRequestData.FetchPartition().setPartition(0).setFetchOffset(0).setPartitionMaxBytes(1 << 20))));
            FetchResponse response = (FetchResponse) raw.request(ApiKeys.FETCH, (short) 12, fetch);
            assertThat(Errors.forCode(response.data().responses().get(0).partitions().get(0).errorCode()))
                    .isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED);
            fetch.setReplicaId(-1);
            FetchResponse asConsumer = (FetchResponse) raw.request(ApiKeys.FETCH, (short) 12, fetch);
            assertThat(Errors.forCode(asConsumer.data().responses().get(0).partitions().get(0).errorCode())).isEqualTo(Errors.NONE);
        }
    }

    private static byte[] plainToken(String user, String password) {
        return ("\0" + user + "\0" + password).getBytes(StandardCharsets.UTF_8);
    }

    private static SaslAuthenticateResponseData authenticate(RawConnection raw, byte[] token) throws Exception {
        return ((SaslAuthenticateResponse) raw.request(ApiKeys.SASL_AUTHENTICATE, (short) 2,
                new SaslAuthenticateRequestData().setAuthBytes(token))).data();
    }

    private static void assertServed(RawConnection raw, String listener) throws Exception {
        MetadataResponse metadata = (MetadataResponse) raw.request(ApiKeys.METADATA, (short) 12, new MetadataRequestData().setTopics(List.of()));
        assertThat(metadata.errorCounts()).doesNotContainKey(Errors.ILLEGAL_SASL_STATE);
        assertThat(metadata.data().brokers()).singleElement().satisfies(b -> assertThat(b.port()).isEqualTo(broker.port(listener)));
    }

    /** A client-side metric of kafka-clients' network layer, summed over its groups. */
    private static double clientMetric(KafkaProducer<byte[], byte[]> producer, String name) {
        return producer.metrics().entrySet().stream().filter(e -> e.getKey().name().equals(name))
                .mapToDouble(e -> (Double) e.getValue().metricValue()).sum();
    }

    /** Replaces the RELOAD listener's keystore as an operator should: written next to it, then renamed over it. */
    private static void replaceReloadedKeystore(byte[] content) throws IOException {
        Path next = Files.write(reloadedKeystore.resolveSibling("next.p12"), content);
        Files.move(next, reloadedKeystore, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** An SSL client of the RELOAD listener trusting only {@code truststore}. */
    private static Map<String, Object> trusting(Path truststore) {
        Map<String, Object> settings = new HashMap<>(certificates.clientSettings("SSL", false));
        settings.put("ssl.truststore.location", truststore.toString());
        return settings;
    }

    @Test
    void aReplacedKeystoreServesNewConnectionsWhileOpenOnesCarryOnAndABadOneIsRefused() throws Exception {
        plaintextAdmin.createTopics(List.of(new NewTopic("reloaded", 1, (short) 1))).all().get();
        certificates.renewBroker("broker-renewed");
        Path renewedOnly = certificates.truststore("renewed-only", "broker-renewed");
        try (KafkaProducer<byte[], byte[]> open = Clients.producer(broker.bootstrapServers("RELOAD"), certificates.clientSettings("SSL", false));
             CapturedLog log = CapturedLog.of(ReloadableSslFactory.class, Level.INFO)) {
            open.send(new ProducerRecord<>("reloaded", "before".getBytes(StandardCharsets.UTF_8))).get();

            replaceReloadedKeystore(Files.readAllBytes(certificates.keystore("broker-renewed")));
            Awaitility.await("new connections get the renewed certificate").atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .untilAsserted(() -> {
                        try (Admin renewed = Clients.admin(broker.bootstrapServers("RELOAD"), trusting(renewedOnly))) {
                            renewed.listTopics().names().get();
                        }
                    });
            assertThat(log.lines()).anySatisfy(line -> assertThat(line.message()).contains("reloaded [" + reloadedKeystore)
                    .contains("CN=broker, OU=tributary-test"));
            open.send(new ProducerRecord<>("reloaded", "on the connection opened before".getBytes(StandardCharsets.UTF_8))).get();

            replaceReloadedKeystore("not a keystore".getBytes(StandardCharsets.UTF_8));
            Awaitility.await("the broken keystore is refused").atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(log.lines()).anySatisfy(line -> assertThat(line.message())
                            .contains("listener RELOAD: refused the changed [" + reloadedKeystore).contains("Failed to load SSL keystore")));
            replaceReloadedKeystore(Files.readAllBytes(certificates.keystore("client"))); // a keystore of someone else: CN=alice
            Awaitility.await("a certificate with another name is refused").atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(log.lines()).anySatisfy(line -> assertThat(line.message())
                            .contains("refused the changed").contains("DistinguishedName")));
            try (Admin renewed = Clients.admin(broker.bootstrapServers("RELOAD"), trusting(renewedOnly))) {
                assertThat(renewed.listTopics().names().get()).contains("reloaded");
            }
        }
        assertThat(endOffset("reloaded")).isEqualTo(2);
    }

    @Test
    void javaClientsReauthenticateBeforeTheirSessionEndsAndCarryOn() throws Exception {
        plaintextAdmin.createTopics(List.of(new NewTopic("reauthenticated", 1, (short) 1))).all().get();
        AtomicInteger sent = new AtomicInteger();
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers("REAUTH"),
                sasl("SASL_PLAINTEXT", "SCRAM-SHA-512", "alice", "alice-secret"))) {
            Awaitility.await("two re-authentications").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                producer.send(new ProducerRecord<>("reauthenticated", ("record-" + sent.incrementAndGet()).getBytes(StandardCharsets.UTF_8))).get();
                return clientMetric(producer, "successful-reauthentication-total") >= 2;
            });
            assertThat(clientMetric(producer, "failed-reauthentication-total")).isZero();
        }
        assertThat(endOffset("reauthenticated")).isEqualTo(sent.get());
    }

    @Test
    void aConnectionThatDoesNotReauthenticateIsClosedOnItsFirstRequestAfterItsSessionEnds() throws Exception {
        try (RawConnection raw = RawConnection.to(broker.bootstrapServers("REAUTH"))) {
            assertThat(Errors.forCode(handshake(raw, "PLAIN").errorCode())).isEqualTo(Errors.NONE);
            long loginStarted = System.nanoTime();
            SaslAuthenticateResponseData login = authenticate(raw, plainToken("bob", "bob-secret"));
            assertThat(Errors.forCode(login.errorCode())).isEqualTo(Errors.NONE);
            assertThat(login.sessionLifetimeMs()).isEqualTo(SESSION_MS);
            assertServed(raw, "REAUTH");
            Awaitility.await("the broker closes the connection").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        try {
                            assertServed(raw, "REAUTH");
                            return false;
                        } catch (IOException closed) {
                            return true;
                        }
                    });
            assertThat(Duration.ofNanos(System.nanoTime() - loginStarted)).isGreaterThanOrEqualTo(Duration.ofMillis(SESSION_MS));
        }
    }

    @Test
    void aFollowersConnectionReauthenticatesBeforeItsSessionEndsAndKeepsBeingServed() throws Exception {
        BrokerConfig follower = new BrokerConfig(Map.of("listeners", "REAUTH://127.0.0.1:0", "listener.security.protocol.map",
                "REAUTH:SASL_PLAINTEXT", "sasl.enabled.mechanisms", "PLAIN", "sasl.mechanism.inter.broker.protocol", "PLAIN",
                "listener.name.reauth.plain.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required "
                        + "username=\"bob\" password=\"bob-secret\" user_bob=\"bob-secret\";"));
        Listener interBroker = follower.listeners().interBroker();
        Map<String, Object> settings = follower.securitySettings(interBroker);
        try (TlsFileWatcher files = new TlsFileWatcher();
             BrokerChannel channel = BrokerChannel.connect("127.0.0.1", broker.port("REAUTH"), 10_000, "follower",
                     InterBrokerConnector.create(interBroker, settings, InterBrokerCredentials.of(interBroker, settings), files))) {
            long start = System.nanoTime();
            Awaitility.await("three sessions on one connection").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        MetadataResponseData metadata = (MetadataResponseData) channel.send(ApiKeys.METADATA, (short) 12,
                                new MetadataRequestData().setTopics(List.of()));
                        assertThat(metadata.brokers()).hasSize(1);
                        return System.nanoTime() - start > Duration.ofMillis(3 * SESSION_MS).toNanos();
                    });
        }
    }

    @Test
    void aReauthenticationRenewsTheSessionOfTheSamePrincipalAndMechanismOnly() throws Exception {
        try (RawConnection same = RawConnection.to(broker.bootstrapServers("REAUTH"))) {
            handshake(same, "PLAIN");
            authenticate(same, plainToken("bob", "bob-secret"));
            assertThat(Errors.forCode(handshake(same, "PLAIN").errorCode())).isEqualTo(Errors.NONE);
            SaslAuthenticateResponseData renewed = authenticate(same, plainToken("bob", "bob-secret"));
            assertThat(Errors.forCode(renewed.errorCode())).isEqualTo(Errors.NONE);
            assertThat(renewed.sessionLifetimeMs()).isEqualTo(SESSION_MS);
            assertServed(same, "REAUTH");
        }
        try (RawConnection other = RawConnection.to(broker.bootstrapServers("REAUTH"))) {
            handshake(other, "PLAIN");
            authenticate(other, plainToken("bob", "bob-secret"));
            handshake(other, "PLAIN");
            SaslAuthenticateResponseData refused = authenticate(other, plainToken("dave", "dave-secret"));
            assertThat(Errors.forCode(refused.errorCode())).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
            assertThat(refused.errorMessage()).contains("Cannot change principals during re-authentication from User:bob: User:dave");
            assertThat(other.closedByBroker(Duration.ofSeconds(10))).isTrue();
        }
        try (RawConnection otherMechanism = RawConnection.to(broker.bootstrapServers("REAUTH"))) {
            handshake(otherMechanism, "PLAIN");
            authenticate(otherMechanism, plainToken("bob", "bob-secret"));
            assertThat(Errors.forCode(handshake(otherMechanism, "SCRAM-SHA-256").errorCode())).isEqualTo(Errors.NONE);
            SaslAuthenticateResponseData refused = authenticate(otherMechanism, new byte[] {'n', ',', ','});
            assertThat(Errors.forCode(refused.errorCode())).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
            assertThat(refused.errorMessage()).contains("not supported for re-authentication of mechanism 'PLAIN'");
            assertThat(otherMechanism.closedByBroker(Duration.ofSeconds(10))).isTrue();
        }
    }

    @Test
    void aUserWhoseCredentialIsDeletedIsRefusedAtItsNextReauthentication() throws Exception {
        plaintextAdmin.createTopics(List.of(new NewTopic("deleted-user", 1, (short) 1))).all().get();
        plaintextAdmin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("erin",
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), "erin-secret"))).all().get();
        Map<String, Object> erin = new HashMap<>(sasl("SASL_PLAINTEXT", "SCRAM-SHA-512", "erin", "erin-secret"));
        erin.putAll(Map.of("delivery.timeout.ms", 4_000, "request.timeout.ms", 3_000, "max.block.ms", 5_000));
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers("REAUTH"), erin)) {
            Awaitility.await("erin's credential is in force").atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .untilAsserted(() -> producer.send(new ProducerRecord<>("deleted-user", "before".getBytes(StandardCharsets.UTF_8))).get());
            plaintextAdmin.alterUserScramCredentials(List.of(new UserScramCredentialDeletion("erin", ScramMechanism.SCRAM_SHA_512)))
                    .all().get();
            // the batch in flight when the re-authentication fails may expire instead; the sends after it are refused
            Awaitility.await("erin is refused").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                try {
                    producer.send(new ProducerRecord<>("deleted-user", "later".getBytes(StandardCharsets.UTF_8))).get();
                    return false;
                } catch (ExecutionException | SaslAuthenticationException e) {
                    return (e instanceof ExecutionException ? e.getCause() : e) instanceof SaslAuthenticationException;
                }
            });
            assertThat(clientMetric(producer, "failed-reauthentication-total")).isPositive();
        }
    }

    @Test
    void saslHandshakeV0ClientsSendBareTokensAndAWrongPasswordLosesTheConnection() throws Exception {
        try (RawConnection plain = RawConnection.to(broker.bootstrapServers("SASL_PLAINTEXT"))) {
            SaslHandshakeResponseData handshake = ((SaslHandshakeResponse) plain.request(ApiKeys.SASL_HANDSHAKE, (short) 0,
                    new SaslHandshakeRequestData().setMechanism("PLAIN"))).data();
            assertThat(Errors.forCode(handshake.errorCode())).isEqualTo(Errors.NONE);
            plain.writeFrame(ByteBuffer.wrap(plainToken("bob", "bob-secret")));
            assertThat(plain.readFrame().remaining()).as("PLAIN's empty server token").isZero();
            assertServed(plain, "SASL_PLAINTEXT");
        }
        try (RawConnection scram = RawConnection.to(broker.bootstrapServers("REAUTH"))) {
            assertThat(Errors.forCode(((SaslHandshakeResponse) scram.request(ApiKeys.SASL_HANDSHAKE, (short) 0,
                    new SaslHandshakeRequestData().setMechanism("SCRAM-SHA-256"))).data().errorCode())).isEqualTo(Errors.NONE);
            ScramSaslClient client = new ScramSaslClient(org.apache.kafka.common.security.scram.internals.ScramMechanism.SCRAM_SHA_256,
                    callbacks -> {
                        for (Callback callback : callbacks) {
                            if (callback instanceof NameCallback name) {
                                name.setName("alice");
                            } else if (callback instanceof PasswordCallback password) {
                                password.setPassword("alice-secret".toCharArray());
                            }
                        }
                    });
            byte[] token = client.evaluateChallenge(new byte[0]);
            while (!client.isComplete()) {
                scram.writeFrame(ByteBuffer.wrap(token));
                ByteBuffer challenge = scram.readFrame();
                token = client.evaluateChallenge(Arrays.copyOfRange(challenge.array(), challenge.position(), challenge.limit()));
            }
            assertServed(scram, "REAUTH");
        }
        try (RawConnection wrong = RawConnection.to(broker.bootstrapServers("SASL_PLAINTEXT"))) {
            wrong.request(ApiKeys.SASL_HANDSHAKE, (short) 0, new SaslHandshakeRequestData().setMechanism("PLAIN"));
            wrong.writeFrame(ByteBuffer.wrap(plainToken("bob", "guess")));
            assertThat(wrong.closedByBroker(Duration.ofSeconds(10))).isTrue();
        }
    }
}

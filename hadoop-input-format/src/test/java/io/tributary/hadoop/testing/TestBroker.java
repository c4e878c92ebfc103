package io.tributary.hadoop.testing;

import io.tributary.testkit.FreePorts;
import io.tributary.testkit.tributary.BrokerUnderTest;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * The broker the connector tests load from, and the one place its address comes from:
 * {@link BrokerUnderTest} (Tributary by default, {@code -Dit.broker=apache-kafka} for Apache Kafka).
 */
public final class TestBroker implements AutoCloseable {
    /** The mechanism of {@link #startWithTokens}' SASL listener. */
    public static final String SCRAM_MECHANISM = "SCRAM-SHA-512";

    private final BrokerUnderTest kafka;
    private final Admin admin;
    private final String saslBootstrapServers;

    private TestBroker(BrokerUnderTest kafka, String saslBootstrapServers) {
        this.kafka = kafka;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
        this.saslBootstrapServers = saslBootstrapServers;
    }

    /** The broker named by {@code -Dit.broker}. */
    public static TestBroker start(Path dir) throws Exception {
        return new TestBroker(BrokerUnderTest.start(dir, Map.of()), null);
    }

    /**
     * The broker named by {@code -Dit.broker}, with delegation tokens on (they expire after {@code tokenExpiry} unless
     * renewed) and a second listener, SASL_PLAINTEXT with SCRAM-SHA-512, for the users {@link #addScramUser} adds.
     */
    public static TestBroker startWithTokens(Path dir, Duration tokenExpiry) throws Exception {
        int saslPort = FreePorts.next();
        return new TestBroker(BrokerUnderTest.startWithScramListener(dir, saslPort, Map.of(
            "delegation.token.secret.key", "the-test-token-secret",
            "delegation.token.expiry.time.ms", Long.toString(tokenExpiry.toMillis()))), "127.0.0.1:" + saslPort);
    }

    /** The SASL_PLAINTEXT listener of {@link #startWithTokens}. */
    public String saslBootstrapServers() {
        return saslBootstrapServers;
    }

    public void addScramUser(String user, String password) throws ExecutionException, InterruptedException {
        admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(user,
            new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), password))).all().get();
    }

    /** kafka-clients settings to log in as {@code user} on the SASL listener (its address not included). */
    public static Map<String, String> scramLogin(String user, String password) {
        return Map.of(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT", SaslConfigs.SASL_MECHANISM, SCRAM_MECHANISM,
            SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                + user + "\" password=\"" + password + "\";");
    }

    /** {@link #scramLogin} as a properties file, as {@code --command-config} reads it. */
    public static Path writeScramClientConfig(Path file, String user, String password) throws IOException {
        return Files.writeString(file, scramLogin(user, password).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
            .sorted().collect(Collectors.joining("\n", "", "\n")), StandardCharsets.UTF_8);
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    public Admin admin() {
        return admin;
    }

    public void createTopic(String topic, int partitions) throws ExecutionException, InterruptedException {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
    }

    /**
     * Produces {@code perPartition} records to each partition: key {@code k<i>}, value from
     * {@code value}, header {@code seq}, timestamps {@code spacingMs} apart (record {@code i} of
     * the batch at {@code firstTimestamp + i * spacingMs}).
     */
    public void produce(String topic, int partitions, int perPartition, long firstTimestamp, long spacingMs,
                        ValueMaker value) throws ExecutionException, InterruptedException {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                ProducerConfig.LINGER_MS_CONFIG, 5,
                // The machine is shared and can be very busy: wait rather than drop records.
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 600_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 120_000,
                ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()))) {
            AtomicReference<Exception> failure = new AtomicReference<>();
            int i = 0;
            for (int n = 0; n < perPartition; n++) {
                for (int p = 0; p < partitions; p++, i++) {
                    ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, p, firstTimestamp + i * spacingMs,
                        ("k" + i).getBytes(StandardCharsets.UTF_8), value.value(p, i));
                    record.headers().add("seq", Integer.toString(i).getBytes(StandardCharsets.UTF_8));
                    producer.send(record, (metadata, e) -> {
                        if (e != null) {
                            failure.compareAndSet(null, e);
                        }
                    });
                }
            }
            producer.flush();
            if (failure.get() != null) { // fail here, not later as a wrong count
                throw new IllegalStateException("the broker did not take every record of " + topic, failure.get());
            }
        }
    }

    /** Moves the log start offset of a partition to {@code offset}, as retention would. */
    public void deleteRecordsBefore(String topic, int partition, long offset) throws ExecutionException, InterruptedException {
        admin.deleteRecords(Map.of(new TopicPartition(topic, partition), RecordsToDelete.beforeOffset(offset))).all().get();
    }

    /** Makes the value bytes of record {@code i} (partition {@code p}). */
    public interface ValueMaker {
        byte[] value(int partition, int i);
    }

    @Override
    public void close() {
        admin.close();
        kafka.close();
    }
}

package io.tributary.testkit.tributary;

import io.tributary.broker.BrokerConfig;
import io.tributary.broker.Server;
import io.tributary.broker.log.LogConfig;
import io.tributary.testkit.ApacheKafka;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.utils.Time;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The broker a connector's integration tests run against, and the one place that decides which:
 * {@code -Dit.broker=tributary} (the default: a Tributary broker in this JVM with its embedded
 * ZooKeeper) or {@code -Dit.broker=apache-kafka} (Apache Kafka 4.4 in-process, the reference).
 * Tests see nothing but {@link #bootstrapServers()}, so they hold for any Kafka-compatible broker.
 */
public final class BrokerUnderTest implements AutoCloseable {
    /** The system property that picks the broker. */
    public static final String PROPERTY = "it.broker";

    private final Kind kind;
    private final String bootstrapServers;
    private final Runnable stop;

    private BrokerUnderTest(Kind kind, String bootstrapServers, Runnable stop) {
        this.kind = kind;
        this.bootstrapServers = bootstrapServers;
        this.stop = stop;
    }

    /** The kinds of broker the connectors are tested against. */
    public enum Kind {
        TRIBUTARY, APACHE_KAFKA;

        static Kind of(String name) {
            return Kind.valueOf(name.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        }
    }

    /** The broker named by {@code -Dit.broker}, with data under {@code dir}. */
    public static BrokerUnderTest start(Path dir, Map<String, String> overrides) throws Exception {
        return start(Kind.of(System.getProperty(PROPERTY, "tributary")), dir, overrides);
    }

    /**
     * The broker named by {@code -Dit.broker}, with a second listener, SASL_PLAINTEXT on {@code saslPort}, that logs in
     * SCRAM-SHA-512 users (added through the Admin API over {@link #bootstrapServers()}, which stays PLAINTEXT).
     */
    public static BrokerUnderTest startWithScramListener(Path dir, int saslPort, Map<String, String> overrides) throws Exception {
        Kind kind = Kind.of(System.getProperty(PROPERTY, "tributary"));
        Map<String, String> settings = new HashMap<>(Map.of("sasl.enabled.mechanisms", "SCRAM-SHA-512"));
        settings.putAll(overrides);
        if (kind == Kind.APACHE_KAFKA) {
            settings.put("listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;");
            ApacheKafka kafka = ApacheKafka.start(dir, settings, Map.of(SecurityProtocol.SASL_PLAINTEXT, saslPort));
            return new BrokerUnderTest(kind, kafka.bootstrapServers(), kafka::close);
        }
        settings.put(BrokerConfig.LISTENERS, "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:" + saslPort);
        return start(kind, dir, settings);
    }

    /**
     * A broker of the given kind. {@code overrides} are broker settings both kinds understand
     * (for example {@code auto.create.topics.enable}, {@code num.partitions}).
     */
    private static BrokerUnderTest start(Kind kind, Path dir, Map<String, String> overrides) throws Exception {
        if (kind == Kind.APACHE_KAFKA) {
            ApacheKafka kafka = ApacheKafka.start(dir, overrides);
            return new BrokerUnderTest(kind, kafka.bootstrapServers(), kafka::close);
        }
        Map<String, String> props = new HashMap<>();
        props.put(BrokerConfig.LISTENERS, "PLAINTEXT://127.0.0.1:0");
        props.put(BrokerConfig.ZOOKEEPER_EMBEDDED_PORT, "0");
        props.put(LogConfig.LOG_DIRS, dir.resolve("logs").toString());
        // As in the Apache Kafka peer's test settings: groups form at once instead of after 3 s.
        props.put(BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "0");
        props.putAll(overrides);
        Server server = Server.start(new BrokerConfig(props), Time.SYSTEM);
        return new BrokerUnderTest(kind, server.bootstrapServers(), server::close);
    }

    public Kind kind() {
        return kind;
    }

    /** {@code 127.0.0.1:<port>}. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public void close() {
        stop.run();
    }
}

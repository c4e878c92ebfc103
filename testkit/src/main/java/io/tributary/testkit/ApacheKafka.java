package io.tributary.testkit;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.utils.Time;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Apache Kafka 4.4 running in this JVM in KRaft combined mode (one broker that is also the
 * controller), on free loopback ports. It is the reference peer: connectors are tested against
 * it, and benchmarks measure Tributary side by side with it.
 *
 * <pre>
 * try (ApacheKafka kafka = ApacheKafka.start(tempDir)) {
 *     String bootstrap = kafka.bootstrapServers();
 * }
 * </pre>
 */
public final class ApacheKafka implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final KafkaRaftServer server;
    private final int brokerPort;

    private ApacheKafka(KafkaRaftServer server, int brokerPort) {
        this.server = server;
        this.brokerPort = brokerPort;
    }

    /** Formats {@code dataDir} and starts a single-node cluster; returns once it answers Admin calls. */
    public static ApacheKafka start(Path dataDir) {
        return start(dataDir, Map.of());
    }

    /** As {@link #start(Path)}, with extra broker properties that override the test defaults. */
    public static ApacheKafka start(Path dataDir, Map<String, String> overrides) {
        return start(dataDir, overrides, Map.of());
    }

    /**
     * As {@link #start(Path, Map)}, with listeners besides PLAINTEXT: each named after its security protocol, on
     * 127.0.0.1 at the port given (chosen by the caller, e.g. with {@link FreePorts}) and advertised so. Their settings
     * ({@code ssl.*}, {@code sasl.*}) go in {@code overrides}; replication and {@link #bootstrapServers()} stay on
     * PLAINTEXT.
     */
    public static ApacheKafka start(Path dataDir, Map<String, String> overrides, Map<SecurityProtocol, Integer> moreListeners) {
        int brokerPort = FreePorts.next();
        int controllerPort = FreePorts.next();
        Properties props = defaults(dataDir, brokerPort, controllerPort);
        moreListeners.forEach((protocol, port) -> {
            String listener = protocol.name + "://127.0.0.1:" + port;
            props.put("listeners", props.getProperty("listeners") + "," + listener);
            props.put("advertised.listeners", props.getProperty("advertised.listeners") + "," + listener);
            props.put("listener.security.protocol.map", props.getProperty("listener.security.protocol.map") + ","
                    + protocol.name + ":" + protocol.name);
        });
        props.putAll(overrides);
        format(dataDir, props);
        KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
        ApacheKafka kafka = new ApacheKafka(server, brokerPort);
        try {
            server.startup();
            kafka.awaitReady();
        } catch (RuntimeException e) {
            kafka.close();
            throw e;
        }
        return kafka;
    }

    private static Properties defaults(Path dataDir, int brokerPort, int controllerPort) {
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        props.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("controller.listener.names", "CONTROLLER");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("log.dirs", dataDir.resolve("logs").toString());
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "5");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("num.partitions", "1");
        props.put("auto.create.topics.enable", "true");
        return props;
    }

    private static void format(Path dataDir, Properties props) {
        try {
            Files.createDirectories(dataDir);
            Path config = dataDir.resolve("server.properties");
            try (OutputStream out = Files.newOutputStream(config)) {
                props.store(out, "Apache Kafka in-process test peer");
            }
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            int rc = StorageTool.execute(new String[] {
                "format", "-t", Uuid.randomUuid().toString(), "-c", config.toString()
            }, new PrintStream(log, true, StandardCharsets.UTF_8));
            if (rc != 0) {
                throw new IllegalStateException("kafka storage format failed: " + log.toString(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitReady() {
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            while (true) {
                Exception notYet = null;
                try {
                    if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    notYet = e;
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("Apache Kafka did not become ready in " + START_TIMEOUT, notYet);
                }
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Apache Kafka to start", e);
        }
    }

    /** {@code 127.0.0.1:<port>} of the PLAINTEXT listener. */
    public String bootstrapServers() {
        return "127.0.0.1:" + brokerPort;
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }
}

package io.tributary.testkit.tributary;

import io.tributary.broker.BrokerConfig;
import io.tributary.broker.Server;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.security.ScramUsers;
import io.tributary.testkit.TestCertificates;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Time;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

/**
 * A Tributary broker locked down as docs/operations.md "Securing a cluster" does it: one SASL_SSL listener
 * (SCRAM-SHA-512, a certificate made by the test), the ACL authorizer with {@code User:admin} as the only super user,
 * and an external ZooKeeper the SCRAM users are written to. Connector ITs use it to check that their clients log in,
 * are refused what their ACLs refuse, and report a wrong password clearly.
 */
public final class SecuredBroker implements AutoCloseable {
    public static final String MECHANISM = "SCRAM-SHA-512";
    public static final String ADMIN = "admin";
    public static final String ADMIN_PASSWORD = "admin-secret";

    private final TestCertificates certificates;
    private final EmbeddedZooKeeper zookeeper;
    private final Server server;

    private SecuredBroker(TestCertificates certificates, EmbeddedZooKeeper zookeeper, Server server) {
        this.certificates = certificates;
        this.zookeeper = zookeeper;
        this.server = server;
    }

    /** Starts ZooKeeper and the broker under {@code dir}, with {@code admin} as a user; {@code overrides} last. */
    public static SecuredBroker start(Path dir, Map<String, String> overrides) throws Exception {
        TestCertificates certificates = TestCertificates.create(dir.resolve("certs"));
        EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(dir.resolve("zookeeper"), 0);
        try {
            addUser(zookeeper.connectString(), ADMIN, ADMIN_PASSWORD);
            Map<String, String> props = new HashMap<>(certificates.brokerSettings(""));
            props.put(BrokerConfig.LISTENERS, "SASL_SSL://127.0.0.1:0");
            props.put("zookeeper.connect", zookeeper.connectString());
            props.put("sasl.enabled.mechanisms", MECHANISM);
            props.put("authorizer.class.name", "io.tributary.broker.security.AclAuthorizer");
            props.put("super.users", "User:" + ADMIN);
            props.put(LogConfig.LOG_DIRS, dir.resolve("logs").toString());
            props.put(BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "0");
            props.put("offsets.topic.num.partitions", "3");
            props.put("offsets.topic.replication.factor", "1");
            props.putAll(overrides);
            return new SecuredBroker(certificates, zookeeper, Server.start(new BrokerConfig(props), Time.SYSTEM));
        } catch (Exception | Error e) {
            zookeeper.close();
            throw e;
        }
    }

    /** {@code 127.0.0.1:<port>} of the SASL_SSL listener. */
    public String bootstrapServers() {
        return server.bootstrapServers();
    }

    /** The ZooKeeper the brokers' users live in ({@code bin/tributary users --zookeeper}). */
    public String zookeeperConnect() {
        return zookeeper.connectString();
    }

    public TestCertificates certificates() {
        return certificates;
    }

    /** Adds (or changes) the SCRAM user {@code name}, straight into ZooKeeper as {@code bin/tributary users add} does. */
    public void addUser(String name, String password) throws InterruptedException {
        addUser(zookeeper.connectString(), name, password);
    }

    private static void addUser(String connect, String name, String password) throws InterruptedException {
        try (ZkClient zk = ZkClient.connect(connect, 15_000, 15_000)) {
            ScramMechanism mechanism = ScramMechanism.forMechanismName(MECHANISM);
            new ScramUsers(zk).put(name, mechanism, ScramUsers.credential(mechanism, password, ScramUsers.DEFAULT_ITERATIONS));
        }
    }

    /** kafka-clients settings to log in as {@code user} over SASL_SSL, trusting the broker's certificate. */
    public Map<String, Object> clientSettings(String user, String password) {
        Map<String, Object> settings = new HashMap<>(certificates.clientSettings("SASL_SSL", false));
        settings.put("sasl.mechanism", MECHANISM);
        settings.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                + user + "\" password=\"" + password + "\";");
        return settings;
    }

    /** {@link #clientSettings} written as a properties file, as {@code --command-config} reads it. */
    public Path writeClientConfig(Path file, String user, String password) throws IOException {
        String text = clientSettings(user, password).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .sorted().collect(Collectors.joining("\n", "", "\n"));
        return Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /** Settings of a kafka-clients client logged in as the super user, bootstrap servers included. */
    public Map<String, Object> adminClientSettings() {
        Map<String, Object> settings = new HashMap<>(clientSettings(ADMIN, ADMIN_PASSWORD));
        settings.put("bootstrap.servers", bootstrapServers());
        return settings;
    }

    /** An Admin logged in as the super user. */
    public Admin admin() {
        return Admin.create(adminClientSettings());
    }

    /** Creates {@code topic} (replication factor 1) as the super user. */
    public void createTopic(String topic, int partitions) throws ExecutionException, InterruptedException {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        }
    }

    /** Writes {@code perPartition} records {@code k<i>}/{@code v<i>} to each partition as the super user, acknowledged by all. */
    public void produce(String topic, int partitions, int perPartition) throws ExecutionException, InterruptedException {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(adminClientSettings(), new StringSerializer(),
                new StringSerializer())) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int partition = 0; partition < partitions; partition++) {
                for (int i = 0; i < perPartition; i++) {
                    sent.add(producer.send(new ProducerRecord<>(topic, partition, "k" + i, "v" + i)));
                }
            }
            for (Future<RecordMetadata> record : sent) {
                record.get();
            }
        }
    }

    /** Allows {@code User:<user>} each of {@code operations} on the literal resource {@code name} of {@code type}. */
    public void allow(String user, ResourceType type, String name, AclOperation... operations)
            throws ExecutionException, InterruptedException {
        List<AclBinding> bindings = new ArrayList<>();
        for (AclOperation operation : operations) {
            bindings.add(new AclBinding(new ResourcePattern(type, name, PatternType.LITERAL),
                    new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW)));
        }
        try (Admin admin = admin()) {
            admin.createAcls(bindings).all().get();
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } finally {
            zookeeper.close();
        }
    }
}

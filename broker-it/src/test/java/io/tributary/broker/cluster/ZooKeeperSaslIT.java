package io.tributary.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.ExternalCommand;
import io.tributary.broker.testing.Records;
import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.ZooKeeperSessions;
import io.tributary.testkit.FreePorts;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * ZooKeeper secured as docs/operations.md says: {@code bin/tributary-zookeeper} requiring SASL (DIGEST-MD5 users in its
 * JAAS {@code Server} section), a broker logging in with the JAAS {@code Client} section and
 * {@code zookeeper.set.acl=true}, {@code bin/tributary users} with the same login. Every node the broker and the tool
 * create, through every store (topics, configs, quotas, SCRAM users, ACLs, dynamic broker configs, the
 * registration), belongs to the brokers' identity; others may read only what Kafka leaves readable. The server, the
 * broker and the tools run in JVMs of their own, since JAAS settings are per JVM. The test's own clients use
 * ZooKeeper's digest scheme (allowed by this server next to SASL): {@code super} sees everything, {@code intruder}
 * is authenticated but nobody the ACLs name.
 */
@Timeout(300)
class ZooKeeperSaslIT {
    private static final Path HOME = Path.of("..").toAbsolutePath().normalize();
    private static final String ZOOKEEPER_USER = "broker";
    private static final String ZOOKEEPER_PASSWORD = "broker-zk-secret";
    private static final Id BROKERS = new Id("sasl", ZOOKEEPER_USER);
    private static final String CHROOT = "/tributary";

    private static Path workDir;
    private static Path brokerJaas;
    private static Process zookeeper;
    /** The ZooKeeper server itself, and the cluster's chroot on it (what the brokers and the tools are given). */
    private static String zookeeperServer;
    private static String zookeeperConnect;
    private static BrokerProcess broker;
    private static String saslBootstrap;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        workDir = dir;
        Path serverJaas = Files.writeString(dir.resolve("zookeeper.jaas"), serverSection(ZOOKEEPER_USER, ZOOKEEPER_PASSWORD));
        brokerJaas = Files.writeString(dir.resolve("broker.jaas"), clientSection(ZOOKEEPER_USER, ZOOKEEPER_PASSWORD));
        int port = FreePorts.next();
        zookeeperServer = "127.0.0.1:" + port;
        zookeeperConnect = zookeeperServer + CHROOT;
        Path config = Files.writeString(dir.resolve("zookeeper.properties"), String.join("\n", "tickTime=500",
                "dataDir=" + dir.resolve("zookeeper-data"), "clientPort=" + port, "clientPortAddress=127.0.0.1", "admin.enableServer=false",
                "authProvider.sasl=org.apache.zookeeper.server.auth.SASLAuthenticationProvider",
                "enforce.auth.enabled=true", "enforce.auth.schemes=sasl,digest",
                "DigestAuthenticationProvider.superDigest=" + DigestAuthenticationProvider.generateDigest("super:super-secret"), ""));
        Path output = dir.resolve("zookeeper.out");
        ProcessBuilder script = new ProcessBuilder(HOME.resolve("bin/tributary-zookeeper").toString(), config.toString())
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(output.toFile());
        script.environment().put("TRIBUTARY_JVM_OPTS", "-Xmx128m " + jaasOption(serverJaas));
        zookeeper = script.start();
        Awaitility.await("ZooKeeper start-up line in " + output).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    assertThat(zookeeper.isAlive()).as("running; output: %s", Files.readString(output)).isTrue();
                    return Files.readString(output).contains("listening on " + zookeeperServer);
                });
        try (ZooKeeper superUser = connect(zookeeperServer, "super")) { // as an administrator creates it, before the brokers start
            superUser.create(CHROOT, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }

        ExternalCommand.Result added = tributary("users", "add", "admin", "--mechanism", "SCRAM-SHA-512", "--password", "admin-secret",
                "--zookeeper", zookeeperConnect);
        assertThat(added.exitCode()).as(added.stderr()).isZero();

        int saslPort = FreePorts.next();
        saslBootstrap = "127.0.0.1:" + saslPort;
        broker = BrokerProcess.start(Files.createDirectories(dir.resolve("broker")), Map.of(BrokerConfig.ZOOKEEPER_CONNECT, zookeeperConnect,
                BrokerConfig.ZOOKEEPER_SET_ACL, "true", BrokerConfig.LISTENERS, "SASL_PLAINTEXT://127.0.0.1:" + saslPort,
                "authorizer.class.name", "io.tributary.broker.security.AclAuthorizer", "super.users", "User:admin"),
                List.of(jaasOption(brokerJaas)));
        writeThroughEveryStore();
    }

    /** Topics, topic configs, SCRAM users, user quotas, ACLs and dynamic broker configs, each through the broker. */
    private static void writeThroughEveryStore() throws Exception {
        try (Admin admin = Clients.admin(saslBootstrap, scram("admin", "admin-secret"))) {
            admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1).configs(Map.of("retention.ms", "86400000")))).all().get();
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("alice",
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), "alice-secret"))).all().get();
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, "alice")),
                    List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 1_000_000.0))))).all().get();
            admin.createAcls(List.of(new AclBinding(new ResourcePattern(ResourceType.TOPIC, "orders", PatternType.LITERAL),
                    new AccessControlEntry("User:alice", "*", AclOperation.WRITE, AclPermissionType.ALLOW)))).all().get();
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.BROKER, ""), List.of(new AlterConfigOp(
                    new ConfigEntry("follower.replication.throttled.rate", "100000000"), AlterConfigOp.OpType.SET)))).all().get();
        }
        Awaitility.await("alice, whose credential the broker read from ZooKeeper, writes orders").atMost(Duration.ofSeconds(60))
                .ignoreExceptions().untilAsserted(() -> {
                    try (KafkaProducer<byte[], byte[]> alice = Clients.producer(saslBootstrap, scram("alice", "alice-secret"))) {
                        alice.send(new ProducerRecord<>("orders", "first".getBytes(StandardCharsets.UTF_8))).get();
                    }
                });
    }

    @AfterAll
    static void stop() throws Exception {
        if (broker != null) {
            broker.close();
        }
        if (zookeeper != null) {
            zookeeper.destroy();
            if (!zookeeper.waitFor(30, TimeUnit.SECONDS)) {
                zookeeper.destroyForcibly();
            }
        }
    }

    private static String serverSection(String user, String password) {
        return "Server {\n  org.apache.zookeeper.server.auth.DigestLoginModule required\n  user_" + user + "=\"" + password + "\";\n};\n";
    }

    private static String clientSection(String user, String password) {
        return "Client {\n  org.apache.zookeeper.server.auth.DigestLoginModule required\n  username=\"" + user + "\"\n  password=\""
                + password + "\";\n};\n";
    }

    private static String jaasOption(Path file) {
        return "-Djava.security.auth.login.config=" + file;
    }

    private static Map<String, Object> scram(String user, String password) {
        return Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "SCRAM-SHA-512", "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user + "\" password=\"" + password + "\";");
    }

    /** {@code bin/tributary ARGS}, with the brokers' ZooKeeper login as an operator would give it. */
    private static ExternalCommand.Result tributary(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(HOME.resolve("bin/tributary").toString()));
        command.addAll(List.of(args));
        return ExternalCommand.run(command, Map.of("TRIBUTARY_JVM_OPTS", "-Xmx128m " + jaasOption(brokerJaas)), workDir, "", 120);
    }

    /** A plain ZooKeeper client, logged in with ZooKeeper's digest scheme as {@code user} (none: anonymous). */
    private static ZooKeeper connect(String connectString, String user) throws IOException, InterruptedException {
        ZooKeeper client = ZooKeeperSessions.connect(connectString);
        if (user != null) {
            client.addAuthInfo("digest", (user + ":" + user + "-secret").getBytes(StandardCharsets.UTF_8));
        }
        return client;
    }

    /** The path and ACL of every node of the cluster (below the chroot, which is "/" here), walked as {@code super}. */
    private static Map<String, List<ACL>> allAcls() throws Exception {
        Map<String, List<ACL>> acls = new HashMap<>();
        try (ZooKeeper superUser = connect(zookeeperConnect, "super")) {
            collect(superUser, "/", acls);
        }
        return acls;
    }

    private static void collect(ZooKeeper client, String path, Map<String, List<ACL>> acls) throws Exception {
        acls.put(path, client.getACL(path, null));
        for (String child : client.getChildren(path, false)) {
            collect(client, (path.equals("/") ? "" : path) + "/" + child, acls);
        }
    }

    private static void assertSecured(Map<String, List<ACL>> acls) {
        ACL brokersAll = new ACL(ZooDefs.Perms.ALL, BROKERS);
        ACL anyoneReads = new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE);
        assertThat(acls).containsKeys("/brokers/ids/0", "/brokers/topics/orders", "/config/topics/orders", "/config/users/admin",
                "/config/users/alice", "/config/brokers/<default>", "/kafka-acl/Topic/orders", "/controller", "/cluster/id");
        acls.forEach((path, acl) -> {
            if (path.equals("/")) {
                return; // the chroot: an administrator's, until the migration tool secures it
            }
            boolean sensitive = path.startsWith("/config/users") || path.startsWith("/config/brokers");
            assertThat(acl).as(path).containsExactlyInAnyOrderElementsOf(sensitive ? List.of(brokersAll) : List.of(brokersAll, anyoneReads));
        });
    }

    @Test
    void everyNodeTheBrokerAndTheToolCreatedIsTheBrokersAndOthersReadAllButCredentialsAndBrokerConfigs() throws Exception {
        assertSecured(allAcls());
    }

    @Test
    void anotherIdentityCannotReadCredentialsNorChangeWhatTheBrokersWrote() throws Exception {
        try (ZooKeeper intruder = connect(zookeeperConnect, "intruder")) {
            assertThatThrownBy(() -> intruder.getData("/config/users/alice", false, null)).isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> intruder.getChildren("/config/users", false)).isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> intruder.getData("/config/brokers/<default>", false, null)).isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> intruder.setData("/brokers/topics/orders", new byte[0], -1)).isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> intruder.create("/brokers/ids/2", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL))
                    .isInstanceOf(KeeperException.NoAuthException.class);
            assertThatThrownBy(() -> intruder.delete("/kafka-acl/Topic/orders", -1)).isInstanceOf(KeeperException.NoAuthException.class);
            // as in Kafka, what is not secret stays readable
            assertThat(new String(intruder.getData("/brokers/topics/orders", false, null), StandardCharsets.UTF_8)).contains("partitions");
        }
    }

    @Test
    void aClientThatHasNotLoggedInIsServedNothing() throws Exception {
        try (ZooKeeper anonymous = connect(zookeeperConnect, null)) {
            assertThatThrownBy(() -> anonymous.getChildren("/brokers/ids", false))
                    .isInstanceOf(KeeperException.SessionClosedRequireAuthException.class);
        }
    }

    @Test
    void theMigrationToolOpensAndSecuresTheNodesOfARunningCluster() throws Exception {
        ExternalCommand.Result opened = tributary("zookeeper-security-migration", "--zookeeper.acl", "unsecure",
                "--zookeeper.connect", zookeeperConnect);
        assertThat(opened.exitCode()).as(opened.stderr()).isZero();
        assertThat(allAcls().values()).allSatisfy(acl -> assertThat(acl).isEqualTo(ZooDefs.Ids.OPEN_ACL_UNSAFE));
        try (ZooKeeper intruder = connect(zookeeperConnect, "intruder")) {
            assertThat(intruder.getData("/config/users/alice", false, null)).isNotEmpty();
        }

        ExternalCommand.Result secured = tributary("zookeeper-security-migration", "--zookeeper.acl", "secure",
                "--zookeeper.connect", zookeeperConnect);
        assertThat(secured.exitCode()).as(secured.stderr()).isZero();
        assertThat(secured.stdout()).containsPattern("\\d+ nodes secured at " + zookeeperConnect);
        Map<String, List<ACL>> acls = allAcls();
        assertSecured(acls);
        assertThat(acls.get("/")).containsExactlyInAnyOrder(new ACL(ZooDefs.Perms.ALL, BROKERS), new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE));
        try (KafkaProducer<byte[], byte[]> alice = Clients.producer(saslBootstrap, scram("alice", "alice-secret"))) {
            alice.send(new ProducerRecord<>("orders", "after the migration".getBytes(StandardCharsets.UTF_8))).get();
        }
    }

    @Test
    void aBrokerWithAWrongZooKeeperPasswordStopsAtStartUpSayingSo() throws Exception {
        Path wrong = Files.writeString(workDir.resolve("wrong.jaas"), clientSection(ZOOKEEPER_USER, "guess"));
        Path dir = Files.createDirectories(workDir.resolve("wrong-password"));
        assertThatThrownBy(() -> BrokerProcess.start(dir, Map.of(BrokerConfig.BROKER_ID, "2", BrokerConfig.ZOOKEEPER_CONNECT,
                zookeeperConnect, BrokerConfig.ZOOKEEPER_SET_ACL, "true"), List.of(jaasOption(wrong))))
                .hasMessageContaining("exited with 1");
        assertThat(Files.readString(dir.resolve("broker.log"))).contains("refused the SASL login of JAAS section Client");
    }

    @Test
    void setAclWithoutAZooKeeperLoginIsAConfigurationError(@TempDir Path dir) {
        assertThatThrownBy(() -> TestBroker.start(dir, Map.of(BrokerConfig.ZOOKEEPER_SET_ACL, "true")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(BrokerConfig.ZOOKEEPER_SET_ACL).hasMessageContaining("no Client section");
    }

    @Test
    void theEmbeddedZooKeeperServesOnlySaslLoginsWhenTheJaasFileHasAServerSection(@TempDir Path dir) throws Exception {
        Path jaas = Files.writeString(dir.resolve("embedded.jaas"), serverSection(ZOOKEEPER_USER, ZOOKEEPER_PASSWORD)
                + clientSection(ZOOKEEPER_USER, ZOOKEEPER_PASSWORD));
        int port = FreePorts.next();
        try (BrokerProcess embedded = BrokerProcess.start(dir, Map.of(BrokerConfig.ZOOKEEPER_EMBEDDED_PORT, Integer.toString(port),
                BrokerConfig.ZOOKEEPER_SET_ACL, "true"), List.of(jaasOption(jaas)))) {
            try (KafkaProducer<byte[], byte[]> producer = Clients.producer(embedded.bootstrapServers())) {
                producer.send(new ProducerRecord<>("auto-created", "through ZooKeeper".getBytes(StandardCharsets.UTF_8))).get();
            }
            assertThat(Records.readAll(embedded.bootstrapServers(), "auto-created", Duration.ofSeconds(30))).hasSize(1);
            try (ZooKeeper anonymous = connect("127.0.0.1:" + port, null)) {
                assertThatThrownBy(() -> anonymous.getChildren("/brokers/ids", false)).isInstanceOf(KeeperException.class);
            }
        }
    }
}

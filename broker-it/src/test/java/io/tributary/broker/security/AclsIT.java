package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.ExternalCommand;
import io.tributary.broker.testing.Records;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.CreateDelegationTokenOptions;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionReplica;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.DelegationTokenAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.LogDirNotFoundException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.apache.kafka.tools.AclCommand;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker with {@code authorizer.class.name} set, one SASL_PLAINTEXT listener and three PLAIN users: {@code admin}
 * (a super user), {@code alice} (given ACLs with Apache Kafka's own {@code kafka-acls}) and {@code bob} (given
 * nothing, or less than he needs). Real kafka-clients producers, consumers and admins get exactly what the ACLs
 * allow, with Kafka's errors, and a refused write appends nothing.
 */
@Timeout(300)
class AclsIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private static Path workDir;
    private static TestBroker broker;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        workDir = dir;
        Map<String, String> settings = AuthorizedPlainBroker.settings("alice", "bob", "dave", "erin", "frank", "gina");
        settings.put("offsets.topic.replication.factor", "1");
        settings.put("offsets.topic.num.partitions", "3");
        settings.put("group.initial.rebalance.delay.ms", "0");
        settings.put("transaction.state.log.replication.factor", "1");
        settings.put("transaction.state.log.min.isr", "1");
        settings.put("transaction.state.log.num.partitions", "3");
        settings.put("delegation.token.secret.key", "token-secret");
        broker = TestBroker.start(dir, settings);
        try (Admin admin = Clients.admin(bootstrap(), user("admin"))) {
            admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1), new NewTopic("audit", 1, (short) 1))).all().get();
        }
        Path adminConfig = dir.resolve("admin.properties");
        Files.writeString(adminConfig, user("admin").entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n", "", "\n")));
        kafkaAcls("--add", "--allow-principal", "User:alice", "--producer", "--topic", "orders");
        kafkaAcls("--add", "--allow-principal", "User:alice", "--consumer", "--topic", "orders", "--group", "orders-readers");
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private static String bootstrap() {
        return broker.bootstrapServers("SASL_PLAINTEXT");
    }

    private static Map<String, Object> user(String name) {
        return AuthorizedPlainBroker.user(name);
    }

    /** Apache Kafka's kafka-acls (kafka-tools 4.4) in a JVM of its own, as the super user. */
    private static ExternalCommand.Result kafkaAcls(String... args) throws Exception {
        ExternalCommand.Result result = kafkaAclsAs("admin.properties", args);
        assertThat(result.exitCode()).as("kafka-acls %s: %s %s", String.join(" ", args), result.stdout(), result.stderr()).isZero();
        return result;
    }

    private static ExternalCommand.Result kafkaAclsAs(String commandConfig, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), AclCommand.class.getName(),
                "--bootstrap-server", bootstrap(), "--command-config", workDir.resolve(commandConfig).toString()));
        command.addAll(List.of(args));
        return ExternalCommand.run(command, workDir, "", 120);
    }

    private static Map<String, Object> plainProducer() {
        return Map.of("enable.idempotence", false, "acks", "1", "retries", 0, "max.block.ms", 10_000);
    }

    @Test
    void kafkaAclsAddsListsAndRemovesLiteralAndPrefixedAcls() throws Exception {
        kafkaAcls("--add", "--allow-principal", "User:carol", "--operation", "Read", "--topic", "audit");
        kafkaAcls("--add", "--deny-principal", "User:carol", "--operation", "Write", "--resource-pattern-type", "prefixed",
                "--topic", "aud");

        String literal = kafkaAcls("--list", "--topic", "audit").stdout();
        assertThat(literal).contains("name=audit", "patternType=LITERAL", "principal=User:carol", "operation=READ", "permissionType=ALLOW");
        String prefixed = kafkaAcls("--list", "--resource-pattern-type", "prefixed", "--topic", "aud").stdout();
        assertThat(prefixed).contains("name=aud", "patternType=PREFIXED", "operation=WRITE", "permissionType=DENY");

        kafkaAcls("--remove", "--force", "--allow-principal", "User:carol", "--operation", "Read", "--topic", "audit");
        kafkaAcls("--remove", "--force", "--resource-pattern-type", "prefixed", "--topic", "aud");
        assertThat(kafkaAcls("--list", "--principal", "User:carol").stdout()).doesNotContain("principal=User:carol");
        assertThat(kafkaAcls("--list").stdout()).contains("name=orders").contains("name=orders-readers");

        Files.writeString(workDir.resolve("bob.properties"), "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
                + "sasl.jaas.config=" + user("bob").get("sasl.jaas.config") + "\n");
        try (Admin admin = Clients.admin(bootstrap(), user("admin"))) {
            AccessControlEntry anyone = new AccessControlEntry("User:carol", "*", AclOperation.ALTER, AclPermissionType.ALLOW);
            var otherCluster = admin.createAcls(List.of(new AclBinding(new ResourcePattern(ResourceType.CLUSTER, "other-cluster",
                    PatternType.LITERAL), anyone))).all();
            assertThatThrownBy(otherCluster::get).hasCauseInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("kafka-cluster");
            var noName = admin.createAcls(List.of(new AclBinding(new ResourcePattern(ResourceType.TOPIC, "", PatternType.LITERAL),
                    anyone))).all();
            assertThatThrownBy(noName::get).hasCauseInstanceOf(InvalidRequestException.class);
        }
        ExternalCommand.Result refused = kafkaAclsAs("bob.properties", "--add", "--allow-principal", "User:bob", "--operation", "All",
                "--topic", "orders");
        assertThat(refused.stdout() + refused.stderr()).contains("ClusterAuthorizationException");
    }

    @Test
    void producersAndConsumersGetExactlyWhatTheirAclsAllow() throws Exception {
        try (KafkaProducer<byte[], byte[]> alice = Clients.producer(bootstrap(), user("alice"))) {
            for (int i = 0; i < 20; i++) {
                alice.send(new ProducerRecord<>("orders", ("order-" + i).getBytes(StandardCharsets.UTF_8))).get();
            }
        }
        Map<String, Object> bobProducing = new HashMap<>(user("bob"));
        bobProducing.putAll(plainProducer());
        try (KafkaProducer<byte[], byte[]> bob = Clients.producer(bootstrap(), bobProducing)) {
            var refused = bob.send(new ProducerRecord<>("orders", "forged".getBytes(StandardCharsets.UTF_8)));
            assertThatThrownBy(refused::get).hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        try (KafkaConsumer<byte[], byte[]> bob = Clients.consumer(bootstrap(), user("bob"))) {
            bob.assign(List.of(new TopicPartition("orders", 0)));
            bob.seekToBeginning(List.of(new TopicPartition("orders", 0)));
            assertThatThrownBy(() -> bob.poll(Duration.ofSeconds(10))).isInstanceOf(TopicAuthorizationException.class);
        }

        Map<String, Object> aliceInGroup = new HashMap<>(user("alice"));
        aliceInGroup.put("group.id", "orders-readers");
        List<String> read = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> alice = Clients.consumer(bootstrap(), aliceInGroup)) {
            alice.subscribe(List.of("orders"));
            Awaitility.await("alice reads her orders").atMost(TIMEOUT).until(() -> {
                for (ConsumerRecord<byte[], byte[]> record : alice.poll(Duration.ofMillis(200))) {
                    read.add(new String(record.value(), StandardCharsets.UTF_8));
                }
                return read.size() >= 20;
            });
            alice.commitSync();
        }
        assertThat(read).hasSize(20).doesNotContain("forged");
        assertThat(Records.readAll(bootstrap(), "orders", TIMEOUT, user("admin"))).as("bob appended nothing").hasSize(20);
    }

    @Test
    void aDeniedAcksZeroProduceClosesTheConnectionAndAppendsNothing() throws Exception {
        try (Admin admin = Clients.admin(bootstrap(), user("admin"))) {
            admin.createTopics(List.of(new NewTopic("signals", 1, (short) 1))).all().get();
        }
        kafkaAcls("--add", "--allow-principal", "User:alice", "--operation", "Write", "--topic", "signals");
        kafkaAcls("--add", "--allow-principal", "User:erin", "--operation", "Describe", "--topic", "signals");
        long endBefore = endOffset("signals");
        Map<String, Object> fireAndForget = Map.of("enable.idempotence", false, "acks", "0", "max.block.ms", 10_000);
        Map<String, Object> alice = new HashMap<>(user("alice"));
        alice.putAll(fireAndForget);
        try (KafkaProducer<byte[], byte[]> allowed = Clients.producer(bootstrap(), alice)) {
            allowed.send(new ProducerRecord<>("signals", "quiet".getBytes(StandardCharsets.UTF_8))).get();
            allowed.flush();
            Awaitility.await("alice's record appended").atMost(TIMEOUT).until(() -> endOffset("signals") == endBefore + 1);
            assertThat(connectionsClosed(allowed)).as("an allowed acks=0 produce keeps its connection").isZero();
        }
        Map<String, Object> erin = new HashMap<>(user("erin"));
        erin.putAll(fireAndForget);
        try (KafkaProducer<byte[], byte[]> denied = Clients.producer(bootstrap(), erin)) {
            denied.send(new ProducerRecord<>("signals", "forged".getBytes(StandardCharsets.UTF_8))).get(); // acks=0: no answer
            denied.flush();
            // Kafka closes the connection: a client that gets no response can learn of the refusal no other way.
            Awaitility.await("the broker closes erin's connection").atMost(TIMEOUT).until(() -> connectionsClosed(denied) >= 1);
        }
        assertThat(endOffset("signals")).as("erin appended nothing").isEqualTo(endBefore + 1);
    }

    private static long endOffset(String topic) throws Exception {
        try (Admin admin = Clients.admin(bootstrap(), user("admin"))) {
            TopicPartition partition = new TopicPartition(topic, 0);
            return admin.listOffsets(Map.of(partition, OffsetSpec.latest())).partitionResult(partition).get().offset();
        }
    }

    private static double connectionsClosed(KafkaProducer<byte[], byte[]> producer) {
        return producer.metrics().values().stream()
                .filter(metric -> metric.metricName().name().equals("connection-close-total")
                        && metric.metricName().group().equals("producer-metrics"))
                .mapToDouble(metric -> (Double) metric.metricValue()).sum();
    }

    @Test
    void anIdempotentProducerNeedsWriteOnSomeTopicAndAPlainOneWriteOnItsTopic() throws Exception {
        try (Admin admin = Clients.admin(bootstrap(), user("admin"))) {
            admin.createTopics(List.of(new NewTopic("ledger", 1, (short) 1))).all().get();
        }
        kafkaAcls("--add", "--allow-principal", "User:dave", "--operation", "Describe", "--topic", "ledger");
        try (KafkaProducer<byte[], byte[]> dave = Clients.producer(bootstrap(), user("dave"))) {
            // The producer asks for its id as it starts: if the refusal arrives before send(), send() itself throws
            // (the producer is then in an error state, caused by the refusal); otherwise the future fails with it.
            assertThatThrownBy(() -> dave.send(new ProducerRecord<>("ledger", "entry".getBytes(StandardCharsets.UTF_8))).get())
                    .as("InitProducerId: neither IDEMPOTENT_WRITE nor WRITE on any topic")
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
        }
        Map<String, Object> davePlain = new HashMap<>(user("dave"));
        davePlain.putAll(plainProducer());
        try (KafkaProducer<byte[], byte[]> dave = Clients.producer(bootstrap(), davePlain)) {
            var refused = dave.send(new ProducerRecord<>("ledger", "entry".getBytes(StandardCharsets.UTF_8)));
            assertThatThrownBy(refused::get).hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        kafkaAcls("--add", "--allow-principal", "User:dave", "--operation", "Write", "--topic", "ledger");
        try (KafkaProducer<byte[], byte[]> dave = Clients.producer(bootstrap(), user("dave"))) {
            dave.send(new ProducerRecord<>("ledger", "entry".getBytes(StandardCharsets.UTF_8))).get();
        }
        assertThat(Records.readAll(bootstrap(), "ledger", TIMEOUT, user("admin"))).hasSize(1);
    }

    @Test
    void aTransactionalProducerNeedsWriteOnItsTransactionalId() throws Exception {
        try (Admin admin = Clients.admin(bootstrap(), user("admin"))) {
            admin.createTopics(List.of(new NewTopic("payments", 1, (short) 1))).all().get();
        }
        kafkaAcls("--add", "--allow-principal", "User:erin", "--operation", "Write", "--topic", "payments");
        Map<String, Object> transactional = new HashMap<>(user("erin"));
        transactional.put("transactional.id", "payments-tx");
        transactional.put("max.block.ms", 30_000);
        try (KafkaProducer<byte[], byte[]> erin = Clients.producer(bootstrap(), transactional)) {
            assertThatThrownBy(erin::initTransactions).isInstanceOf(TransactionalIdAuthorizationException.class);
        }
        kafkaAcls("--add", "--allow-principal", "User:erin", "--operation", "Write", "--transactional-id", "payments-tx");
        try (KafkaProducer<byte[], byte[]> erin = Clients.producer(bootstrap(), transactional)) {
            erin.initTransactions();
            erin.beginTransaction();
            erin.send(new ProducerRecord<>("payments", "paid".getBytes(StandardCharsets.UTF_8)));
            erin.commitTransaction();
        }
        assertThat(Records.readAll(bootstrap(), "payments", TIMEOUT, user("admin"))).hasSize(1);
    }

    @Test
    void aGroupWithoutAnAclIsRefusedEvenWithTheTopicReadable() throws Exception {
        kafkaAcls("--add", "--allow-principal", "User:bob", "--operation", "Read", "--topic", "audit");
        Map<String, Object> bobInGroup = new HashMap<>(user("bob"));
        bobInGroup.put("group.id", "bobs-group");
        try (KafkaConsumer<byte[], byte[]> bob = Clients.consumer(bootstrap(), bobInGroup)) {
            bob.subscribe(List.of("audit"));
            assertThatThrownBy(() -> bob.poll(Duration.ofSeconds(20))).isInstanceOf(GroupAuthorizationException.class);
        }
        try (Admin bob = Clients.admin(bootstrap(), user("bob")); Admin alice = Clients.admin(bootstrap(), user("alice"))) {
            assertThatThrownBy(() -> bob.listConsumerGroupOffsets("orders-readers").partitionsToOffsetAndMetadata().get())
                    .hasCauseInstanceOf(GroupAuthorizationException.class);
        }
    }

    @Test
    void metadataAutoCreatesOnlyTheTopicsThePrincipalMayCreate() throws Exception {
        kafkaAcls("--add", "--allow-principal", "User:frank", "--operation", "Create", "--operation", "Write", "--topic", "made-by-frank");
        kafkaAcls("--add", "--allow-principal", "User:frank", "--operation", "Write", "--topic", "not-for-frank");
        Map<String, Object> frank = new HashMap<>(user("frank"));
        frank.putAll(plainProducer());
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(bootstrap(), frank)) {
            assertThat(producer.partitionsFor("made-by-frank")).as("created by Metadata").hasSize(1);
            // Refused at once (TOPIC_AUTHORIZATION_FAILED, as Kafka), not reported unknown until max.block.ms runs out.
            assertThatThrownBy(() -> producer.partitionsFor("not-for-frank")).isInstanceOf(TopicAuthorizationException.class);
        }
        try (Admin admin = Clients.admin(bootstrap(), user("admin"))) {
            assertThat(admin.listTopics().names().get()).contains("made-by-frank").doesNotContain("not-for-frank");
        }
    }

    @Test
    void describeCallsReturnTheAuthorizedOperationsWhenAsked() throws Exception {
        try (Admin alice = Clients.admin(bootstrap(), user("alice")); Admin admin = Clients.admin(bootstrap(), user("admin"))) {
            TopicDescription orders = alice.describeTopics(List.of("orders"), new DescribeTopicsOptions().includeAuthorizedOperations(true))
                    .allTopicNames().get().get("orders");
            assertThat(orders.authorizedOperations()).as("--producer and --consumer ACLs")
                    .containsExactlyInAnyOrder(AclOperation.READ, AclOperation.WRITE, AclOperation.CREATE, AclOperation.DESCRIBE);
            assertThat(alice.describeTopics(List.of("orders")).allTopicNames().get().get("orders").authorizedOperations())
                    .as("not asked").isNull();

            assertThat(alice.describeCluster(new DescribeClusterOptions().includeAuthorizedOperations(true)).authorizedOperations().get())
                    .as("no ACL on the cluster").isEmpty();
            assertThat(admin.describeCluster(new DescribeClusterOptions().includeAuthorizedOperations(true)).authorizedOperations().get())
                    .as("a super user").containsExactlyInAnyOrder(AclOperation.CREATE, AclOperation.CLUSTER_ACTION,
                            AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS, AclOperation.IDEMPOTENT_WRITE,
                            AclOperation.ALTER, AclOperation.DESCRIBE);

            ConsumerGroupDescription group = alice.describeConsumerGroups(List.of("orders-readers"),
                    new DescribeConsumerGroupsOptions().includeAuthorizedOperations(true)).describedGroups().get("orders-readers").get();
            assertThat(group.authorizedOperations()).containsExactlyInAnyOrder(AclOperation.READ, AclOperation.DESCRIBE);
        }
    }

    @Test
    void alterReplicaLogDirsNeedsAlterOnTheCluster() throws Exception {
        try (Admin admin = Clients.admin(bootstrap(), user("admin"))) {
            admin.createAcls(List.of(new AclBinding(new ResourcePattern(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL),
                    new AccessControlEntry("User:gina", "*", AclOperation.ALTER, AclPermissionType.ALLOW)))).all().get();
        }
        try (Admin bob = Clients.admin(bootstrap(), user("bob")); Admin gina = Clients.admin(bootstrap(), user("gina"))) {
            int broker = bob.describeCluster().nodes().get().iterator().next().id();
            Map<TopicPartitionReplica, String> move = Map.of(new TopicPartitionReplica("orders", 0, broker), "/elsewhere");
            assertThatThrownBy(() -> bob.alterReplicaLogDirs(move).all().get()).hasCauseInstanceOf(ClusterAuthorizationException.class);
            Awaitility.await("gina may alter the cluster").atMost(TIMEOUT).untilAsserted(() ->
                    assertThatThrownBy(() -> gina.alterReplicaLogDirs(move).all().get()).as("past the authorization")
                            .hasCauseInstanceOf(LogDirNotFoundException.class));
        }
    }

    @Test
    void metadataListsOnlyDescribableTopicsAndAdminApisNeedTheirAcls() throws Exception {
        try (Admin bob = Clients.admin(bootstrap(), user("bob")); Admin alice = Clients.admin(bootstrap(), user("alice"))) {
            assertThat(alice.listTopics().names().get()).contains("orders").doesNotContain("__consumer_offsets");
            assertThat(bob.listTopics().names().get()).doesNotContain("orders");
            assertThatThrownBy(() -> bob.describeTopics(List.of("orders")).allTopicNames().get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
            assertThatThrownBy(() -> bob.createTopics(List.of(new NewTopic("bobs-topic", 1, (short) 1))).all().get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
            assertThatThrownBy(() -> bob.deleteTopics(List.of("orders")).all().get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
            assertThatThrownBy(() -> bob.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, "orders"))).all().get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
            assertThatThrownBy(() -> bob.describeUserScramCredentials().all().get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
            assertThat(bob.describeCluster().nodes().get()).as("DescribeCluster needs no ACL, as in Kafka").hasSize(1);
        }
        try (Admin admin = Clients.admin(bootstrap(), user("admin"))) {
            assertThat(admin.listTopics().names().get()).contains("orders", "audit").doesNotContain("bobs-topic");
        }
    }

    /**
     * KIP-373: a token for another owner needs CREATE_TOKENS on that user; DescribeDelegationToken shows a principal
     * the tokens it owns, and others' only with DESCRIBE_TOKENS on their owner (or DESCRIBE on the token).
     */
    @Test
    void aTokenForAnotherOwnerNeedsCreateTokensAndOthersTokensAreDescribedOnlyWithDescribeTokens() throws Exception {
        KafkaPrincipal hank = new KafkaPrincipal("User", "hank");
        CreateDelegationTokenOptions forHank = new CreateDelegationTokenOptions().owner(hank);
        try (Admin admin = Clients.admin(bootstrap(), user("admin")); Admin erin = Clients.admin(bootstrap(), user("erin"));
             Admin frank = Clients.admin(bootstrap(), user("frank"))) {
            assertThatThrownBy(() -> erin.createDelegationToken(forHank).delegationToken().get())
                    .hasCauseInstanceOf(DelegationTokenAuthorizationException.class);
            DelegationToken own = frank.createDelegationToken().delegationToken().get();
            admin.createAcls(List.of(new AclBinding(new ResourcePattern(ResourceType.USER, "User:hank", PatternType.LITERAL),
                    new AccessControlEntry("User:erin", "*", AclOperation.CREATE_TOKENS, AclPermissionType.ALLOW)))).all().get();
            DelegationToken hanks = Awaitility.await("erin may create hank's tokens").atMost(TIMEOUT).ignoreExceptions()
                    .until(() -> erin.createDelegationToken(forHank).delegationToken().get(), token -> true);
            assertThat(hanks.tokenInfo().owner()).isEqualTo(hank);
            assertThat(hanks.tokenInfo().tokenRequester()).isEqualTo(new KafkaPrincipal("User", "erin"));

            assertThat(frank.describeDelegationToken().delegationTokens().get()).extracting(t -> t.tokenInfo().tokenId())
                    .containsExactly(own.tokenInfo().tokenId());
            admin.createAcls(List.of(new AclBinding(new ResourcePattern(ResourceType.USER, "User:hank", PatternType.LITERAL),
                    new AccessControlEntry("User:frank", "*", AclOperation.DESCRIBE_TOKENS, AclPermissionType.ALLOW)))).all().get();
            Awaitility.await("frank sees hank's token").atMost(TIMEOUT).untilAsserted(() ->
                    assertThat(frank.describeDelegationToken().delegationTokens().get()).extracting(t -> t.tokenInfo().tokenId())
                            .containsExactlyInAnyOrder(own.tokenInfo().tokenId(), hanks.tokenInfo().tokenId()));
        }
    }
}

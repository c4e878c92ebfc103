package io.tributary.broker.security;

import static org.apache.kafka.common.acl.AclOperation.ALL;
import static org.apache.kafka.common.acl.AclOperation.ALTER_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;
import static org.apache.kafka.common.acl.AclPermissionType.ALLOW;
import static org.apache.kafka.common.acl.AclPermissionType.DENY;
import static org.apache.kafka.common.resource.ResourceType.GROUP;
import static org.apache.kafka.common.resource.ResourceType.TOPIC;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.testing.FakeTime;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.utils.Time;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The authorizer against a real ZooKeeper server: Kafka's decision rules, Kafka's node layout and format, and a
 * second authorizer (another broker) that learns of each change through the notifications.
 */
@Timeout(60)
class AclAuthorizerTest {
    private static final KafkaPrincipal ALICE = new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "alice");
    private static final KafkaPrincipal BOB = new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "bob");
    private static final KafkaPrincipal ADMIN = new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "admin");
    private static final String HOST = "127.0.0.1";

    @TempDir
    Path dir;
    private EmbeddedZooKeeper server;
    private ZkClient zk;
    private AclAuthorizer authorizer;

    @BeforeEach
    void start() throws Exception {
        server = EmbeddedZooKeeper.start(dir, 0);
        zk = ZkClient.connect(server.connectString(), 10_000, 10_000);
        authorizer = start(false);
    }

    private AclAuthorizer start(boolean allowEveryoneIfNoAclFound) throws InterruptedException {
        return AclAuthorizer.start(zk, Set.of(ADMIN), allowEveryoneIfNoAclFound, Time.SYSTEM, 10_000);
    }

    @AfterEach
    void stop() {
        authorizer.close();
        zk.close();
        server.close();
    }

    private static AclBinding acl(ResourcePattern pattern, String principal, String host, AclOperation operation, AclPermissionType permission) {
        return new AclBinding(pattern, new AccessControlEntry(principal, host, operation, permission));
    }

    private static ResourcePattern topic(String name) {
        return new ResourcePattern(TOPIC, name, PatternType.LITERAL);
    }

    @Test
    void withoutAclsOnlySuperUsersMayUnlessEveryoneIsAllowed() throws Exception {
        assertThat(authorizer.authorize(ADMIN, HOST, WRITE, TOPIC, "orders")).isTrue();
        assertThat(authorizer.authorize(ALICE, HOST, WRITE, TOPIC, "orders")).isFalse();
        try (AclAuthorizer open = start(true)) {
            assertThat(open.authorize(ALICE, HOST, WRITE, TOPIC, "orders")).isTrue();
            open.create(List.of(acl(topic("orders"), "User:bob", "*", READ, ALLOW)));
            assertThat(open.authorize(ALICE, HOST, WRITE, TOPIC, "orders")).as("the topic has ACLs now").isFalse();
        }
    }

    @Test
    void anAllowGrantsItsOperationAndTheOnesItImplies() {
        authorizer.create(List.of(acl(topic("orders"), "User:alice", "*", WRITE, ALLOW),
                acl(topic("orders"), "User:bob", "*", ALTER_CONFIGS, ALLOW)));

        assertThat(authorizer.authorize(ALICE, HOST, WRITE, TOPIC, "orders")).isTrue();
        assertThat(authorizer.authorize(ALICE, HOST, DESCRIBE, TOPIC, "orders")).isTrue();
        assertThat(authorizer.authorize(ALICE, HOST, READ, TOPIC, "orders")).isFalse();
        assertThat(authorizer.authorize(BOB, HOST, DESCRIBE_CONFIGS, TOPIC, "orders")).isTrue();
        assertThat(authorizer.authorize(BOB, HOST, DESCRIBE, TOPIC, "orders")).isFalse();
        assertThat(authorizer.authorize(ALICE, HOST, WRITE, TOPIC, "other")).isFalse();
    }

    @Test
    void aDenyWinsOverEveryAllowAndHostsMustMatch() {
        ResourcePattern prefixed = new ResourcePattern(TOPIC, "sales-", PatternType.PREFIXED);
        authorizer.create(List.of(acl(prefixed, "User:*", "*", ALL, ALLOW),
                acl(topic("sales-secret"), "User:alice", "*", READ, DENY),
                acl(topic("*"), "User:bob", "10.0.0.9", WRITE, ALLOW)));

        assertThat(authorizer.authorize(ALICE, HOST, READ, TOPIC, "sales-eu")).isTrue();
        assertThat(authorizer.authorize(ALICE, HOST, READ, TOPIC, "sales-secret")).isFalse();
        assertThat(authorizer.authorize(BOB, HOST, READ, TOPIC, "sales-secret")).isTrue();
        assertThat(authorizer.authorize(ALICE, HOST, READ, TOPIC, "marketing")).isFalse();
        assertThat(authorizer.authorize(BOB, HOST, WRITE, TOPIC, "marketing")).as("allowed from 10.0.0.9 only").isFalse();
        assertThat(authorizer.authorize(BOB, "10.0.0.9", WRITE, TOPIC, "marketing")).isTrue();
        assertThat(authorizer.authorize(ALICE, HOST, READ, GROUP, "sales-")).as("another resource type").isFalse();
        assertThat(authorizer.authorizeAny(BOB, "10.0.0.9", WRITE, TOPIC)).isTrue();
        assertThat(authorizer.authorizeAny(ALICE, HOST, WRITE, TOPIC)).isTrue();
        assertThat(authorizer.authorizeAny(ALICE, HOST, WRITE, GROUP)).isFalse();
    }

    @Test
    void onSomeResourceOfATypeIsDecidedAsKafkaDecidesIt() throws Exception {
        try (AclAuthorizer open = start(true)) {
            open.create(List.of(acl(new ResourcePattern(org.apache.kafka.common.resource.ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL),
                    "User:admin", "*", ALL, ALLOW)));
            assertThat(open.authorizeAny(BOB, HOST, WRITE, TOPIC))
                    .as("no topic has ACLs and everyone is allowed where none are found").isTrue();
        }
        authorizer.create(List.of(acl(topic("orders"), "User:alice", "*", WRITE, ALLOW),
                acl(topic("orders"), "User:alice", "*", WRITE, DENY),
                acl(topic("public"), "User:bob", "*", WRITE, ALLOW),
                acl(topic("secret-x"), "User:bob", "*", WRITE, ALLOW),
                acl(new ResourcePattern(TOPIC, "secret-", PatternType.PREFIXED), "User:*", "*", WRITE, DENY)));
        assertThat(authorizer.authorizeAny(ALICE, HOST, WRITE, TOPIC)).as("her only ALLOW is denied on the same name").isFalse();
        assertThat(authorizer.authorizeAny(BOB, HOST, WRITE, TOPIC)).as("public is not under the denied prefix").isTrue();
        authorizer.delete(new AclBindingFilter(topic("public").toFilter(), AccessControlEntryFilter.ANY));
        assertThat(authorizer.authorizeAny(BOB, HOST, WRITE, TOPIC)).as("secret-x is under the denied prefix").isFalse();
    }

    @Test
    void aclsAreStoredInKafkasLayoutAndAnnounced() {
        authorizer.create(List.of(acl(topic("orders"), "User:alice", "*", READ, ALLOW),
                acl(new ResourcePattern(GROUP, "etl-", PatternType.PREFIXED), "User:alice", "*", READ, ALLOW)));

        assertThat(new String(zk.read("/kafka-acl/Topic/orders").orElseThrow().data(), StandardCharsets.UTF_8)).isEqualTo(
                "{\"version\":1,\"acls\":[{\"principal\":\"User:alice\",\"permissionType\":\"Allow\",\"operation\":\"Read\",\"host\":\"*\"}]}");
        assertThat(zk.read("/kafka-acl-extended/prefixed/Group/etl-")).isPresent();
        List<String> literalChanges = zk.children(AclStore.LITERAL_CHANGES_PATH);
        assertThat(literalChanges).hasSize(1).allMatch(name -> name.matches("acl_changes_\\d{10}"));
        assertThat(new String(zk.read(AclStore.LITERAL_CHANGES_PATH + "/" + literalChanges.get(0)).orElseThrow().data(),
                StandardCharsets.UTF_8)).isEqualTo("Topic:orders");
        String extended = zk.children(AclStore.EXTENDED_CHANGES_PATH).get(0);
        assertThat(new String(zk.read(AclStore.EXTENDED_CHANGES_PATH + "/" + extended).orElseThrow().data(), StandardCharsets.UTF_8))
                .isEqualTo("{\"version\":1,\"resourceType\":\"GROUP\",\"name\":\"etl-\",\"patternType\":\"PREFIXED\"}");
    }

    @Test
    void announcementsOlderThanFifteenMinutesAreDeletedWithTheNextChangeAndTheAclsStay() throws Exception {
        FakeTime clock = new FakeTime();
        clock.sleep(System.currentTimeMillis() - clock.milliseconds());
        authorizer.create(List.of(acl(topic("orders"), "User:alice", "*", WRITE, ALLOW)));
        try (AclAuthorizer otherBroker = AclAuthorizer.start(zk, Set.of(ADMIN), false, clock, 10_000)) {
            assertThat(zk.children(AclStore.LITERAL_CHANGES_PATH)).as("a fresh announcement stays").hasSize(1);

            clock.sleep(Duration.ofMinutes(16).toMillis());
            authorizer.create(List.of(acl(topic("orders"), "User:bob", "*", READ, ALLOW)));

            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> otherBroker.authorize(BOB, HOST, READ, TOPIC, "orders")
                    && zk.children(AclStore.LITERAL_CHANGES_PATH).isEmpty());
            assertThat(otherBroker.authorize(ALICE, HOST, WRITE, TOPIC, "orders")).isTrue();
        }
    }

    @Test
    void anotherBrokerSeesEachChangeAndDeletesRemoveOnlyWhatMatches() throws Exception {
        try (AclAuthorizer otherBroker = start(false)) {
            authorizer.create(List.of(acl(topic("orders"), "User:alice", "*", WRITE, ALLOW),
                    acl(topic("orders"), "User:bob", "*", READ, ALLOW)));
            Awaitility.await().atMost(Duration.ofSeconds(20))
                    .until(() -> otherBroker.authorize(ALICE, HOST, WRITE, TOPIC, "orders") && otherBroker.authorize(BOB, HOST, READ, TOPIC, "orders"));

            List<AclBinding> removed = otherBroker.delete(new AclBindingFilter(ResourcePatternFilter.ANY,
                    new AccessControlEntryFilter("User:alice", null, AclOperation.ANY, AclPermissionType.ANY)));

            assertThat(removed).containsExactly(acl(topic("orders"), "User:alice", "*", WRITE, ALLOW));
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> !authorizer.authorize(ALICE, HOST, WRITE, TOPIC, "orders"));
            assertThat(authorizer.describe(AclBindingFilter.ANY)).containsExactly(acl(topic("orders"), "User:bob", "*", READ, ALLOW));
        }
        try (AclAuthorizer restarted = start(false)) {
            assertThat(restarted.describe(AclBindingFilter.ANY)).as("loaded from ZooKeeper").hasSize(1);
        }
    }
}

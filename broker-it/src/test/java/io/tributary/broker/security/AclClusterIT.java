package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import io.tributary.broker.testing.Clients;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.testkit.wire.Requests;
import io.tributary.broker.testing.Records;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers with the authorizer on, replicating over SASL_PLAINTEXT as {@code admin}, their own principal and a
 * super user: acks=all writes with min.insync.replicas=3 reach every replica. An ACL created through one broker
 * holds on all three: alice, refused before, then writes to partitions led by each broker.
 */
@Timeout(300)
class AclClusterIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    private static Map<String, Object> user(String name) {
        return AuthorizedPlainBroker.user(name);
    }

    @Test
    void brokersReplicateAsSuperUsersAndEveryBrokerEnforcesAnAclMadeThroughOne(@TempDir Path dir) throws Exception {
        Map<String, String> settings = AuthorizedPlainBroker.settings("alice");
        settings.put("min.insync.replicas", "3");
        try (TestCluster cluster = TestCluster.start(dir, 3, settings)) {
            String broker0 = cluster.interBrokerAddress(0);
            String all = String.join(",", broker0, cluster.interBrokerAddress(1), cluster.interBrokerAddress(2));
            try (Admin admin = Clients.admin(all, user("admin"))) {
                admin.createTopics(List.of(new NewTopic("replicated", 3, (short) 3))).all().get();
                for (int p = 0; p < 3; p++) {
                    cluster.awaitFullIsr(admin, "replicated", p, TIMEOUT);
                }
                Set<Integer> leaders = IntStream.range(0, 3).map(p -> TestCluster.leaderOf(admin, "replicated", p)).boxed()
                        .collect(Collectors.toSet());
                assertThat(leaders).as("each broker leads a partition").containsExactlyInAnyOrder(0, 1, 2);
            }
            Map<String, Object> aliceNonIdempotent = new HashMap<>(user("alice"));
            aliceNonIdempotent.putAll(Map.of("enable.idempotence", false, "acks", "1", "retries", 0));
            try (KafkaProducer<byte[], byte[]> alice = Clients.producer(all, aliceNonIdempotent)) {
                var refused = alice.send(new ProducerRecord<>("replicated", 0, null, "refused".getBytes(StandardCharsets.UTF_8)));
                assertThatThrownBy(refused::get).hasCauseInstanceOf(TopicAuthorizationException.class);
            }

            try (Admin throughBroker0 = Clients.admin(broker0, user("admin"))) {
                throughBroker0.createAcls(List.of(new AclBinding(new ResourcePattern(ResourceType.TOPIC, "replicated", PatternType.LITERAL),
                        new AccessControlEntry("User:alice", "*", AclOperation.WRITE, AclPermissionType.ALLOW)))).all().get();
            }
            Awaitility.await("alice writes to the partitions of all three leaders").atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> {
                try (KafkaProducer<byte[], byte[]> alice = Clients.producer(all, user("alice"))) {
                    for (int p = 0; p < 3; p++) {
                        alice.send(new ProducerRecord<>("replicated", p, null, ("to-" + p).getBytes(StandardCharsets.UTF_8))).get();
                    }
                }
            });
            List<String> values = Records.readAll(all, "replicated", TIMEOUT, user("admin")).stream()
                    .map(record -> new String(record.value(), StandardCharsets.UTF_8)).toList();
            assertThat(values).contains("to-0", "to-1", "to-2").doesNotContain("refused");
            try (Admin admin = Clients.admin(all, user("admin"))) {
                for (int p = 0; p < 3; p++) {
                    assertThat(TestCluster.isrOf(admin, "replicated", p)).containsExactly(0, 1, 2);
                }
                // A follower's fetch from a broker's own address, but on the PLAINTEXT listener (User:ANONYMOUS): the
                // address check alone would let it through; CLUSTER_ACTION refuses it.
                int leader = TestCluster.leaderOf(admin, "replicated", 0);
                FetchResponseData.PartitionData forged = forgedFollowerFetch(cluster.broker(leader).bootstrapServers(), (leader + 1) % 3);
                assertThat(Errors.forCode(forged.errorCode())).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED);
                assertThat(forged.records() == null || forged.records().sizeInBytes() == 0).isTrue();
            }
        }
    }

    /** A fetch of replicated-0 from offset 0 that claims to be follower {@code replicaId}. */
    private static FetchResponseData.PartitionData forgedFollowerFetch(String leader, int replicaId) throws Exception {
        int colon = leader.lastIndexOf(':');
        try (RawConnection raw = new RawConnection(leader.substring(0, colon), Integer.parseInt(leader.substring(colon + 1)))) {
            FetchResponse response = (FetchResponse) raw.request(ApiKeys.FETCH, Requests.FOLLOWER_FETCH_VERSION,
                    Requests.followerFetch("replicated", replicaId, 0));
            return response.data().responses().get(0).partitions().get(0);
        }
    }
}

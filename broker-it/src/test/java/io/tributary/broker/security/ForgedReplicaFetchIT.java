package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.cluster.BrokerRegistry;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.testing.Clients;
import io.tributary.testkit.TestCertificates;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.testkit.wire.Requests;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchResponse;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replica-id hole: a client that sends a Fetch naming a replica id must not be counted as that follower. A
 * follower fetch counts only on the inter-broker listener, and there only from the brokers' principal (SSL, SASL)
 * or, on PLAINTEXT, from a registered broker's address; anything else gets Kafka's TOPIC_AUTHORIZATION_FAILED,
 * returns no records and leaves the ISR and high watermark alone.
 */
@Timeout(240)
class ForgedReplicaFetchIT {
    private static final String TOPIC = "guarded";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static FetchResponseData forgedFetch(String localAddress, String leader, int replicaId, long offset) throws Exception {
        int colon = leader.lastIndexOf(':');
        try (RawConnection raw = new RawConnection(localAddress, leader.substring(0, colon), Integer.parseInt(leader.substring(colon + 1)))) {
            return forgedFetch(raw, replicaId, offset);
        }
    }

    private static FetchResponseData forgedFetch(RawConnection raw, int replicaId, long offset) throws Exception {
        return ((FetchResponse) raw.request(ApiKeys.FETCH, Requests.FOLLOWER_FETCH_VERSION,
                Requests.followerFetch(TOPIC, replicaId, offset))).data();
    }

    /** What consumers may read of the partition: its high watermark, as ListOffsets reports the latest offset. */
    private static long highWatermark(Admin admin) throws Exception {
        TopicPartition partition = new TopicPartition(TOPIC, 0);
        return admin.listOffsets(Map.of(partition, OffsetSpec.latest())).partitionResult(partition).get().offset();
    }

    /** The port of broker {@code id}'s inter-broker listener, as it registered it. */
    private static int interBrokerPort(TestCluster cluster, int id) throws Exception {
        try (ZkClient zk = ZkClient.connect(cluster.zookeeperConnectString(), 10_000, 10_000)) {
            return new ObjectMapper().readTree(zk.read(BrokerRegistry.brokerPath(id)).orElseThrow().data()).path("port").asInt();
        }
    }

    private static FetchResponseData.PartitionData only(FetchResponseData response) {
        return response.responses().get(0).partitions().get(0);
    }

    @Test
    void forgedFollowerFetchesAreRefusedAndMoveNothing(@TempDir Path dir) throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 2, Map.of("replica.lag.time.max.ms", "5000"));
             Admin admin = Clients.admin(cluster.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 2))).all().get();
            cluster.awaitFullIsr(admin, TOPIC, 0, TIMEOUT);
            try (KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers())) {
                for (int i = 0; i < 10; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, ("r" + i).getBytes(StandardCharsets.UTF_8))).get();
                }
            }
            int leader = TestCluster.leaderOf(admin, TOPIC, 0);
            int follower = 1 - leader;
            String leaderAddress = cluster.broker(leader).bootstrapServers();

            // A live follower's id, claimed from an address no broker registered.
            FetchResponseData.PartitionData fromElsewhere = only(forgedFetch("127.0.0.2", leaderAddress, follower, 0));
            assertThat(Errors.forCode(fromElsewhere.errorCode())).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED);
            assertThat(fromElsewhere.records() == null || fromElsewhere.records().sizeInBytes() == 0).isTrue();
            // An id no broker has.
            assertThat(Errors.forCode(only(forgedFetch(null, leaderAddress, 7, 10)).errorCode()))
                    .isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED);

            // With the follower gone the ISR shrinks to the leader; a forged fetch "caught up" at the log end would
            // have put the dead follower back in (and counted it for acks=all).
            cluster.broker(follower).terminate();
            Awaitility.await("ISR without the stopped follower").atMost(TIMEOUT).pollInterval(Duration.ofMillis(200))
                    .until(() -> TestCluster.isrOf(admin, TOPIC, 0).equals(List.of(leader)));
            for (int attempt = 0; attempt < 5; attempt++) {
                FetchResponseData.PartitionData forged = only(forgedFetch(null, leaderAddress, follower, 10));
                assertThat(Errors.forCode(forged.errorCode())).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED);
            }
            Awaitility.await("the ISR stays as it is").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
                    .until(() -> TestCluster.isrOf(admin, TOPIC, 0).equals(List.of(leader)));

            // Consumers are unaffected: they read everything, up to the high watermark the leader alone moves.
            assertThat(io.tributary.broker.testing.Records.readAll(leaderAddress, TOPIC, TIMEOUT)).hasSize(10);
        }
    }

    /**
     * Replication over an SSL listener with client certificates, clients on the PLAINTEXT one, all on 127.0.0.1: the
     * address of every broker. With the follower stopped (still registered and in the ISR, so a lagging member) a
     * client claims to be it, caught up at the leader's log end: on the client listener, and on the inter-broker
     * listener with a client certificate. Neither may count, or the high watermark would pass records only the
     * leader has, and a failover to the real follower would lose them.
     */
    @Test
    void aLaggingFollowerCannotBeImpersonatedFromABrokersAddress(@TempDir Path dir) throws Exception {
        TestCertificates certificates = TestCertificates.create(dir.resolve("certs"));
        Map<String, String> settings = new HashMap<>(certificates.brokerSettings(""));
        settings.put("listeners", "SSL://127.0.0.1:0");
        settings.put("inter.broker.listener.name", "SSL");
        settings.put("listener.name.ssl.ssl.client.auth", "required");
        // The stopped follower stays registered and in the ISR for the whole test.
        settings.put("zookeeper.session.timeout.ms", "60000");
        settings.put("replica.lag.time.max.ms", "60000");
        try (TestCluster cluster = TestCluster.start(dir, 2, settings);
             Admin admin = Clients.admin(cluster.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 2))).all().get();
            cluster.awaitFullIsr(admin, TOPIC, 0, TIMEOUT); // the brokers' own certificate may follow
            int leader = TestCluster.leaderOf(admin, TOPIC, 0);
            int follower = 1 - leader;
            try (KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers())) {
                for (int i = 0; i < 10; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, ("committed" + i).getBytes(StandardCharsets.UTF_8))).get();
                }
            }
            assertThat(highWatermark(admin)).isEqualTo(10);

            // From here on clients talk to the leader alone: the stopped broker accepts connections but never answers.
            String leaderAddress = cluster.broker(leader).bootstrapServers();
            cluster.signal(follower, "STOP");
            try (Admin leaderAdmin = Clients.admin(leaderAddress);
                 KafkaProducer<byte[], byte[]> producer = Clients.producer(leaderAddress, Map.of("acks", "1"))) {
                for (int i = 0; i < 5; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, ("leader-only" + i).getBytes(StandardCharsets.UTF_8))).get();
                }
                assertForgeriesMoveNothing(certificates, cluster, leaderAdmin, leader, follower);
            }
            cluster.signal(follower, "CONT");
            Awaitility.await("the real follower catches up").atMost(TIMEOUT).pollInterval(Duration.ofMillis(200))
                    .until(() -> highWatermark(admin) == 15);
            assertThat(TestCluster.isrOf(admin, TOPIC, 0)).hasSize(2);
        }
    }

    private static void assertForgeriesMoveNothing(TestCertificates certificates, TestCluster cluster, Admin admin, int leader,
                                                   int follower) throws Exception {
        assertThat(TestCluster.isrOf(admin, TOPIC, 0)).as("the stopped follower is still in sync").hasSize(2);
        assertThat(highWatermark(admin)).as("the high watermark waits for the stopped follower").isEqualTo(10);

        SSLContext alice = certificates.sslContext("client");
        try (RawConnection raw = RawConnection.overTls("127.0.0.1", "127.0.0.1", interBrokerPort(cluster, leader), alice)) {
            FetchResponseData.PartitionData asAlice = only(forgedFetch(raw, follower, 15));
            assertThat(Errors.forCode(asAlice.errorCode())).as("a replica fetch with a client's certificate on the "
                    + "inter-broker listener").isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED);
            assertThat(asAlice.records() == null || asAlice.records().sizeInBytes() == 0).isTrue();
            assertThat(Errors.forCode(only(forgedFetch(raw, 7, 15)).errorCode())).as("an id no broker has")
                    .isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED);
        }
        FetchResponseData.PartitionData onClientListener = only(forgedFetch("127.0.0.1",
                cluster.broker(leader).bootstrapServers(), follower, 15));
        assertThat(Errors.forCode(onClientListener.errorCode())).as("a replica fetch on the client listener")
                .isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED);
        assertThat(highWatermark(admin)).as("the high watermark after the forged fetches").isEqualTo(10);
    }
}

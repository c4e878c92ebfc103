package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.RawConnection;
import io.tributary.broker.testing.Requests;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchResponse;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replica-id hole: a client that sends a Fetch naming a replica id must not be counted as that follower. On
 * PLAINTEXT a follower fetch counts only from a registered broker's address; anything else gets Kafka's
 * TOPIC_AUTHORIZATION_FAILED, returns no records and leaves the ISR and high watermark alone.
 */
@Timeout(240)
class ForgedReplicaFetchIT {
    private static final String TOPIC = "guarded";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static FetchResponseData forgedFetch(String localAddress, String leader, int replicaId, long offset) throws Exception {
        int colon = leader.lastIndexOf(':');
        try (RawConnection raw = new RawConnection(localAddress, leader.substring(0, colon), Integer.parseInt(leader.substring(colon + 1)))) {
            return ((FetchResponse) raw.request(ApiKeys.FETCH, Requests.FOLLOWER_FETCH_VERSION, Requests.followerFetch(TOPIC, replicaId, offset))).data();
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
}

package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.Records;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers (separate JVMs) on one ZooKeeper: topics are replicated to every broker, any
 * broker's metadata names the leaders and ISRs, acks=all waits for the ISR, and a follower that
 * stops (SIGSTOP) leaves the ISR after replica.lag.time.max.ms — acks=all keeps working with two
 * replicas in sync, fails with NOT_ENOUGH_REPLICAS at one (min.insync.replicas=2) — and rejoins
 * once it runs again and has caught up.
 */
class ReplicationIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final Map<String, String> SETTINGS = Map.of(
            BrokerConfig.MIN_INSYNC_REPLICAS, "2",
            BrokerConfig.REPLICA_LAG_TIME_MAX_MS, "2000",
            // Longer than the lag limit, so that the ISR shrinks because of the lag, not a lost session.
            BrokerConfig.ZOOKEEPER_SESSION_TIMEOUT_MS, "30000");

    @TempDir
    Path dir;

    @Test
    void everyBrokerNamesTheLeadersAndAcknowledgedRecordsAreOnEveryReplica() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3, SETTINGS);
             Admin admin = Clients.admin(cluster.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic("replicated", 3, (short) 3))).all().get();
            for (int p = 0; p < 3; p++) {
                cluster.awaitFullIsr(admin, "replicated", p, TIMEOUT);
            }
            for (int id = 0; id < 3; id++) {
                try (Admin one = Clients.admin(cluster.broker(id).bootstrapServers())) {
                    List<TopicPartitionInfo> partitions = one.describeTopics(List.of("replicated")).allTopicNames().get()
                            .get("replicated").partitions();
                    assertThat(partitions).allSatisfy(p -> {
                        assertThat(p.replicas()).extracting(Node::id).containsExactlyInAnyOrder(0, 1, 2);
                        assertThat(p.leader().id()).isEqualTo(p.replicas().get(0).id());
                    });
                    assertThat(partitions).extracting(p -> p.leader().id()).as("leaders spread over the brokers")
                            .containsExactlyInAnyOrder(0, 1, 2);
                    assertThat(one.describeCluster().nodes().get()).hasSize(3);
                }
            }
            try (KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers())) {
                for (int i = 0; i < 300; i++) {
                    producer.send(new ProducerRecord<>("replicated", i % 3, null, bytes("r-" + i)));
                }
                producer.flush();
            }
            assertThat(Records.readAll(cluster.bootstrapServers(), "replicated", TIMEOUT)).hasSize(300);
        }
    }

    @Test
    void stoppedFollowerLeavesTheIsrAndRejoinsAfterCatchingUp() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3, SETTINGS);
             Admin admin = Clients.admin(cluster.bootstrapServers());
             KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers(), Map.of(
                     ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false, ProducerConfig.RETRIES_CONFIG, 0,
                     ProducerConfig.ACKS_CONFIG, "all"))) {
            admin.createTopics(List.of(new NewTopic("isr", 1, (short) 3))).all().get();
            cluster.awaitFullIsr(admin, "isr", 0, TIMEOUT);
            int leader = TestCluster.leaderOf(admin, "isr", 0);
            List<Integer> followers = List.of(0, 1, 2).stream().filter(id -> id != leader).toList();
            send(producer, "before");

            cluster.signal(followers.get(0), "STOP");
            Awaitility.await("ISR without the stopped follower").atMost(TIMEOUT).pollInterval(Duration.ofMillis(200))
                    .until(() -> TestCluster.isrOf(admin, "isr", 0).size() == 2);
            send(producer, "with-two");

            cluster.signal(followers.get(1), "STOP");
            Awaitility.await("ISR of the leader alone").atMost(TIMEOUT).pollInterval(Duration.ofMillis(200))
                    .until(() -> TestCluster.isrOf(admin, "isr", 0).equals(List.of(leader)));
            assertThatThrownBy(() -> send(producer, "with-one")).hasCauseInstanceOf(NotEnoughReplicasException.class);

            cluster.signal(followers.get(0), "CONT");
            cluster.signal(followers.get(1), "CONT");
            cluster.awaitFullIsr(admin, "isr", 0, TIMEOUT);
            send(producer, "after");
            List<ConsumerRecord<byte[], byte[]>> records = Records.readAll(cluster.bootstrapServers(), "isr", TIMEOUT);
            assertThat(records).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                    .containsExactly("before", "with-two", "after");
        }
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String value) throws InterruptedException, ExecutionException {
        producer.send(new ProducerRecord<>("isr", 0, null, bytes(value))).get();
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}

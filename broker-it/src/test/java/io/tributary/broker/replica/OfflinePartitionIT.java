package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.Clients;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.broker.testing.Records;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterConfigsResourceCollection;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfig;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfigCollection;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.IncrementalAlterConfigsResponse;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * unclean.leader.election.enable=false (the default) on three brokers (separate JVMs): a partition
 * whose ISR members are all dead goes offline — no leader in anyone's metadata, produces fail — even
 * when a replica outside the ISR is back; when the last ISR member returns it leads again, and nothing
 * that was acknowledged is lost. On the way, the topic's own min.insync.replicas (set at creation,
 * then lowered through the broker that holds no replica) decides whether acks=all is accepted from
 * the leader alone.
 */
class OfflinePartitionIT {
    private static final String TOPIC = "fragile";
    private static final String MIN_INSYNC_REPLICAS = BrokerConfig.MIN_INSYNC_REPLICAS;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void withAllIsrMembersDeadThePartitionStaysOfflineUntilOneReturns() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3, Map.of(BrokerConfig.UNCLEAN_LEADER_ELECTION_ENABLE, "false"));
             Admin admin = Clients.admin(cluster.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 2).configs(Map.of(MIN_INSYNC_REPLICAS, "2")))).all().get();
            assertThat(minInsyncReplicas(admin)).isEqualTo(new ConfigEntry(MIN_INSYNC_REPLICAS, "2"));
            List<Integer> replicas = TestCluster.describe(admin, TOPIC, 0).replicas().stream().map(Node::id).toList();
            awaitIsr(admin, replicas.stream().sorted().toList());
            int leader = TestCluster.leaderOf(admin, TOPIC, 0);
            int follower = replicas.stream().filter(id -> id != leader).findFirst().orElseThrow();
            List<String> acknowledged = new ArrayList<>();
            try (KafkaProducer<byte[], byte[]> producer = producer(cluster, 30_000)) {
                send(producer, "on-both-", 20, acknowledged);
                cluster.broker(follower).kill();
                awaitIsr(admin, List.of(leader));
                try (KafkaProducer<byte[], byte[]> once = Clients.producer(cluster.bootstrapServers(), Map.of(
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false, ProducerConfig.RETRIES_CONFIG, 0))) {
                    assertThatThrownBy(() -> once.send(record("refused")).get()).as("the ISR is below the topic's minimum")
                            .hasCauseInstanceOf(NotEnoughReplicasException.class);
                }
                int bystander = List.of(0, 1, 2).stream().filter(id -> !replicas.contains(id)).findFirst().orElseThrow();
                lowerMinInsyncReplicasThrough(cluster.broker(bystander));
                Awaitility.await("the new override").atMost(TIMEOUT).ignoreExceptions().untilAsserted(() ->
                        assertThat(minInsyncReplicas(admin)).isEqualTo(new ConfigEntry(MIN_INSYNC_REPLICAS, "1")));
                // The leader learns of the override from ZooKeeper: until then the producer retries.
                send(producer, "on-the-leader-alone-", 10, acknowledged);
            }

            cluster.broker(leader).kill();
            cluster.broker(follower).restart();
            Awaitility.await("no leader, the out-of-sync replica back").atMost(TIMEOUT).pollInterval(Duration.ofMillis(200))
                    .until(() -> TestCluster.leaderOf(admin, TOPIC, 0) == -1
                            && admin.describeCluster().nodes().get().stream().anyMatch(node -> node.id() == follower));
            assertThat(TestCluster.isrOf(admin, TOPIC, 0)).as("the last ISR is kept").containsExactly(leader);
            try (KafkaProducer<byte[], byte[]> producer = producer(cluster, 3_000)) {
                assertThatThrownBy(() -> producer.send(record("while-offline")).get()).as("no leader for 3 s")
                        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TimeoutException.class);
            }
            assertThat(TestCluster.leaderOf(admin, TOPIC, 0)).as("the returned replica, not in the ISR, does not lead").isEqualTo(-1);

            cluster.broker(leader).restart();
            Awaitility.await("the ISR member leads again").atMost(TIMEOUT).pollInterval(Duration.ofMillis(200))
                    .until(() -> TestCluster.leaderOf(admin, TOPIC, 0) == leader);
            awaitIsr(admin, replicas.stream().sorted().toList());
            assertThat(Records.readAll(cluster.bootstrapServers(), TOPIC, TIMEOUT))
                    .extracting(r -> new String(r.value(), StandardCharsets.UTF_8)).containsExactlyElementsOf(acknowledged);
        }
    }

    private static void lowerMinInsyncReplicasThrough(BrokerProcess broker) throws Exception {
        AlterableConfigCollection configs = new AlterableConfigCollection();
        configs.add(new AlterableConfig().setName(MIN_INSYNC_REPLICAS).setValue("1").setConfigOperation(AlterConfigOp.OpType.SET.id()));
        try (RawConnection connection = RawConnection.to(broker.bootstrapServers())) {
            var response = (IncrementalAlterConfigsResponse) connection.request(ApiKeys.INCREMENTAL_ALTER_CONFIGS, (short) 1,
                    new IncrementalAlterConfigsRequestData().setResources(new AlterConfigsResourceCollection(List.of(
                            new AlterConfigsResource().setResourceType(ConfigResource.Type.TOPIC.id()).setResourceName(TOPIC)
                                    .setConfigs(configs)).iterator())));
            assertThat(response.data().responses()).allSatisfy(result -> assertThat(result.errorCode()).isZero());
        }
    }

    /** The topic's min.insync.replicas as DescribeConfigs reports it (a topic override). */
    private static ConfigEntry minInsyncReplicas(Admin admin) throws Exception {
        ConfigEntry entry = admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, TOPIC))).all().get()
                .values().iterator().next().get(MIN_INSYNC_REPLICAS);
        assertThat(entry.source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
        return new ConfigEntry(entry.name(), entry.value());
    }

    private static void awaitIsr(Admin admin, List<Integer> isr) {
        Awaitility.await("ISR " + isr).atMost(TIMEOUT).pollInterval(Duration.ofMillis(200))
                .until(() -> TestCluster.isrOf(admin, TOPIC, 0).equals(isr));
    }

    private static KafkaProducer<byte[], byte[]> producer(TestCluster cluster, int deliveryTimeoutMs) {
        return Clients.producer(cluster.bootstrapServers(), Map.of(ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, deliveryTimeoutMs,
                ProducerConfig.LINGER_MS_CONFIG, 0, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(deliveryTimeoutMs / 2, 10_000),
                ProducerConfig.MAX_BLOCK_MS_CONFIG, deliveryTimeoutMs));
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String prefix, int count, List<String> acknowledged)
            throws InterruptedException, ExecutionException {
        for (int i = 0; i < count; i++) {
            producer.send(record(prefix + i)).get();
            acknowledged.add(prefix + i);
        }
    }

    private static ProducerRecord<byte[], byte[]> record(String value) {
        return new ProducerRecord<>(TOPIC, 0, null, value.getBytes(StandardCharsets.UTF_8));
    }
}

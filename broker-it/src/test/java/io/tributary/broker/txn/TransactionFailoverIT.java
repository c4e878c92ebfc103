package io.tributary.broker.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers, replication factor 3 everywhere: the leader of a transaction's partition is killed in the middle of
 * the transaction. The new leader (which kept the open transaction in its producer state through replication)
 * holds read_committed readers at the transaction's first offset, takes the rest of it and the coordinator's
 * marker; the committed records are then seen exactly once, and a transaction aborted afterwards never. The
 * transaction coordinator killed mid-transaction is replaced by the new leader of its {@code __transaction_state}
 * partition, which loads the open transaction, so the producer goes on and commits.
 */
@Timeout(300)
class TransactionFailoverIT {
    private static final String TOPIC = "replicated-txn";
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private TestCluster startCluster() throws Exception {
        return TestCluster.start(dir, 3, Map.of(
                BrokerConfig.MIN_INSYNC_REPLICAS, "2",
                BrokerConfig.REPLICA_LAG_TIME_MAX_MS, "5000",
                BrokerConfig.TRANSACTION_STATE_LOG_NUM_PARTITIONS, "3",
                BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "3"));
    }

    private static KafkaProducer<byte[], byte[]> patientProducer(TestCluster cluster, String transactionalId) {
        KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers(), Map.of(
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 120_000));
        producer.initTransactions();
        return producer;
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String prefix, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            producer.send(new ProducerRecord<>(TOPIC, (prefix + i).getBytes())).get();
        }
    }

    private static void assertCommittedExactly(TestCluster cluster, TopicPartition partition, List<String> expected) {
        try (KafkaConsumer<byte[], byte[]> consumer = CommittedReads.readCommittedConsumer(cluster.bootstrapServers(), Map.of())) {
            assertThat(CommittedReads.readFromStart(consumer, partition, expected.size())).isEqualTo(expected);
            assertThat(consumer.poll(Duration.ofSeconds(2))).isEmpty();
        }
    }

    private static final List<String> TEN = List.of("before-0", "before-1", "before-2", "before-3", "before-4",
            "after-0", "after-1", "after-2", "after-3", "after-4");

    @Test
    void theCoordinatorKilledMidTransactionIsReplacedAndTheTransactionCommits() throws Exception {
        try (TestCluster cluster = startCluster(); Admin admin = Clients.admin(cluster.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3))).all().get();
            cluster.awaitFullIsr(admin, TOPIC, 0, TIMEOUT);
            String id = "coordinator-moves";
            try (KafkaProducer<byte[], byte[]> producer = patientProducer(cluster, id)) {
                producer.beginTransaction();
                send(producer, "before-", 5);
                int coordinator = admin.describeTransactions(List.of(id)).description(id).get().coordinatorId();
                BrokerProcess killed = cluster.broker(coordinator);
                killed.kill();
                await("a new coordinator of " + id).atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                        .until(() -> admin.describeTransactions(List.of(id)).description(id).get().coordinatorId() != coordinator);
                send(producer, "after-", 5);
                producer.commitTransaction();
                killed.restart();
            }
            cluster.awaitFullIsr(admin, TOPIC, 0, TIMEOUT);
            assertCommittedExactly(cluster, new TopicPartition(TOPIC, 0), TEN);
        }
    }

    @Test
    void aLeaderKilledMidTransactionLosesNothingCommittedAndShowsNothingAborted() throws Exception {
        try (TestCluster cluster = startCluster(); Admin admin = Clients.admin(cluster.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3))).all().get();
            cluster.awaitFullIsr(admin, TOPIC, 0, TIMEOUT);
            TopicPartition partition = new TopicPartition(TOPIC, 0);
            try (KafkaProducer<byte[], byte[]> producer = patientProducer(cluster, "across-failover")) {
                producer.beginTransaction();
                send(producer, "before-", 5);
                cluster.awaitFullIsr(admin, TOPIC, 0, TIMEOUT);
                int leader = TestCluster.leaderOf(admin, TOPIC, 0);
                BrokerProcess killed = cluster.broker(leader);
                killed.kill();
                await("a new leader after broker " + leader + " was killed").atMost(TIMEOUT)
                        .pollInterval(Duration.ofMillis(200)).until(() -> {
                            int now = TestCluster.leaderOf(admin, TOPIC, 0);
                            return now >= 0 && now != leader;
                        });
                await().atMost(TIMEOUT).ignoreExceptions()
                        .until(() -> CommittedReads.lastStableOffset(cluster.bootstrapServers(), partition) == 0);

                send(producer, "after-", 5);
                producer.commitTransaction();
                producer.beginTransaction();
                send(producer, "aborted-", 3);
                producer.abortTransaction();
                killed.restart();
            }
            cluster.awaitFullIsr(admin, TOPIC, 0, TIMEOUT);
            assertCommittedExactly(cluster, partition, TEN);
        }
    }
}

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
 * marker; the committed records are then seen exactly once, and a transaction aborted afterwards never.
 */
@Timeout(300)
class TransactionFailoverIT {
    private static final String TOPIC = "replicated-txn";
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    @Test
    void aLeaderKilledMidTransactionLosesNothingCommittedAndShowsNothingAborted() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3, Map.of(
                BrokerConfig.MIN_INSYNC_REPLICAS, "2",
                BrokerConfig.REPLICA_LAG_TIME_MAX_MS, "5000",
                BrokerConfig.TRANSACTION_STATE_LOG_NUM_PARTITIONS, "3",
                BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "3"));
             Admin admin = Clients.admin(cluster.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3))).all().get();
            cluster.awaitFullIsr(admin, TOPIC, 0, TIMEOUT);
            TopicPartition partition = new TopicPartition(TOPIC, 0);
            try (KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers(), Map.of(
                    ProducerConfig.TRANSACTIONAL_ID_CONFIG, "across-failover",
                    ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000,
                    ProducerConfig.MAX_BLOCK_MS_CONFIG, 120_000))) {
                producer.initTransactions();
                producer.beginTransaction();
                for (int i = 0; i < 5; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, ("before-" + i).getBytes())).get();
                }
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

                for (int i = 0; i < 5; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, ("after-" + i).getBytes())).get();
                }
                producer.commitTransaction();
                producer.beginTransaction();
                for (int i = 0; i < 3; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, ("aborted-" + i).getBytes())).get();
                }
                producer.abortTransaction();
                killed.restart();
            }
            cluster.awaitFullIsr(admin, TOPIC, 0, TIMEOUT);
            try (KafkaConsumer<byte[], byte[]> consumer = CommittedReads.readCommittedConsumer(cluster.bootstrapServers(), Map.of())) {
                List<String> values = CommittedReads.readFromStart(consumer, partition, 10);
                assertThat(values).containsExactly("before-0", "before-1", "before-2", "before-3", "before-4",
                        "after-0", "after-1", "after-2", "after-3", "after-4");
                assertThat(consumer.poll(Duration.ofSeconds(2))).isEmpty();
            }
        }
    }
}

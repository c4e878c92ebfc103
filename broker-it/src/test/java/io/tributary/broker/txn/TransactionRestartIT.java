package io.tributary.broker.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.Clients;
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
 * A broker (a separate JVM) killed with SIGKILL while a transaction is open, next to a committed and an aborted one:
 * after the restart the last stable offset is again the open transaction's first offset, the aborted records stay
 * invisible (the {@code .txnindex} and producer state were recovered), and the producer that held the transaction
 * open commits it through the reloaded coordinator.
 */
@Timeout(240)
class TransactionRestartIT {
    private static final String TOPIC = "survivors";

    @TempDir
    Path dir;

    private static KafkaProducer<byte[], byte[]> transactional(String bootstrap, String id) {
        KafkaProducer<byte[], byte[]> producer = Clients.producer(bootstrap, Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, id,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000, ProducerConfig.MAX_BLOCK_MS_CONFIG, 120_000));
        producer.initTransactions();
        return producer;
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String prefix, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            producer.send(new ProducerRecord<>(TOPIC, (prefix + i).getBytes())).get();
        }
    }

    @Test
    void aKillMidTransactionKeepsTheLastStableOffsetAndTheAbortedIndex() throws Exception {
        Map<String, String> settings = Map.of(
                BrokerConfig.TRANSACTION_STATE_LOG_REPLICATION_FACTOR, "1",
                BrokerConfig.TRANSACTION_STATE_LOG_NUM_PARTITIONS, "2",
                BrokerConfig.OFFSETS_TOPIC_REPLICATION_FACTOR, "1",
                BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "2");
        TopicPartition partition = new TopicPartition(TOPIC, 0);
        try (BrokerProcess broker = BrokerProcess.start(dir, settings)) {
            String bootstrap = broker.bootstrapServers();
            try (Admin admin = Clients.admin(bootstrap)) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
            }
            try (KafkaProducer<byte[], byte[]> committer = transactional(bootstrap, "restart-committer");
                 KafkaProducer<byte[], byte[]> aborter = transactional(bootstrap, "restart-aborter");
                 KafkaProducer<byte[], byte[]> holder = transactional(bootstrap, "restart-holder")) {
                committer.beginTransaction();
                send(committer, "committed-", 5);
                committer.commitTransaction();
                aborter.beginTransaction();
                send(aborter, "aborted-", 3);
                aborter.abortTransaction();
                holder.beginTransaction();
                send(holder, "held-", 2);
                assertThat(lastStableOffset(bootstrap, partition)).isEqualTo(10); // 5 + marker + 3 + marker

                broker.kill();
                broker.restart();

                assertThat(Files.exists(dir.resolve("logs").resolve(TOPIC + "-0").resolve("00000000000000000000.txnindex")))
                        .isTrue();
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                        .until(() -> lastStableOffset(bootstrap, partition) == 10);
                assertThat(readCommitted(bootstrap, partition, 5)).containsExactly(
                        "committed-0", "committed-1", "committed-2", "committed-3", "committed-4");

                holder.commitTransaction(); // the reloaded coordinator still has the open transaction and its partition
                List<String> all = readCommitted(bootstrap, partition, 7);
                assertThat(all).hasSize(7).endsWith("held-0", "held-1").noneMatch(v -> v.startsWith("aborted-"));
            }
        }
    }

    private static long lastStableOffset(String bootstrap, TopicPartition partition) {
        return CommittedReads.lastStableOffset(bootstrap, partition);
    }

    private static List<String> readCommitted(String bootstrap, TopicPartition partition, int expected) {
        try (KafkaConsumer<byte[], byte[]> consumer = CommittedReads.readCommittedConsumer(bootstrap, Map.of())) {
            return CommittedReads.readFromStart(consumer, partition, expected);
        }
    }
}

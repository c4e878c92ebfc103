package io.tributary.broker.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's Java transactional producer and read_committed consumer against one broker: committed records are seen,
 * aborted ones never, an open transaction holds read_committed readers at its first offset (the LSO), the
 * consume-transform-produce loop commits its offsets with its output, a transaction left open is aborted at its
 * timeout, and a second producer of a transactional id fences the first.
 */
@Timeout(180)
class TransactionsIT {
    private static TestBroker broker;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir, Map.of(
                BrokerConfig.TRANSACTION_STATE_LOG_REPLICATION_FACTOR, "1",
                BrokerConfig.TRANSACTION_STATE_LOG_NUM_PARTITIONS, "3",
                BrokerConfig.OFFSETS_TOPIC_REPLICATION_FACTOR, "1",
                BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "3",
                BrokerConfig.GROUP_INITIAL_REBALANCE_DELAY_MS, "0",
                BrokerConfig.TRANSACTION_ABORT_TIMED_OUT_CLEANUP_INTERVAL_MS, "200"));
        try (Admin admin = Clients.admin(broker.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic("mixed", 1, (short) 1), new NewTopic("ctp-in", 1, (short) 1),
                    new NewTopic("ctp-out", 1, (short) 1), new NewTopic("timeouts", 1, (short) 1),
                    new NewTopic("zombies", 1, (short) 1), new NewTopic("epochs", 1, (short) 1))).all().get();
        }
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    static KafkaProducer<byte[], byte[]> transactional(String id, Map<String, Object> more) {
        Map<String, Object> config = new HashMap<>(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, id));
        config.putAll(more);
        KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(), config);
        producer.initTransactions();
        return producer;
    }

    static KafkaConsumer<byte[], byte[]> readCommitted(Map<String, Object> more) {
        return CommittedReads.readCommittedConsumer(broker.bootstrapServers(), more);
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, String prefix, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            producer.send(new ProducerRecord<>(topic, (prefix + i).getBytes())).get();
        }
    }

    private static List<String> readAll(KafkaConsumer<byte[], byte[]> consumer, TopicPartition partition, int expected) {
        return CommittedReads.readFromStart(consumer, partition, expected);
    }

    private static long lastStableOffset(TopicPartition partition) {
        return CommittedReads.lastStableOffset(broker.bootstrapServers(), partition);
    }

    private static long highWatermark(TopicPartition partition) {
        try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(broker.bootstrapServers())) {
            return consumer.endOffsets(List.of(partition)).get(partition);
        }
    }

    @Test
    void committedAreSeenAbortedNeverAndAnOpenTransactionHoldsTheLastStableOffset() throws Exception {
        TopicPartition mixed = new TopicPartition("mixed", 0);
        try (KafkaProducer<byte[], byte[]> committer = transactional("committer", Map.of());
             KafkaProducer<byte[], byte[]> aborter = transactional("aborter", Map.of());
             KafkaProducer<byte[], byte[]> holder = transactional("holder", Map.of());
             KafkaConsumer<byte[], byte[]> consumer = readCommitted(Map.of())) {
            committer.beginTransaction();
            send(committer, "mixed", "committed-", 10);
            committer.commitTransaction();
            aborter.beginTransaction();
            send(aborter, "mixed", "aborted-", 5);
            aborter.abortTransaction();

            holder.beginTransaction();
            long openFrom = highWatermark(mixed);
            send(holder, "mixed", "open-", 3);
            committer.beginTransaction();
            send(committer, "mixed", "after-open-", 2);
            committer.commitTransaction();

            // 10 committed + marker, 5 aborted + marker, then the open transaction's first record.
            assertThat(openFrom).isEqualTo(17);
            await().atMost(Duration.ofSeconds(20)).until(() -> highWatermark(mixed) == 23);
            assertThat(lastStableOffset(mixed)).isEqualTo(openFrom);
            List<String> visible = readAll(consumer, mixed, 10);
            assertThat(visible).hasSize(10).allMatch(v -> v.startsWith("committed-"));
            assertThat(consumer.poll(Duration.ofSeconds(1))).isEmpty(); // held at the LSO: nothing past it

            holder.commitTransaction();
            await().atMost(Duration.ofSeconds(20)).until(() -> lastStableOffset(mixed) == highWatermark(mixed));
            List<String> all = readAll(consumer, mixed, 15);
            assertThat(all).filteredOn(v -> v.startsWith("aborted-")).isEmpty();
            assertThat(all).containsSubsequence("committed-0", "committed-9", "open-0", "open-2")
                    .contains("after-open-0", "after-open-1").hasSize(15);
        }
    }

    @Test
    void consumeTransformProduceCommitsItsOffsetsWithItsOutput() throws Exception {
        TopicPartition in = new TopicPartition("ctp-in", 0);
        try (KafkaProducer<byte[], byte[]> source = Clients.producer(broker.bootstrapServers())) {
            for (int i = 0; i < 20; i++) {
                source.send(new ProducerRecord<>("ctp-in", ("in-" + i).getBytes())).get();
            }
        }
        try (KafkaConsumer<byte[], byte[]> consumer = readCommitted(Map.of(ConsumerConfig.GROUP_ID_CONFIG, "transformers"));
             KafkaProducer<byte[], byte[]> producer = transactional("transformer", Map.of())) {
            consumer.subscribe(List.of("ctp-in"));
            List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(batch::add);
                return batch.size() >= 20;
            });
            // First round aborted: neither its output nor its offsets count.
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("ctp-out", "discarded".getBytes())).get();
            producer.sendOffsetsToTransaction(Map.of(in, new OffsetAndMetadata(10)), consumer.groupMetadata());
            producer.abortTransaction();
            producer.beginTransaction();
            for (ConsumerRecord<byte[], byte[]> record : batch) {
                producer.send(new ProducerRecord<>("ctp-out", ("out-" + new String(record.value())).getBytes()));
            }
            producer.sendOffsetsToTransaction(Map.of(in, new OffsetAndMetadata(20)), consumer.groupMetadata());
            producer.commitTransaction();
        }
        try (Admin admin = Clients.admin(broker.bootstrapServers())) {
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                OffsetAndMetadata committed = admin.listConsumerGroupOffsets("transformers")
                        .partitionsToOffsetAndMetadata().get().get(in);
                return committed != null && committed.offset() == 20;
            });
        }
        try (KafkaConsumer<byte[], byte[]> check = readCommitted(Map.of())) {
            List<String> out = readAll(check, new TopicPartition("ctp-out", 0), 20);
            assertThat(out).hasSize(20).doesNotContain("discarded").startsWith("out-in-0").endsWith("out-in-19");
        }
    }

    @Test
    void offsetsCommittedInAnOpenTransactionAreUnstableForReadCommittedConsumers() throws Exception {
        TopicPartition in = new TopicPartition("ctp-in", 0);
        try (KafkaProducer<byte[], byte[]> producer = transactional("unstable-offsets", Map.of());
             KafkaConsumer<byte[], byte[]> member = readCommitted(Map.of(ConsumerConfig.GROUP_ID_CONFIG, "stable-readers"));
             KafkaConsumer<byte[], byte[]> reader = readCommitted(Map.of(ConsumerConfig.GROUP_ID_CONFIG, "stable-readers"))) {
            producer.beginTransaction();
            producer.sendOffsetsToTransaction(Map.of(in, new OffsetAndMetadata(7)), member.groupMetadata());
            // OffsetFetch with require_stable (a read_committed consumer's) answers UNSTABLE_OFFSET_COMMIT: it waits.
            assertThatThrownBy(() -> reader.committed(Set.of(in), Duration.ofSeconds(3)))
                    .isInstanceOf(org.apache.kafka.common.errors.TimeoutException.class);
            producer.commitTransaction();
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                OffsetAndMetadata committed = reader.committed(Set.of(in), Duration.ofSeconds(5)).get(in);
                return committed != null && committed.offset() == 7;
            });
        }
    }

    @Test
    void aTransactionLeftOpenIsAbortedAtItsTimeoutAndItsProducerFenced() throws Exception {
        TopicPartition timeouts = new TopicPartition("timeouts", 0);
        try (KafkaProducer<byte[], byte[]> producer = transactional("sleeper",
                Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 2000))) {
            producer.beginTransaction();
            send(producer, "timeouts", "never-", 4);
            assertThat(lastStableOffset(timeouts)).isZero();
            // The coordinator aborts it: an ABORT marker follows the 4 records, and the LSO reaches the end.
            await().atMost(Duration.ofSeconds(30)).until(() -> highWatermark(timeouts) == 5 && lastStableOffset(timeouts) == 5);
            assertThatThrownBy(producer::commitTransaction).isInstanceOf(KafkaException.class);
        }
        try (KafkaProducer<byte[], byte[]> next = transactional("sleeper", Map.of());
             KafkaConsumer<byte[], byte[]> consumer = readCommitted(Map.of())) {
            next.beginTransaction();
            send(next, "timeouts", "kept-", 1);
            next.commitTransaction();
            assertThat(readAll(consumer, timeouts, 1)).containsExactly("kept-0");
        }
    }

    /**
     * transaction.version 2 (KIP-890 part 2), which the 4.4 producer takes from ApiVersions' finalized features: no
     * AddPartitionsToTxn (the partition leader adds the partition when the first Produce v12+ of the transaction comes),
     * and EndTxn v5 answers the producer's next epoch, one higher after every commit or abort. A transaction started at
     * once after a commit (its markers may still be on their way) is not refused.
     */
    @Test
    void aProducerOfTransactionVersion2MovesToANewEpochWithEveryTransaction() throws Exception {
        TopicPartition epochs = new TopicPartition("epochs", 0);
        try (KafkaProducer<byte[], byte[]> producer = transactional("epoch-bumper", Map.of());
             Admin admin = Clients.admin(broker.bootstrapServers());
             KafkaConsumer<byte[], byte[]> consumer = readCommitted(Map.of())) {
            int initial = admin.describeTransactions(List.of("epoch-bumper")).description("epoch-bumper").get().producerEpoch();
            for (int round = 0; round < 3; round++) {
                producer.beginTransaction();
                send(producer, "epochs", "committed-" + round + "-", 2);
                producer.commitTransaction();
                producer.beginTransaction();
                send(producer, "epochs", "aborted-" + round + "-", 2);
                producer.abortTransaction();
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> admin.describeTransactions(List.of("epoch-bumper"))
                    .description("epoch-bumper").get().state() == org.apache.kafka.clients.admin.TransactionState.COMPLETE_ABORT);
            assertThat(admin.describeTransactions(List.of("epoch-bumper")).description("epoch-bumper").get().producerEpoch())
                    .isEqualTo(initial + 6);
            assertThat(readAll(consumer, epochs, 6)).containsExactly("committed-0-0", "committed-0-1", "committed-1-0",
                    "committed-1-1", "committed-2-0", "committed-2-1");
            assertThat(consumer.poll(Duration.ofSeconds(1))).isEmpty();
        }
    }

    @Test
    void aNewProducerOfTheTransactionalIdFencesTheOldOne() throws Exception {
        TopicPartition zombies = new TopicPartition("zombies", 0);
        try (KafkaProducer<byte[], byte[]> zombie = transactional("fenced-id", Map.of())) {
            zombie.beginTransaction();
            send(zombie, "zombies", "zombie-", 2);
            try (KafkaProducer<byte[], byte[]> successor = transactional("fenced-id", Map.of());
                 KafkaConsumer<byte[], byte[]> consumer = readCommitted(Map.of())) {
                // initTransactions of the successor aborted the zombie's transaction under a newer epoch: the
                // zombie's next write is refused (as Kafka refuses it), and its abort tells it it is fenced.
                assertThatThrownBy(() -> zombie.send(new ProducerRecord<>("zombies", "late".getBytes())).get())
                        .hasCauseInstanceOf(InvalidProducerEpochException.class);
                assertThatThrownBy(zombie::commitTransaction).isInstanceOf(InvalidProducerEpochException.class);
                assertThatThrownBy(zombie::abortTransaction).isInstanceOf(ProducerFencedException.class);
                successor.beginTransaction();
                send(successor, "zombies", "successor-", 2);
                successor.commitTransaction();
                assertThat(readAll(consumer, zombies, 2)).containsExactly("successor-0", "successor-1");
                assertThat(Set.copyOf(readAll(consumer, zombies, 2))).noneMatch(v -> v.startsWith("zombie"));
            }
        }
    }
}

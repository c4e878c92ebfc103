package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.TestCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DeleteRecords through kafka-clients' Admin, as a retention cut-off by hand: the records below the
 * offset are gone for every reader at once, stay gone after a SIGKILL, and a follower that takes
 * over leadership starts where its old leader did.
 */
class DeleteRecordsIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void deletedRecordsAreGoneForReadersAndStayGoneAfterASigkill() throws Exception {
        TopicPartition partition = new TopicPartition("cut", 0);
        try (BrokerProcess broker = BrokerProcess.start(dir, Map.of())) {
            try (Admin admin = Clients.admin(broker.bootstrapServers());
                 KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers())) {
                // One segment: the start survives the restart only through its checkpoint, not as a segment's base.
                admin.createTopics(List.of(new NewTopic(partition.topic(), 1, (short) 1))).all().get();
                send(producer, partition, 100);

                assertThat(lowWatermark(admin, partition, 42)).isEqualTo(42);
                assertThat(earliest(admin, partition)).isEqualTo(42);
                assertThat(readFromTheStart(broker.bootstrapServers(), partition, 58)).first().isEqualTo(42L);
            }
            broker.kill(); // the new start was checkpointed before the answer
            broker.restart();
            try (Admin admin = Clients.admin(broker.bootstrapServers())) {
                Awaitility.await("the restarted broker leads again").atMost(TIMEOUT).ignoreExceptions()
                        .until(() -> earliest(admin, partition) >= 0);
                assertThat(earliest(admin, partition)).isEqualTo(42);
                assertThat(readFromTheStart(broker.bootstrapServers(), partition, 58)).first().isEqualTo(42L);
            }
        }
    }

    @Test
    void requestsThatCannotBeMetAreRefusedAndChangeNothing() throws Exception {
        TopicPartition plain = new TopicPartition("plain", 0);
        TopicPartition compacted = new TopicPartition("compacted", 0);
        try (TestBroker broker = TestBroker.start(dir);
             Admin admin = Clients.admin(broker.bootstrapServers());
             KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(plain.topic(), 1, (short) 1),
                    new NewTopic(compacted.topic(), 1, (short) 1).configs(Map.of(LogConfig.CLEANUP_POLICY,
                            LogConfig.CLEANUP_POLICY_COMPACT)))).all().get();
            send(producer, plain, 10);
            send(producer, compacted, 10);

            assertThatThrownBy(() -> lowWatermark(admin, plain, 11)).hasCauseInstanceOf(OffsetOutOfRangeException.class);
            assertThatThrownBy(() -> lowWatermark(admin, compacted, 5)).hasCauseInstanceOf(PolicyViolationException.class);
            admin.listConsumerGroupOffsets("any").partitionsToOffsetAndMetadata().get(); // creates __consumer_offsets
            assertThatThrownBy(() -> lowWatermark(admin, new TopicPartition("__consumer_offsets", 0), 0))
                    .hasCauseInstanceOf(InvalidTopicException.class);
            assertThat(earliest(admin, plain)).isZero();
            assertThat(earliest(admin, compacted)).isZero();

            assertThat(lowWatermark(admin, plain, 4)).isEqualTo(4);
            assertThat(lowWatermark(admin, plain, 2)).as("a start never moves back").isEqualTo(4);
            assertThat(lowWatermark(admin, plain, -1)).as("-1: up to the high watermark").isEqualTo(10);
            assertThat(earliest(admin, plain)).isEqualTo(10);
        }
    }

    @Test
    void aFollowerThatTakesOverStartsWhereItsLeaderDid() throws Exception {
        TopicPartition partition = new TopicPartition("replicated-cut", 0);
        try (TestCluster cluster = TestCluster.start(dir, 2, Map.of(BrokerConfig.CONTROLLED_SHUTDOWN_ENABLE, "false"));
             Admin admin = Clients.admin(cluster.bootstrapServers());
             KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers())) {
            createReplicated(cluster, admin, partition);
            send(producer, partition, 100);
            int leader = TestCluster.leaderOf(admin, partition.topic(), 0);

            assertThat(lowWatermark(admin, partition, 60)).isEqualTo(60);
            send(producer, partition, 1); // acks=all: the follower has fetched since the delete
            failOver(cluster, admin, partition, leader);
            assertThat(earliest(admin, partition)).isEqualTo(60);
        }
    }

    @Test
    void aFollowerThatWasDownWhenTheCutFellInsideABatchCatchesUpAndCanLead() throws Exception {
        TopicPartition partition = new TopicPartition("batch-cut", 0);
        try (TestCluster cluster = TestCluster.start(dir, 2, Map.of(BrokerConfig.CONTROLLED_SHUTDOWN_ENABLE, "false"));
             Admin admin = Clients.admin(cluster.bootstrapServers());
             KafkaProducer<byte[], byte[]> producer = Clients.producer(cluster.bootstrapServers(),
                     Map.of(ProducerConfig.LINGER_MS_CONFIG, 1000, ProducerConfig.BATCH_SIZE_CONFIG, 1 << 20))) {
            createReplicated(cluster, admin, partition);
            int leader = TestCluster.leaderOf(admin, partition.topic(), 0);
            int follower = 1 - leader;
            cluster.broker(follower).kill();
            Awaitility.await("the ISR without the follower").atMost(TIMEOUT).pollInterval(Duration.ofMillis(200))
                    .until(() -> TestCluster.isrOf(admin, partition.topic(), 0).equals(List.of(leader)));
            send(producer, partition, 100); // one batch, offsets 0-99

            assertThat(lowWatermark(admin, partition, 42)).isEqualTo(42);
            cluster.broker(follower).restart(); // its fetch at 42 gets the whole batch from 0
            cluster.awaitFullIsr(admin, partition.topic(), 0, TIMEOUT);
            failOver(cluster, admin, partition, leader);
            assertThat(earliest(admin, partition)).isEqualTo(42);
            assertThat(readFromTheStart(cluster.bootstrapServers(), partition, 58)).first().isEqualTo(42L);
        }
    }

    /** Creates {@code partition}'s topic on both brokers of the cluster and waits for a full ISR. */
    private static void createReplicated(TestCluster cluster, Admin admin, TopicPartition partition) throws Exception {
        admin.createTopics(List.of(new NewTopic(partition.topic(), 1, (short) 2))).all().get();
        cluster.awaitFullIsr(admin, partition.topic(), 0, TIMEOUT);
    }

    /** SIGKILLs {@code leader} and waits until the other broker of the two leads {@code partition}. */
    private static void failOver(TestCluster cluster, Admin admin, TopicPartition partition, int leader) throws Exception {
        cluster.broker(leader).kill();
        Awaitility.await("the follower leads").atMost(TIMEOUT).ignoreExceptions()
                .until(() -> TestCluster.leaderOf(admin, partition.topic(), 0) == 1 - leader);
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, TopicPartition partition, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            producer.send(new ProducerRecord<>(partition.topic(), partition.partition(), null, new byte[200]));
        }
        producer.flush();
    }

    private static long lowWatermark(Admin admin, TopicPartition partition, long beforeOffset) throws Exception {
        return admin.deleteRecords(Map.of(partition, RecordsToDelete.beforeOffset(beforeOffset)))
                .lowWatermarks().get(partition).get().lowWatermark();
    }

    private static long earliest(Admin admin, TopicPartition partition) throws Exception {
        return admin.listOffsets(Map.of(partition, OffsetSpec.earliest())).partitionResult(partition).get().offset();
    }

    /** The offsets a consumer reads from the beginning, until it has {@code count} of them. */
    private static List<Long> readFromTheStart(String bootstrap, TopicPartition partition, int count) {
        List<Long> offsets = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(bootstrap)) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (offsets.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    offsets.add(record.offset());
                }
            }
        }
        assertThat(offsets).hasSize(count);
        return offsets;
    }
}

package io.tributary.broker.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.SkippingTime;
import io.tributary.broker.testing.TestBroker;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.testkit.wire.Requests;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTransactionCollection;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AddPartitionsToTxnResponse;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.tools.TransactionsCommand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's own {@code kafka-transactions} tool (TransactionsCommand, kafka-tools 4.4) against us: it lists and
 * describes an open transaction, describes the partition's producers, and aborts the hanging transaction (the
 * WriteTxnMarkers it sends to the partition leader), after which read_committed readers move past it. The verify-only
 * AddPartitionsToTxn (v4+, KIP-890) that partition leaders send answers per partition and changes nothing; an
 * idle transactional id expires.
 */
@Timeout(120)
class TransactionsToolIT {
    private static final SkippingTime TIME = new SkippingTime();
    private static final Duration ID_EXPIRATION = Duration.ofMinutes(10);
    private static TestBroker broker;

    /** What the tool's exit call becomes: an exception, so the test goes on. */
    private static final class ToolExit extends RuntimeException {
        final int code;

        ToolExit(int code, String message) {
            super("exit " + code + ": " + message);
            this.code = code;
        }
    }

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir, Map.of(
                BrokerConfig.TRANSACTION_STATE_LOG_REPLICATION_FACTOR, "1",
                BrokerConfig.TRANSACTION_STATE_LOG_NUM_PARTITIONS, "2",
                BrokerConfig.OFFSETS_TOPIC_REPLICATION_FACTOR, "1",
                // Far longer than any test takes (an Empty id is expirable, as in Kafka: one that expired between a
                // producer's InitProducerId and its first write would fail it); the expiry test moves the clock past it.
                BrokerConfig.TRANSACTIONAL_ID_EXPIRATION_MS, Long.toString(ID_EXPIRATION.toMillis()),
                BrokerConfig.TRANSACTION_REMOVE_EXPIRED_CLEANUP_INTERVAL_MS, "200"), TIME);
        try (Admin admin = Clients.admin(broker.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic("hanging", 1, (short) 1), new NewTopic("expiring", 1, (short) 1))).all().get();
        }
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @BeforeEach
    void catchExits() {
        Exit.setExitProcedure((code, message) -> {
            throw new ToolExit(code, message);
        });
    }

    @AfterEach
    void restoreExit() {
        Exit.resetExitProcedure();
    }

    private static String tool(String... command) throws Exception {
        String[] args = new String[command.length + 2];
        args[0] = "--bootstrap-server";
        args[1] = broker.bootstrapServers();
        System.arraycopy(command, 0, args, 2, command.length);
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            TransactionsCommand.main(args);
        } catch (ToolExit exit) {
            assertThat(exit.code).as("kafka-transactions " + String.join(" ", command) + " exit code; output: " + captured).isZero();
        } finally {
            System.setOut(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    @Test
    void listsDescribesAndAbortsAHangingTransaction() throws Exception {
        TopicPartition hanging = new TopicPartition("hanging", 0);
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(),
                Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "left-open"))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("hanging", "stuck".getBytes())).get();

            assertThat(tool("list")).contains("left-open").contains("Ongoing");
            assertThat(tool("describe", "--transactional-id", "left-open")).contains("Ongoing").contains("hanging-0");
            // ProducerId ProducerEpoch LatestCoordinatorEpoch LastSequence LastTimestamp CurrentTransactionStartOffset
            List<String[]> producers = tool("describe-producers", "--topic", "hanging", "--partition", "0").lines()
                    .filter(line -> line.matches("^\\d+\\s.*")).map(line -> line.trim().split("\\s+")).toList();
            assertThat(producers).hasSize(1);
            assertThat(producers.get(0)[1]).as("epoch").isEqualTo("0");
            assertThat(producers.get(0)[3]).as("last sequence").isEqualTo("0");
            assertThat(producers.get(0)[5]).as("current transaction start offset").isEqualTo("0");
            assertThat(CommittedReads.lastStableOffset(broker.bootstrapServers(), hanging)).isZero();

            tool("abort", "--topic", "hanging", "--partition", "0", "--start-offset", "0");
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> CommittedReads.lastStableOffset(broker.bootstrapServers(), hanging) == 2);
        }
    }

    @Test
    void anIdleTransactionalIdExpiresAndItsNextProducerGetsANewProducerId() throws Exception {
        long firstProducerId;
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(),
                Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "short-lived"))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("expiring", "once".getBytes())).get();
            producer.commitTransaction();
            assertThat(tool("list")).contains("short-lived");
            try (Admin admin = Clients.admin(broker.bootstrapServers())) {
                firstProducerId = admin.describeTransactions(List.of("short-lived")).description("short-lived").get().producerId();
            }
        }
        // Past transactional.id.expiration.ms (on the broker's clock) the id is forgotten, so the tool lists it no more.
        TIME.skip(ID_EXPIRATION.plusMinutes(1));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300)).until(() -> !tool("list").contains("short-lived"));
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(),
                Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "short-lived"));
             Admin admin = Clients.admin(broker.bootstrapServers())) {
            producer.initTransactions();
            assertThat(admin.describeTransactions(List.of("short-lived")).description("short-lived").get().producerId())
                    .isNotEqualTo(firstProducerId);
        }
    }

    private static Map<TopicPartition, Errors> verify(String id, long producerId, short epoch, TopicPartition... partitions)
            throws Exception {
        AddPartitionsToTxnTopicCollection topics = new AddPartitionsToTxnTopicCollection();
        for (TopicPartition partition : partitions) {
            topics.add(new AddPartitionsToTxnTopic().setName(partition.topic()).setPartitions(List.of(partition.partition())));
        }
        AddPartitionsToTxnTransactionCollection transactions = new AddPartitionsToTxnTransactionCollection();
        transactions.add(new AddPartitionsToTxnTransaction().setTransactionalId(id).setProducerId(producerId)
                .setProducerEpoch(epoch).setVerifyOnly(true).setTopics(topics));
        try (RawConnection raw = RawConnection.to(broker.bootstrapServers())) {
            AddPartitionsToTxnResponse response = (AddPartitionsToTxnResponse) raw.request(ApiKeys.ADD_PARTITIONS_TO_TXN, (short) 4,
                    new AddPartitionsToTxnRequestData().setTransactions(transactions));
            return response.errors().get(id);
        }
    }

    @Test
    void verifyOnlyAddPartitionsToTxnTellsWhichPartitionsAreInTheOpenTransaction() throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(),
                Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "verified"));
             Admin admin = Clients.admin(broker.bootstrapServers())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("expiring", "in".getBytes())).get();
            var described = admin.describeTransactions(List.of("verified")).description("verified").get();
            TopicPartition added = new TopicPartition("expiring", 0);
            TopicPartition other = new TopicPartition("hanging", 0);
            short epoch = (short) described.producerEpoch();
            assertThat(verify("verified", described.producerId(), epoch, added, other))
                    .isEqualTo(Map.of(added, Errors.NONE, other, Errors.INVALID_TXN_STATE));
            assertThat(verify("verified", described.producerId(), (short) (epoch - 1), added))
                    .isEqualTo(Map.of(added, Errors.PRODUCER_FENCED));
            assertThat(admin.describeTransactions(List.of("verified")).description("verified").get().topicPartitions())
                    .containsExactly(added); // verifying added nothing
            producer.abortTransaction();
        }
    }

    private static Errors lateProduce(String transactionalId, TopicPartition partition, long producerId, short epoch,
                                      int sequence) throws Exception {
        MemoryRecords records = MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, epoch, sequence,
                new SimpleRecord("late".getBytes()));
        try (RawConnection raw = RawConnection.to(broker.bootstrapServers())) {
            ProduceResponse response = (ProduceResponse) raw.request(ApiKeys.PRODUCE, (short) 9,
                    Requests.produce(partition.topic(), partition.partition(), (short) -1, records)
                            .setTransactionalId(transactionalId));
            return Errors.forCode(response.data().responses().iterator().next().partitionResponses().get(0).errorCode());
        }
    }

    private static boolean transactionOpenOn(Admin admin, TopicPartition partition) throws Exception {
        return admin.describeProducers(List.of(partition)).partitionResult(partition).get().activeProducers().stream()
                .anyMatch(producer -> producer.currentTransactionStartOffset().isPresent());
    }

    @Test
    void aTransactionalWriteToAPartitionOutsideTheOpenTransactionIsRefusedAndOpensNothing() throws Exception {
        TopicPartition added = new TopicPartition("late-writes", 0);
        TopicPartition other = new TopicPartition("late-writes", 1);
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(),
                Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "late-writer"));
             Admin admin = Clients.admin(broker.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic("late-writes", 2, (short) 1))).all().get();
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(added.topic(), added.partition(), null, "in".getBytes())).get();
            var described = admin.describeTransactions(List.of("late-writer")).description("late-writer").get();
            short epoch = (short) described.producerEpoch();

            // The partition leader asks the coordinator, which has only the partition the producer added.
            assertThat(lateProduce("late-writer", other, described.producerId(), epoch, 0)).isEqualTo(Errors.INVALID_TXN_STATE);

            producer.abortTransaction();
            await().atMost(Duration.ofSeconds(30)).until(() -> admin.describeTransactions(List.of("late-writer"))
                    .description("late-writer").get().state() == TransactionState.COMPLETE_ABORT);
            // A write delayed past the abort (a retry, a slow client) would open a transaction no one ends. The producer
            // speaks transaction version 2, so the abort's marker carries its next epoch, which fences the late write.
            assertThat(lateProduce("late-writer", added, described.producerId(), epoch, 1)).isEqualTo(Errors.INVALID_PRODUCER_EPOCH);

            assertThat(transactionOpenOn(admin, added)).isFalse();
            assertThat(transactionOpenOn(admin, other)).isFalse();
            assertThat(admin.listTransactions().all().get()).noneMatch(listing -> listing.transactionalId().equals("late-writer")
                    && listing.state() == TransactionState.ONGOING);
        }
    }
}

package io.tributary.broker.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.tools.DumpLogSegments;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compacted topic with committed and aborted transactions on a broker whose cleaner runs: once cleaned, a
 * read_committed consumer sees exactly the last committed value of each key, a read_uncommitted one no aborted
 * record at all (the cleaner dropped them), and Kafka's DumpLogSegments reads every segment and {@code .txnindex},
 * finding no aborted payload and an ABORT marker at the end of every transaction the indexes still list.
 */
@Timeout(120)
class TransactionalCompactionIT {
    private static final String TOPIC = "txn-compacted";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
    private static final int KEYS = 20;
    private static final int ROUNDS = 10;
    private static final List<String> KAFKA_ERRORS = List.of("Mismatches in", "invalid bytes", "Error at",
            "isvalid: false", "Exception");

    @TempDir
    Path dir;

    @BeforeEach
    void failInsteadOfExiting() {
        Exit.setExitProcedure((code, message) -> {
            throw new AssertionError("DumpLogSegments exited with " + code + ": " + message);
        });
    }

    @AfterEach
    void restoreExit() {
        Exit.resetExitProcedure();
    }

    @Test
    void afterCompactionReadCommittedSeesTheLastCommittedValuesAndNoAbortedRecordIsLeft() throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of(
                LogConfig.LOG_CLEANER_BACKOFF_MS, "50",
                BrokerConfig.TRANSACTION_STATE_LOG_REPLICATION_FACTOR, "1",
                BrokerConfig.TRANSACTION_STATE_LOG_NUM_PARTITIONS, "1",
                BrokerConfig.OFFSETS_TOPIC_REPLICATION_FACTOR, "1",
                BrokerConfig.OFFSETS_TOPIC_NUM_PARTITIONS, "1"))) {
            String bootstrap = broker.bootstrapServers();
            try (Admin admin = Clients.admin(bootstrap)) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1).configs(Map.of(
                        LogConfig.CLEANUP_POLICY, LogConfig.CLEANUP_POLICY_COMPACT,
                        LogConfig.SEGMENT_BYTES, "16384",
                        LogConfig.SEGMENT_MS, "500",
                        LogConfig.MIN_CLEANABLE_DIRTY_RATIO, "0.01")))).all().get();
            }
            try (KafkaProducer<byte[], byte[]> producer = Clients.producer(bootstrap,
                    Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "compaction-it"))) {
                producer.initTransactions();
                for (int round = 0; round < ROUNDS; round++) {
                    producer.beginTransaction();
                    sendAll(producer, "committed-" + round);
                    producer.commitTransaction();
                    producer.beginTransaction();
                    sendAll(producer, "aborted-" + round);
                    producer.flush(); // else the producer drops the unsent records instead of writing them
                    producer.abortTransaction();
                }
            }
            Map<String, String> lastCommitted = new HashMap<>();
            for (int key = 0; key < KEYS; key++) {
                lastCommitted.put("k" + key, "committed-" + (ROUNDS - 1));
            }
            assertThat(latest(readAll(bootstrap, "read_committed"))).isEqualTo(lastCommitted);
            assertThat(readAll(bootstrap, "read_uncommitted")).as("the aborted records were written")
                    .anyMatch(r -> r[1].startsWith("aborted-"));

            // Once segment.ms has passed, a plain record rolls the transactions into closed segments for the cleaner.
            try (KafkaProducer<byte[], byte[]> plain = Clients.producer(bootstrap, Map.of())) {
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
                    plain.send(new ProducerRecord<>(TOPIC, bytes("sentinel"), bytes("s"))).get();
                    List<String[]> everything = readAll(bootstrap, "read_uncommitted");
                    return everything.stream().noneMatch(r -> r[1].startsWith("aborted-"))
                            && everything.stream().filter(r -> r[0].startsWith("k")).count() == KEYS;
                });
            }

            List<String[]> committed = readAll(bootstrap, "read_committed");
            assertThat(committed.stream().filter(r -> r[0].startsWith("k")).map(r -> r[0]))
                    .as("one record per key").doesNotHaveDuplicates().hasSize(KEYS);
            assertThat(latest(committed)).isEqualTo(lastCommitted);
            checkWithDumpLogSegments(dir.resolve("logs").resolve(TOPIC + "-0"));
        }
    }

    private static void sendAll(KafkaProducer<byte[], byte[]> producer, String value) {
        for (int key = 0; key < KEYS; key++) {
            producer.send(new ProducerRecord<>(TOPIC, bytes("k" + key), bytes(value)));
        }
    }

    /** Every segment and transaction index as Kafka reads them: valid, no aborted payload, listed aborts marked. */
    private static void checkWithDumpLogSegments(Path partitionDir) throws Exception {
        List<Path> logs;
        try (Stream<Path> files = Files.list(partitionDir)) {
            logs = files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList();
        }
        StringBuilder segments = new StringBuilder();
        for (Path log : logs) {
            String output = dump(log.toString(), "--deep-iteration", "--print-data-log");
            assertThat(output).doesNotContain(KAFKA_ERRORS).doesNotContain("payload: aborted-");
            segments.append(output);
        }
        assertThat(segments.toString()).contains("payload: committed-" + (ROUNDS - 1), "endTxnMarker: COMMIT");
        List<Long> abortMarkers = numbers("(?m)offset: (\\d+) .*endTxnMarker: ABORT", segments.toString());
        try (Stream<Path> files = Files.list(partitionDir)) {
            for (Path index : files.filter(f -> f.getFileName().toString().endsWith(".txnindex")).toList()) {
                String output = dump(index.toString());
                assertThat(output).doesNotContain(KAFKA_ERRORS);
                assertThat(numbers("lastOffset: (\\d+) lastStableOffset", output))
                        .as("every aborted transaction %s lists ends at an ABORT marker", index).isSubsetOf(abortMarkers);
            }
        }
    }

    private static String dump(String... arguments) throws Exception {
        List<String> args = new ArrayList<>(List.of("--files"));
        args.addAll(List.of(arguments));
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            DumpLogSegments.main(args.toArray(String[]::new));
        } finally {
            System.setOut(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    private static List<Long> numbers(String regex, String text) {
        List<Long> found = new ArrayList<>();
        Matcher m = Pattern.compile(regex).matcher(text);
        while (m.find()) {
            found.add(Long.parseLong(m.group(1)));
        }
        return found;
    }

    /** Key and value of every record from offset 0 to the end the consumer is told (the LSO for read_committed). */
    private static List<String[]> readAll(String bootstrap, String isolation) {
        try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(bootstrap,
                Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation))) {
            consumer.assign(List.of(PARTITION));
            consumer.seekToBeginning(List.of(PARTITION));
            long end = consumer.endOffsets(List.of(PARTITION)).get(PARTITION);
            List<String[]> records = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    records.add(new String[]{string(record.key()), string(record.value())});
                }
                return consumer.position(PARTITION) >= end;
            });
            return records;
        }
    }

    private static Map<String, String> latest(List<String[]> records) {
        Map<String, String> state = new HashMap<>();
        records.stream().filter(r -> r[0].startsWith("k")).forEach(r -> state.put(r[0], r[1]));
        return state;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String string(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}

package io.tributary.broker.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.ExternalCommand;
import io.tributary.broker.testing.ExternalCommand.Result;
import io.tributary.broker.testing.Records;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kcat (librdkafka, the C client): metadata, produce/consume in every compression codec, and librdkafka's
 * transactional producer.
 */
class KcatIT {
    private static final int RECORDS = 500;
    private static final Path C_CLIENTS = Path.of("..", "clients", "c").toAbsolutePath().normalize();

    private static TestBroker broker;
    private static Path workDir;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir);
        workDir = dir;
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static Result kcat(String stdin, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("kcat", "-b", broker.bootstrapServers()));
        command.addAll(List.of(args));
        Result result = ExternalCommand.run(command, workDir, stdin, 30);
        assertThat(result.exitCode()).as("kcat %s: %s", String.join(" ", args), result.stderr()).isZero();
        return result;
    }

    @Test
    void listsMetadata() throws Exception {
        kcat("one\n", "-P", "-t", "listed");
        JsonNode metadata = new ObjectMapper().readTree(kcat("", "-L", "-J").stdout());
        assertThat(metadata.path("brokers")).singleElement()
                .satisfies(b -> assertThat(b.path("id").asInt()).isZero());
        assertThat(metadata.path("topics").findValuesAsText("topic")).contains("listed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "gzip", "snappy", "lz4", "zstd"})
    void producesAndConsumesWithCompression(String codec) throws Exception {
        String topic = "kcat-" + codec;
        String lines = IntStream.range(0, RECORDS).mapToObj(i -> "key-" + i + ":value-" + i + "-" + "x".repeat(i % 50))
                .collect(Collectors.joining("\n", "", "\n"));
        kcat(lines, "-P", "-t", topic, "-K", ":", "-z", codec, "-X", "enable.idempotence=true", "-X", "linger.ms=20");

        String consumed = kcat("", "-C", "-t", topic, "-o", "beginning", "-e", "-q", "-f", "%k:%s\\n").stdout();
        assertThat(consumed).isEqualTo(lines);

        // The Java consumer reads what librdkafka compressed, byte for byte.
        List<ConsumerRecord<byte[], byte[]>> read = Records.readAll(broker.bootstrapServers(), topic, Duration.ofSeconds(30));
        assertThat(read).hasSize(RECORDS);
        assertThat(new String(read.get(7).key(), StandardCharsets.UTF_8)).isEqualTo("key-7");
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "snappy", "lz4", "zstd"})
    void consumesWhatTheJavaProducerCompressed(String codec) throws Exception {
        String topic = "java-" + codec;
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(),
                Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec, ProducerConfig.LINGER_MS_CONFIG, 20))) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(topic, ("k" + i).getBytes(StandardCharsets.UTF_8), ("v" + i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
        String consumed = kcat("", "-C", "-t", topic, "-o", "beginning", "-e", "-q", "-f", "%k=%s\\n").stdout();
        assertThat(consumed.lines()).hasSize(RECORDS).startsWith("k0=v0").endsWith("k" + (RECORDS - 1) + "=v" + (RECORDS - 1));
    }

    /**
     * librdkafka's transactional producer (kcat has none: a small C client, clients/c, compiled here against Debian's
     * librdkafka-dev), which speaks transaction version 0: AddPartitionsToTxn, AddOffsetsToTxn and TxnOffsetCommit,
     * EndTxn without the epoch bump. Of six transactions, three commit and three abort, each with the group's offset:
     * kcat and the Java consumer, reading read_committed, see exactly the committed records, and the group's offset is
     * the last committed transaction's.
     */
    @Test
    void librdkafkasTransactionalProducerCommitsAndAbortsAndReadCommittedSeesOnlyTheCommitted() throws Exception {
        String topic = "librdkafka-txn";
        try (Admin admin = Clients.admin(broker.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
            Path client = workDir.resolve("transactional_producer");
            Result compiled = ExternalCommand.run(List.of("sh", "-c", "cc -o " + client + " " + C_CLIENTS.resolve("transactional_producer.c")
                    + " $(pkg-config --cflags --libs rdkafka)"), workDir, "", 60);
            assertThat(compiled.exitCode()).as("compiling the C client (librdkafka-dev): %s", compiled.stderr()).isZero();

            Result produced = ExternalCommand.run(List.of(client.toString(), broker.bootstrapServers(), "c-producer", topic,
                    "c-transformers", "6", "10"), workDir, "", 120);
            assertThat(produced.exitCode()).as("the C client: %s", produced.stderr()).isZero();

            List<String> committed = IntStream.of(0, 2, 4).boxed()
                    .flatMap(t -> IntStream.range(0, 10).mapToObj(i -> "committed-" + t + "-" + i)).toList();
            assertThat(kcat("", "-C", "-t", topic, "-o", "beginning", "-e", "-q").stdout().lines()).isEqualTo(committed);
            assertThat(kcat("", "-C", "-t", topic, "-o", "beginning", "-e", "-q", "-X", "isolation.level=read_uncommitted")
                    .stdout().lines()).hasSize(60).contains("aborted-5-9");
            try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(broker.bootstrapServers(),
                    Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"))) {
                TopicPartition partition = new TopicPartition(topic, 0);
                consumer.assign(List.of(partition));
                consumer.seekToBeginning(List.of(partition));
                List<String> read = new ArrayList<>();
                await().atMost(Duration.ofSeconds(30)).until(() -> {
                    consumer.poll(Duration.ofMillis(200)).forEach(r -> read.add(new String(r.value(), StandardCharsets.UTF_8)));
                    return read.size() >= committed.size();
                });
                assertThat(read).isEqualTo(committed);
            }
            assertThat(admin.listConsumerGroupOffsets("c-transformers").partitionsToOffsetAndMetadata().get()
                    .get(new TopicPartition(topic, 0)).offset()).as("the offset of the last committed transaction").isEqualTo(5);
        }
    }
}

package io.tributary.sink;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * JSON values decoded with an Avro schema into typed columns, and the three bad-record policies
 * for a value that does not decode: dead-letter, skip, fail.
 */
class SinkValueDecodingIT extends BrokerTestBase {
    private static final String SCHEMA = "{\"type\":\"record\",\"name\":\"Order\",\"fields\":["
        + "{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"item\",\"type\":\"string\"},{\"name\":\"price\",\"type\":\"double\"}]}";

    private static final int BAD_OFFSET = 42;
    private final Configuration conf = new Configuration();

    @TempDir
    java.nio.file.Path dir;

    /** 100 JSON orders in one partition of a new topic; the value at offset 42 does not decode. */
    private static void produceOrdersWithABadOne(String topic) throws Exception {
        broker.createTopic(topic, 1);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < 100; i++) {
                String json = i == BAD_OFFSET ? "{\"id\": \"not a number\"}"
                    : "{\"id\": " + i + ", \"item\": \"item-" + i + "\", \"price\": " + i + ".5}";
                producer.send(new ProducerRecord<>(topic, 0, null, json.getBytes(StandardCharsets.UTF_8)));
            }
        }
    }

    /** Produces the orders into {@code topic}; returns settings decoding them into {@code root} under {@code policy}. */
    private Map<String, Object> ordersWithABadOne(String topic, Path root, String policy) throws Exception {
        produceOrdersWithABadOne(topic);
        java.nio.file.Path schemaFile = dir.resolve("order.avsc");
        Files.writeString(schemaFile, SCHEMA);
        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, topic + "-sink", root);
        props.put(SinkConfig.VALUE_SCHEMA, schemaFile.toString());
        props.put(SinkConfig.VALUE_FORMAT, "json");
        props.put(SinkConfig.BAD_RECORD_POLICY, policy);
        return props;
    }

    @Test
    void decodesJsonValuesIntoColumnsAndDeadLettersTheBadOne() throws Exception {
        String topic = "orders";
        broker.createTopic("orders-dlq", 1);
        java.nio.file.Path lake = dir.resolve("lake");
        Path root = new Path(lake.toUri());
        Map<String, Object> props = ordersWithABadOne(topic, root, "dead-letter");
        props.put(SinkConfig.DEAD_LETTER_TOPIC, "orders-dlq");
        try (RunningSink sink = RunningSink.start(props)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> SinkTests.ledger(root, topic, conf).equals(Map.of(0, 100L)));
            assertThat(sink.sink().badRecordCount()).isEqualTo(1);
        }
        DatasetContents contents = DatasetContents.read(root, topic, conf);
        assertThat(contents.offsets().get(0).cardinality()).isEqualTo(99);
        assertThat(contents.offsets().get(0).get(BAD_OFFSET)).as("the bad record is not in the dataset").isFalse();
        assertThat(contents.duplicates()).isEmpty();

        List<ConsumerRecord<byte[], byte[]>> dead = deadLetters();
        assertThat(dead).hasSize(1);
        assertThat(new String(dead.get(0).headers().lastHeader(BadRecords.HEADER_OFFSET).value(), StandardCharsets.UTF_8)).isEqualTo("42");
        assertThat(new String(dead.get(0).value(), StandardCharsets.UTF_8)).contains("not a number");

        OutsideReader duckdb = OutsideReader.readTopic(lake, topic);
        assertThat(duckdb.count()).isEqualTo(99);
        assertThat(duckdb.columns()).containsExactly("topic", "partition", "offset", "timestamp", "key", "value", "headers",
            "id", "item", "price", "dt", "hr");
        assertThat(duckdb.types().subList(7, 10)).containsExactly("BIGINT", "VARCHAR", "DOUBLE");
    }

    @Test
    void skipCountsTheBadRecordAndWritesEverythingElse() throws Exception {
        String topic = "skipped";
        Path root = new Path(dir.resolve("lake").toUri());
        Map<String, Object> props = ordersWithABadOne(topic, root, "skip");
        try (RunningSink sink = RunningSink.start(props)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> SinkTests.ledger(root, topic, conf).equals(Map.of(0, 100L)));
            assertThat(sink.sink().badRecordCount()).isEqualTo(1);
            assertThat(sink.isRunning()).isTrue();
        }
        DatasetContents contents = DatasetContents.read(root, topic, conf);
        assertThat(contents.offsets().get(0).cardinality()).isEqualTo(99);
        assertThat(contents.offsets().get(0).get(BAD_OFFSET)).isFalse();
        assertThat(contents.offsets().get(0).nextClearBit(0)).isEqualTo(BAD_OFFSET);
        assertThat(contents.duplicates()).isEmpty();
    }

    @Test
    void failStopsAtTheBadRecordNamingItAndCommitsOnlyWhatCameBefore() throws Exception {
        String topic = "strict";
        Path root = new Path(dir.resolve("lake").toUri());
        Map<String, Object> props = ordersWithABadOne(topic, root, "fail");
        props.put(SinkConfig.ROTATE_INTERVAL_MS, "3600000"); // only the stop can commit
        try (RunningSink sink = RunningSink.start(props)) {
            Throwable failure = sink.awaitFailure(Duration.ofSeconds(60));
            assertThat(failure).isInstanceOf(BadRecordException.class)
                .hasMessageContaining(topic + "-0 at offset " + BAD_OFFSET)
                .hasMessageContaining("bad.record.policy=fail");
        }
        assertThat(SinkTests.ledger(root, topic, conf)).isEqualTo(Map.of(0, (long) BAD_OFFSET));
        DatasetContents.read(root, topic, conf).assertExactly(Map.of(0, (long) BAD_OFFSET));
        assertThat(broker.committedOffsets(topic + "-sink")).isEqualTo(Map.of(0, (long) BAD_OFFSET));
    }

    @Test
    void failEndsTheSinkProcessWithExitCodeOneAndLogsWhy() throws Exception {
        String topic = "strict-process";
        Path root = new Path(dir.resolve("lake").toUri());
        Map<String, Object> props = ordersWithABadOne(topic, root, "fail");
        try (SinkProcess sink = SinkProcess.start(dir, "strict", props)) {
            assertThat(sink.awaitExit(Duration.ofSeconds(90))).as("exit code; %s", sink.logEnd()).isEqualTo(1);
            assertThat(sink.logText()).contains("the sink failed", topic + "-0 at offset " + BAD_OFFSET)
                .doesNotContain(SinkMain.STOPPED_CLEANLY);
        }
        assertThat(SinkTests.ledger(root, topic, conf)).isEqualTo(Map.of(0, (long) BAD_OFFSET));
    }

    private List<ConsumerRecord<byte[], byte[]>> deadLetters() {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(new org.apache.kafka.common.TopicPartition("orders-dlq", 0)));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                return !records.isEmpty();
            });
        }
        return records;
    }
}

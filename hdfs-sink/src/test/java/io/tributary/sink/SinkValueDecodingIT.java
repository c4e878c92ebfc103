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

/** JSON values decoded with an Avro schema into typed columns; a value that does not decode is dead-lettered. */
class SinkValueDecodingIT extends BrokerTestBase {
    private static final String SCHEMA = "{\"type\":\"record\",\"name\":\"Order\",\"fields\":["
        + "{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"item\",\"type\":\"string\"},{\"name\":\"price\",\"type\":\"double\"}]}";

    @TempDir
    java.nio.file.Path dir;

    @Test
    void decodesJsonValuesIntoColumnsAndDeadLettersTheBadOne() throws Exception {
        String topic = "orders";
        broker.createTopic(topic, 1);
        broker.createTopic("orders-dlq", 1);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < 100; i++) {
                String json = i == 42 ? "{\"id\": \"not a number\"}"
                    : "{\"id\": " + i + ", \"item\": \"item-" + i + "\", \"price\": " + i + ".5}";
                producer.send(new ProducerRecord<>(topic, 0, null, json.getBytes(StandardCharsets.UTF_8)));
            }
        }
        java.nio.file.Path schemaFile = dir.resolve("order.avsc");
        Files.writeString(schemaFile, SCHEMA);
        java.nio.file.Path lake = dir.resolve("lake");
        Path root = new Path(lake.toUri());
        Map<String, Object> props = SinkTests.props(broker.bootstrapServers(), topic, "orders-sink", root);
        props.put(SinkConfig.VALUE_SCHEMA, schemaFile.toString());
        props.put(SinkConfig.VALUE_FORMAT, "json");
        props.put(SinkConfig.BAD_RECORD_POLICY, "dead-letter");
        props.put(SinkConfig.DEAD_LETTER_TOPIC, "orders-dlq");
        Configuration conf = new Configuration();
        try (RunningSink sink = RunningSink.start(props)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> SinkTests.ledger(root, topic, conf).equals(Map.of(0, 100L)));
        }
        DatasetContents contents = DatasetContents.read(root, topic, conf);
        assertThat(contents.offsets().get(0).cardinality()).isEqualTo(99);
        assertThat(contents.offsets().get(0).get(42)).as("the bad record is not in the dataset").isFalse();
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

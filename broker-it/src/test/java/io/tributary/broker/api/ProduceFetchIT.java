package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The default (idempotent) kafka-clients producer and an assign/seek consumer against one broker. */
class ProduceFetchIT {
    private static TestBroker broker;

    @BeforeAll
    static void startBroker(@TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir);
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void defaultProducerWritesWhatAnAssignedConsumerReadsBack() throws Exception {
        String topic = "round-trip";
        List<RecordMetadata> acks = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers())) {
            for (int i = 0; i < 100; i++) {
                acks.add(producer.send(new ProducerRecord<>(topic, bytes("key-" + i), bytes("value-" + i))).get());
            }
        }
        assertThat(acks).extracting(RecordMetadata::offset).containsExactlyElementsOf(range(0, 100));

        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(broker.bootstrapServers())) {
            consumer.assign(List.of(partition));
            consumer.seek(partition, 40);
            List<ConsumerRecord<byte[], byte[]>> read = pollUntil(consumer, 60);
            assertThat(read).extracting(ConsumerRecord::offset).containsExactlyElementsOf(range(40, 100));
            assertThat(read).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                    .startsWith("value-40").endsWith("value-99");
        }
    }

    @Test
    void longPollAnswersAsSoonAsDataArrivesNotAtMaxWait() throws Exception {
        String topic = "long-poll";
        TopicPartition partition = new TopicPartition(topic, 0);
        KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(broker.bootstrapServers(), Map.of("fetch.max.wait.ms", 20_000));
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers())) {
            producer.send(new ProducerRecord<>(topic, bytes("first"))).get();
            consumer.assign(List.of(partition));
            consumer.seekToEnd(List.of(partition));
            assertThat(consumer.position(partition)).isEqualTo(1);
            assertThat(consumer.poll(Duration.ofMillis(300))).isEmpty(); // leaves a fetch parked on the broker

            long sent = System.nanoTime();
            producer.send(new ProducerRecord<>(topic, bytes("second"))).get();
            List<ConsumerRecord<byte[], byte[]>> read = pollUntil(consumer, 1);

            assertThat(read).extracting(r -> new String(r.value(), StandardCharsets.UTF_8)).containsExactly("second");
            assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(Duration.ofSeconds(10));
        } finally {
            consumer.close(Duration.ZERO); // its next fetch is parked for 20 s; nothing to wait for
        }
    }

    static List<ConsumerRecord<byte[], byte[]>> pollUntil(KafkaConsumer<byte[], byte[]> consumer, int count) {
        List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (read.size() < count && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(500)).forEach(read::add);
        }
        return read;
    }

    static List<Long> range(long from, long to) {
        List<Long> values = new ArrayList<>();
        for (long i = from; i < to; i++) {
            values.add(i);
        }
        return values;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

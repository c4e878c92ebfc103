package io.tributary.broker.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A million records with keys and headers go through the broker and come back byte for byte, in
 * order, each exactly once. Records are generated from their index, so nothing is held in memory.
 */
class MillionRecordsIT {
    private static final String TOPIC = "million";
    private static final int PARTITIONS = 2;
    private static final int RECORDS = 1_000_000;

    @Test
    void roundTripsAMillionRecordsByteForByte(@TempDir Path dir) throws Exception {
        try (TestBroker broker = TestBroker.start(dir)) {
            try (Admin admin = Clients.admin(broker.bootstrapServers())) {
                admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get();
            }
            AtomicReference<Exception> failure = new AtomicReference<>();
            try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(), Map.of(
                    ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.BATCH_SIZE_CONFIG, 64 * 1024))) {
                for (int i = 0; i < RECORDS; i++) {
                    producer.send(record(i), (metadata, error) -> {
                        if (error != null) {
                            failure.compareAndSet(null, error);
                        }
                    });
                }
                producer.flush();
            }
            assertThat(failure.get()).isNull();

            int[] nextIndex = new int[PARTITIONS];
            for (int p = 0; p < PARTITIONS; p++) {
                nextIndex[p] = p;
            }
            long read = 0;
            try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(broker.bootstrapServers(), Map.of("max.poll.records", 10_000))) {
                List<TopicPartition> partitions = List.of(new TopicPartition(TOPIC, 0), new TopicPartition(TOPIC, 1));
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
                while (read < RECORDS && System.nanoTime() < deadline) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                        int p = record.partition();
                        assertSame(record, record(nextIndex[p]), nextIndex[p]);
                        nextIndex[p] += PARTITIONS;
                        read++;
                    }
                }
                assertThat(read).isEqualTo(RECORDS);
                assertThat(consumer.poll(Duration.ofMillis(500))).as("nothing beyond the million").isEmpty();
            }
        }
    }

    /** Record i: partition i mod 2, a key that embeds i, a value of 0..199 random bytes, two headers. */
    private static ProducerRecord<byte[], byte[]> record(int i) {
        SplittableRandom random = new SplittableRandom(i);
        byte[] key = ByteBuffer.allocate(12).putInt(i).putLong(random.nextLong()).array();
        byte[] value = new byte[random.nextInt(200)];
        random.nextBytes(value);
        byte[] trace = new byte[random.nextInt(1, 16)];
        random.nextBytes(trace);
        List<Header> headers = List.of(new RecordHeader("index", ByteBuffer.allocate(4).putInt(i).array()), new RecordHeader("trace", trace));
        return new ProducerRecord<>(TOPIC, i % PARTITIONS, (long) i, key, value, headers);
    }

    private static void assertSame(ConsumerRecord<byte[], byte[]> actual, ProducerRecord<byte[], byte[]> expected, int index) {
        if (!Arrays.equals(actual.key(), expected.key()) || !Arrays.equals(actual.value(), expected.value())
                || actual.timestamp() != expected.timestamp()) {
            throw new AssertionError("record " + index + " differs at offset " + actual.offset() + " of partition " + actual.partition());
        }
        Header[] headers = actual.headers().toArray();
        Header[] wanted = expected.headers().toArray();
        assertThat(headers).as("headers of record %d", index).hasSameSizeAs(wanted);
        for (int h = 0; h < wanted.length; h++) {
            if (!headers[h].key().equals(wanted[h].key()) || !Arrays.equals(headers[h].value(), wanted[h].value())) {
                throw new AssertionError("header " + h + " of record " + index + " differs");
            }
        }
    }
}

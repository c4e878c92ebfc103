package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.Records;
import io.tributary.testkit.FileSizeLimit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write to the active segment fails part-way, as on a full disk: here the broker's file size limit
 * ({@code RLIMIT_FSIZE}, set from outside with {@code prlimit}) stops the segment file in the middle of a batch. The
 * produce is refused, and once the limit is lifted the producer's retries and every later append land after the last
 * whole batch: every acknowledged record is served once, in order, before and after a crash and recovery.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WriteFailureIT {
    private static final String TOPIC = "filling";
    private static final int RECORDS_PER_PHASE = 1_000;
    private static final int VALUE_BYTES = 1_000;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void aWriteThatStopsPartWayLeavesNoTornBatchUnderTheAppendsAfterIt() throws Exception {
        try (BrokerProcess broker = BrokerProcess.start(dir, Map.of())) {
            try (Admin admin = Clients.admin(broker.bootstrapServers())) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
            }
            Path segment = dir.resolve("logs").resolve(TOPIC + "-0").resolve("00000000000000000000.log");
            AtomicReference<Exception> failure = new AtomicReference<>();
            try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(), Map.of(
                    ProducerConfig.LINGER_MS_CONFIG, 5,
                    ProducerConfig.BATCH_SIZE_CONFIG, 16_384,
                    ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 100,
                    ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000))) {
                sendPhase(producer, 0, failure);
                producer.flush();

                // An odd number of bytes more than the segment holds: the limit falls inside a batch.
                FileSizeLimit.set(broker.pid(), Files.size(segment) + 100_007);
                sendPhase(producer, 1, failure);
                Awaitility.await("a produce refused for the failed write").atMost(WAIT)
                        .until(() -> retries(producer) > 0);
                FileSizeLimit.lift(broker.pid());
                producer.flush();

                sendPhase(producer, 2, failure);
                producer.flush();
            }
            assertThat(failure.get()).as("every record acknowledged in the end").isNull();
            assertThat(Files.readString(broker.output())).as("the broker's log names the failure")
                    .contains("Partition " + TOPIC + "-0: appends to", "File too large");
            assertEveryRecordOnceInOrder(broker, "served after the failed write");

            broker.kill();
            broker.restart();
            assertEveryRecordOnceInOrder(broker, "served after a crash and recovery");
        }
    }

    private static void sendPhase(KafkaProducer<byte[], byte[]> producer, int phase, AtomicReference<Exception> failure) {
        for (int i = phase * RECORDS_PER_PHASE; i < (phase + 1) * RECORDS_PER_PHASE; i++) {
            producer.send(new ProducerRecord<>(TOPIC, value(i)), (metadata, error) -> {
                if (error != null) {
                    failure.compareAndSet(null, error);
                }
            });
        }
    }

    private static double retries(KafkaProducer<byte[], byte[]> producer) {
        return producer.metrics().entrySet().stream()
                .filter(e -> e.getKey().group().equals("producer-metrics") && e.getKey().name().equals("record-retry-total"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }

    private static void assertEveryRecordOnceInOrder(BrokerProcess broker, String when) {
        List<ConsumerRecord<byte[], byte[]>> read = Records.readAll(broker.bootstrapServers(), TOPIC, WAIT);
        assertThat(read).as(when).hasSize(3 * RECORDS_PER_PHASE);
        for (int i = 0; i < read.size(); i++) {
            assertThat(read.get(i).offset()).as(when).isEqualTo(i);
            assertThat(read.get(i).value()).as("%s: offset %d", when, i).isEqualTo(value(i));
        }
    }

    private static byte[] value(int i) {
        StringBuilder value = new StringBuilder(Integer.toString(i));
        while (value.length() < VALUE_BYTES) {
            value.append('.');
        }
        return value.toString().getBytes(StandardCharsets.UTF_8);
    }
}

package io.tributary.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.Records;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker (a separate JVM) is stopped in the middle of a produce stream and started again:
 * every acknowledged record is there afterwards, and nothing is there twice — the idempotent
 * producer's retries of batches that were written just before the stop are recognised.
 */
class RestartIT {
    private static final String TOPIC = "restarts";
    private static final int RECORDS = 20_000;
    private static final int STOP_AFTER_ACKS = 6_000;

    @TempDir
    Path dir;

    @Test
    void sigtermLosesNothingAcknowledgedAndDuplicatesNothing() throws Exception {
        survivesRestart(broker -> {
            try {
                assertThat(broker.terminate()).as("the JVM's exit code after SIGTERM").isEqualTo(128 + 15);
                assertThat(Files.readString(broker.output())).contains("Tributary broker stopped");
            } catch (InterruptedException | IOException e) {
                throw new IllegalStateException(e);
            }
            return null;
        });
    }

    @Test
    void sigkillLosesNothingAcknowledgedAndDuplicatesNothing() throws Exception {
        survivesRestart(broker -> {
            try {
                broker.kill();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return null;
        });
    }

    private void survivesRestart(Function<BrokerProcess, Void> stop) throws Exception {
        try (BrokerProcess broker = BrokerProcess.start(dir, Map.of())) {
            try (Admin admin = Clients.admin(broker.bootstrapServers())) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1))).all().get();
            }
            Set<String> acknowledged = ConcurrentHashMap.newKeySet();
            AtomicInteger failed = new AtomicInteger();
            try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(), Map.of(
                    ProducerConfig.LINGER_MS_CONFIG, 5,
                    ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000,
                    ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 200))) {
                for (int i = 0; i < RECORDS; i++) {
                    String value = "record-" + i;
                    producer.send(new ProducerRecord<>(TOPIC, bytes("key-" + i), bytes(value)), (metadata, error) -> {
                        if (error == null) {
                            acknowledged.add(value);
                        } else {
                            failed.incrementAndGet();
                        }
                    });
                    if (i == STOP_AFTER_ACKS) {
                        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> acknowledged.size() >= STOP_AFTER_ACKS / 2);
                        stop.apply(broker);
                        broker.restart();
                    }
                }
                producer.flush();
            }
            List<ConsumerRecord<byte[], byte[]>> read = Records.readAll(broker.bootstrapServers(), TOPIC, Duration.ofSeconds(60));
            Map<String, Long> counts = read.stream()
                    .collect(Collectors.groupingBy(r -> new String(r.value(), StandardCharsets.UTF_8), Collectors.counting()));

            assertThat(counts.keySet()).as("every acknowledged record survives").containsAll(acknowledged);
            assertThat(counts.entrySet()).as("no record is stored twice").allMatch(e -> e.getValue() == 1);
            assertThat(acknowledged.size() + failed.get()).isEqualTo(RECORDS);
            assertThat(acknowledged).as("the producer recovers after the restart").hasSizeGreaterThan(STOP_AFTER_ACKS);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import io.tributary.broker.testing.CapturedLog;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client telemetry (KIP-714) is answered as Kafka answers it without a telemetry receiver: GetTelemetrySubscriptions and
 * PushTelemetry are not advertised, so the Java client, which asks by default ({@code enable.metrics.push=true}),
 * turns its telemetry off for good without sending either and without a warning.
 */
@Timeout(60)
class ClientTelemetryIT {
    private static TestBroker broker;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir, Map.of("offsets.topic.replication.factor", "1", "offsets.topic.num.partitions", "1",
                "group.initial.rebalance.delay.ms", "0"));
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void javaClientsThatPushMetricsByDefaultNeverAskAndLogNothing() throws Exception {
        assertThat(SupportedApis.range(ApiKeys.GET_TELEMETRY_SUBSCRIPTIONS)).isEmpty();
        assertThat(SupportedApis.range(ApiKeys.PUSH_TELEMETRY)).isEmpty();
        try (CapturedLog warnings = CapturedLog.warningsOfAll()) {
            try (Admin admin = Clients.admin(broker.bootstrapServers(), Map.of("enable.metrics.push", true))) {
                admin.createTopics(List.of(new NewTopic("telemetry", 1, (short) 1))).all().get();
            }
            try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(), Map.of("enable.metrics.push", true))) {
                producer.send(new ProducerRecord<>("telemetry", new byte[] {1})).get();
            }
            try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(broker.bootstrapServers(), Map.of("enable.metrics.push", true,
                    "group.id", "telemetry-readers", "auto.offset.reset", "earliest"))) {
                consumer.subscribe(List.of("telemetry"));
                int read = 0;
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (read == 0 && System.nanoTime() < deadline) {
                    ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                    read += records.count();
                }
                assertThat(read).isEqualTo(1);
                consumer.commitSync();
            }
            // The broker logs every request to an API it does not serve; a client's telemetry would log its own trouble.
            assertThat(warnings.lines()).noneSatisfy(line -> assertThat(line.toString()).containsAnyOf("TELEMETRY", "elemetry"));
            assertThat(warnings.lines()).noneSatisfy(line -> assertThat(line.logger()).startsWith("org.apache.kafka"));
        }
    }
}

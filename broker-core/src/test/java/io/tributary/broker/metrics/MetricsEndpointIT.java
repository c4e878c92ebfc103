package io.tributary.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.ExternalCommand;
import io.tributary.broker.testing.ExternalZooKeeper;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /metrics} on {@code http.listeners}, read with the Prometheus client library's own text parser (the
 * Python client's, as Prometheus users run it) after a known workload: the produced records and bytes (the bytes
 * the log holds), the bytes a consumer read, and the cluster gauges on a two-broker cluster losing one broker.
 */
@Timeout(240)
public class MetricsEndpointIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Debian's interpreter, which has the python3-prometheus-client package (.ci/run installs it). */
    private static final String PYTHON = "/usr/bin/python3";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /** One parsed sample. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    @Test
    void countsWhatWasProducedAndConsumedPerTopic(@TempDir Path dir) throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of(BrokerConfig.HTTP_LISTENERS, "http://127.0.0.1:0"))) {
            try (Admin admin = Clients.admin(broker.bootstrapServers())) {
                admin.createTopics(List.of(new NewTopic("metered", 1, (short) 1), new NewTopic("quiet", 1, (short) 1))).all().get();
            }
            int records = 250;
            try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(),
                    Map.of(ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.BATCH_SIZE_CONFIG, 4096))) {
                for (int i = 0; i < records; i++) {
                    producer.send(new ProducerRecord<>("metered", ("key-" + i).getBytes(StandardCharsets.UTF_8),
                            ("value-" + i + "-".repeat(i % 40)).getBytes(StandardCharsets.UTF_8)));
                }
                producer.flush();
            }
            long logBytes = logBytes(dir.resolve("logs").resolve("metered-0"));
            assertThat(logBytes).isPositive();

            List<Sample> afterProduce = scrape(broker.httpUrl());
            assertThat(value(afterProduce, "tributary_broker_messages_in_total", "metered")).hasValue((double) records);
            assertThat(value(afterProduce, "tributary_broker_bytes_in_total", "metered")).hasValue((double) logBytes);
            assertThat(value(afterProduce, "tributary_broker_bytes_out_total", "metered")).hasValue(0.0);
            assertThat(value(afterProduce, "tributary_broker_messages_in_total", "quiet")).isEmpty();
            // every produce request was timed, and the summary has its quantiles
            assertThat(labelled(afterProduce, "tributary_request_latency_seconds_count", Map.of("api", "Produce")))
                    .hasValueSatisfying(count -> assertThat(count).isGreaterThanOrEqualTo(1.0));
            assertThat(labelled(afterProduce, "tributary_request_latency_seconds_sum", Map.of("api", "Produce")))
                    .hasValueSatisfying(sum -> assertThat(sum).isPositive());
            assertThat(labelled(afterProduce, "tributary_request_latency_seconds", Map.of("api", "Produce", "quantile", "0.99")))
                    .isPresent();
            assertThat(labelled(afterProduce, "tributary_request_latency_seconds", Map.of("api", "Produce", "quantile", "0.5")))
                    .isPresent();

            int consumed = 0;
            try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(broker.bootstrapServers())) {
                consumer.assign(List.of(new TopicPartition("metered", 0)));
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (consumed < records && System.nanoTime() < deadline) {
                    for (ConsumerRecord<byte[], byte[]> ignored : consumer.poll(Duration.ofMillis(500))) {
                        consumed++;
                    }
                }
            }
            assertThat(consumed).isEqualTo(records);
            List<Sample> afterConsume = scrape(broker.httpUrl());
            // one consumer read the log once, from its start to its end
            assertThat(value(afterConsume, "tributary_broker_bytes_out_total", "metered")).hasValue((double) logBytes);
            assertThat(value(afterConsume, "tributary_controller_active", null)).hasValue(1.0);
            assertThat(value(afterConsume, "tributary_partitions_under_replicated", null)).hasValue(0.0);
            assertThat(value(afterConsume, "tributary_partitions_offline", null)).hasValue(0.0);
            assertThat(value(afterConsume, "tributary_request_queue_size", null)).hasValue(0.0); // nothing is waiting now

            HttpResponse<String> other = HTTP.send(HttpRequest.newBuilder(URI.create(broker.httpUrl() + "/nothing"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(other.statusCode()).isEqualTo(404);
        }
    }

    @Test
    void reportsTheControllerAndUnderReplicatedAndOfflinePartitions(@TempDir Path dir) throws Exception {
        try (ExternalZooKeeper zookeeper = ExternalZooKeeper.start(dir)) {
            Map<String, String> common = Map.of(BrokerConfig.ZOOKEEPER_CONNECT, zookeeper.connectString(),
                    BrokerConfig.HTTP_LISTENERS, "http://127.0.0.1:0", BrokerConfig.REPLICA_LAG_TIME_MAX_MS, "2000");
            try (TestBroker first = TestBroker.start(dir.resolve("b1"), with(common, BrokerConfig.BROKER_ID, "1"));
                 TestBroker second = TestBroker.start(dir.resolve("b2"), with(common, BrokerConfig.BROKER_ID, "2"));
                 Admin admin = Clients.admin(first.bootstrapServers())) {
                admin.createTopics(List.of(new NewTopic("replicated", 2, (short) 2), new NewTopic("single", 4, (short) 1))).all().get();
                Awaitility.await("full ISRs").atMost(Duration.ofSeconds(60)).until(() -> replicasOf(admin, "replicated").stream()
                        .allMatch(p -> p.leader() != null && p.isr().size() == 2));
                Awaitility.await("one active controller").atMost(Duration.ofSeconds(30)).until(() ->
                        value(scrape(first.httpUrl()), "tributary_controller_active", null).orElse(-1.0)
                                + value(scrape(second.httpUrl()), "tributary_controller_active", null).orElse(-1.0) == 1.0);
                assertThat(value(scrape(first.httpUrl()), "tributary_partitions_under_replicated", null)).hasValue(0.0);
                long onSecondOnly = replicasOf(admin, "single").stream().filter(p -> p.replicas().get(0).id() == 2).count();
                assertThat(onSecondOnly).as("single's partitions spread over both brokers").isBetween(1L, 3L);

                second.close(); // controlled shutdown: broker 1 leads everything it can, alone in each ISR
                Awaitility.await("broker 1's view after broker 2 left").atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                    List<Sample> samples = scrape(first.httpUrl());
                    assertThat(value(samples, "tributary_controller_active", null)).hasValue(1.0);
                    assertThat(value(samples, "tributary_partitions_under_replicated", null)).hasValue(2.0);
                    assertThat(value(samples, "tributary_partitions_offline", null)).hasValue((double) onSecondOnly);
                });
            }
        }
    }

    private static Map<String, String> with(Map<String, String> common, String key, String value) {
        Map<String, String> settings = new java.util.HashMap<>(common);
        settings.put(key, value);
        return settings;
    }

    private static List<TopicPartitionInfo> replicasOf(Admin admin, String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions();
    }

    /** Bytes of record batches in a partition's segments, exactly what producers sent (stored as sent, magic v2). */
    private static long logBytes(Path partitionDir) throws IOException {
        try (Stream<Path> files = Files.list(partitionDir)) {
            long total = 0;
            for (Path segment : files.filter(f -> f.toString().endsWith(".log")).toList()) {
                total += Files.size(segment);
            }
            return total;
        }
    }

    /** GET /metrics, parsed by prometheus_client's text parser. */
    public static List<Sample> scrape(String url) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url + "/metrics"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
        Path parser = Path.of("src/test/resources/io/tributary/broker/metrics/parse_prometheus.py").toAbsolutePath();
        ExternalCommand.Result parsed = ExternalCommand.run(List.of(PYTHON, parser.toString()), Path.of("."), response.body(), 60);
        assertThat(parsed.exitCode()).as("parser stderr: %s", parsed.stderr()).isZero();
        List<Sample> samples = new ArrayList<>();
        for (String line : parsed.stdout().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode node = JSON.readTree(line);
            Map<String, String> labels = new java.util.HashMap<>();
            node.path("labels").fields().forEachRemaining(label -> labels.put(label.getKey(), label.getValue().asText()));
            samples.add(new Sample(node.path("name").asText(), labels, node.path("value").asDouble()));
        }
        return samples;
    }

    /** The value of the sample {@code name} that has all of {@code labels}. */
    public static Optional<Double> labelled(List<Sample> samples, String name, Map<String, String> labels) {
        return samples.stream().filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()))
                .map(Sample::value).findFirst();
    }

    /** The value of the sample {@code name} (with {@code topic="<topic>"}, unless {@code topic} is null). */
    static Optional<Double> value(List<Sample> samples, String name, String topic) {
        return samples.stream().filter(s -> s.name().equals(name) && (topic == null || Objects.equals(s.labels().get("topic"), topic)))
                .map(Sample::value).findFirst();
    }
}

package io.tributary.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.ExternalZooKeeper;
import io.tributary.broker.testing.TestBroker;
import io.tributary.testkit.HeadlessChromium;
import io.tributary.testkit.PrometheusScrape;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.TopicConfig;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /metrics} on {@code http.listeners}, read with the Prometheus client library's own text parser after a
 * known workload (the produced records and bytes, the bytes a consumer read, a group's lag), the same meters as JMX
 * MBeans under Kafka's names, the status page {@code GET /} as headless Chromium renders it, and the cluster gauges on
 * a two-broker cluster losing one broker.
 */
@Timeout(240)
class MetricsEndpointIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final MBeanServer MBEANS = ManagementFactory.getPlatformMBeanServer();
    /** Where the screenshot of the status page goes; docs/operations.md shows a copy. */
    private static final Path SCREENSHOT = Path.of("target", "status-page-broker.png");

    @Test
    void countsWhatWasProducedConsumedAndLaggedAndShowsItOnTheStatusPage(@TempDir Path dir) throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of(BrokerConfig.HTTP_LISTENERS, "http://127.0.0.1:0"));
             Admin admin = Clients.admin(broker.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic("metered", 1, (short) 1).configs(Map.of(TopicConfig.FLUSH_MESSAGES_INTERVAL_CONFIG, "50")),
                    new NewTopic("quiet", 1, (short) 1))).all().get();
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

            PrometheusScrape afterProduce = PrometheusScrape.of(broker.httpUrl());
            assertThat(afterProduce.value("tributary_broker_messages_in_total", topic("metered"))).hasValue((double) records);
            assertThat(afterProduce.value("tributary_broker_bytes_in_total", topic("metered"))).hasValue((double) logBytes);
            assertThat(afterProduce.value("tributary_broker_bytes_out_total", topic("metered"))).hasValue(0.0);
            assertThat(afterProduce.value("tributary_broker_messages_in_total", topic("quiet"))).isEmpty();
            // every produce request was timed, and the summary has its quantiles
            assertThat(afterProduce.value("tributary_request_latency_seconds_count", Map.of("api", "Produce")))
                    .hasValueSatisfying(count -> assertThat(count).isGreaterThanOrEqualTo(1.0));
            assertThat(afterProduce.value("tributary_request_latency_seconds_sum", Map.of("api", "Produce")))
                    .hasValueSatisfying(sum -> assertThat(sum).isPositive());
            assertThat(afterProduce.value("tributary_request_latency_seconds", Map.of("api", "Produce", "quantile", "0.99"))).isPresent();
            assertThat(afterProduce.value("tributary_request_latency_seconds", Map.of("api", "Produce", "quantile", "0.5"))).isPresent();
            // flush.messages=50: the log was flushed along the way
            assertThat(afterProduce.value("tributary_log_flush_seconds_count"))
                    .hasValueSatisfying(count -> assertThat(count).isGreaterThanOrEqualTo(1.0));
            // the same counts under Kafka's JMX names (this JVM's MBean server: the broker runs in it)
            assertThat(MBEANS.getAttribute(new ObjectName("kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=metered"),
                    "Count")).isEqualTo((long) records);
            assertThat(MBEANS.getAttribute(new ObjectName("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec"), "Count"))
                    .isEqualTo(logBytes);
            assertThat(MBEANS.getAttribute(new ObjectName("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce"),
                    "Count")).isNotEqualTo(0L);

            TopicPartition metered = new TopicPartition("metered", 0);
            int committed = 100;
            try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(broker.bootstrapServers(), Map.of(
                    ConsumerConfig.GROUP_ID_CONFIG, "metered-readers", ConsumerConfig.CLIENT_ID_CONFIG, "metered-reader-1",
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false))) {
                consumer.subscribe(List.of("metered"));
                int consumed = 0;
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (consumed < records && System.nanoTime() < deadline) {
                    for (ConsumerRecord<byte[], byte[]> ignored : consumer.poll(Duration.ofMillis(500))) {
                        consumed++;
                    }
                }
                assertThat(consumed).isEqualTo(records);
                consumer.commitSync(Map.of(metered, new OffsetAndMetadata(committed)));

                // lag is the end offset minus the committed offset, as the admin client reads them
                long end = admin.listOffsets(Map.of(metered, OffsetSpec.latest())).partitionResult(metered).get().offset();
                long committedByAdmin = admin.listConsumerGroupOffsets("metered-readers").partitionsToOffsetAndMetadata().get()
                        .get(metered).offset();
                assertThat(end - committedByAdmin).isEqualTo(records - committed);
                PrometheusScrape afterConsume = PrometheusScrape.of(broker.httpUrl());
                assertThat(afterConsume.value("tributary_group_lag", Map.of("group", "metered-readers", "topic", "metered",
                        "partition", "0"))).hasValue((double) (end - committedByAdmin));
                // one consumer read the log once, from its start to its end
                assertThat(afterConsume.value("tributary_broker_bytes_out_total", topic("metered"))).hasValue((double) logBytes);
                // its fetches were timed as Kafka names them (a broker alone: no follower fetched)
                assertThat(afterConsume.value("tributary_request_latency_seconds_count", Map.of("api", "FetchConsumer")))
                        .hasValueSatisfying(count -> assertThat(count).isGreaterThanOrEqualTo(1.0));
                assertThat(afterConsume.value("tributary_request_latency_seconds_count", Map.of("api", "FetchFollower"))).isEmpty();
                assertThat(afterConsume.value("tributary_controller_active")).hasValue(1.0);
                assertThat(afterConsume.value("tributary_partitions_under_replicated")).hasValue(0.0);
                assertThat(afterConsume.value("tributary_partitions_offline")).hasValue(0.0);
                assertThat(afterConsume.value("tributary_request_queue_size")).hasValue(0.0); // nothing is waiting now
                assertThat(afterConsume.value("tributary_network_idle_ratio"))
                        .hasValueSatisfying(ratio -> assertThat(ratio).isBetween(0.0, 1.0));
                assertThat(afterConsume.value("tributary_isr_shrinks_total")).hasValue(0.0);

                statusPageShowsTheTopicsTheGroupAndItsLag(broker.httpUrl(), dir);
            }

            HttpResponse<String> other = HTTP.send(HttpRequest.newBuilder(URI.create(broker.httpUrl() + "/nothing"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(other.statusCode()).isEqualTo(404);
        }
    }

    /** The page as a browser renders it: topics, partitions with leader and ISR, the group with its member and lag. */
    private static void statusPageShowsTheTopicsTheGroupAndItsLag(String url, Path dir) throws Exception {
        HeadlessChromium chromium = new HeadlessChromium(dir);
        String dom = chromium.dumpDom(url + "/");
        assertThat(dom).contains("<h1>Tributary broker 0</h1>", "<meta http-equiv=\"refresh\" content=\"5\">")
                .contains("<tr><td>metered</td><td class=\"num\">1</td><td class=\"num\">1</td><td class=\"num\">0</td><td class=\"num\">0</td></tr>")
                .contains("<tr><td>quiet</td><td class=\"num\">0</td><td>0</td><td>0</td><td>0</td><td>ok</td></tr>")
                .contains("<tr><td>metered-readers</td><td>classic</td><td>Stable</td><td class=\"num\">1</td><td class=\"num\">150</td></tr>")
                .contains("<td>metered-reader-1</td>")
                .contains("<tr><td>metered-readers</td><td>metered</td><td class=\"num\">0</td><td class=\"num\">100</td>"
                        + "<td class=\"num\">250</td><td class=\"num\">150</td></tr>")
                .doesNotContain("<script");
        chromium.screenshot(url + "/", SCREENSHOT, 1280, 1100);
        assertThat(Files.size(SCREENSHOT)).isGreaterThan(10_000);
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
                        PrometheusScrape.of(first.httpUrl()).value("tributary_controller_active").orElse(-1.0)
                                + PrometheusScrape.of(second.httpUrl()).value("tributary_controller_active").orElse(-1.0) == 1.0);
                assertThat(PrometheusScrape.of(first.httpUrl()).value("tributary_partitions_under_replicated")).hasValue(0.0);
                long onSecondOnly = replicasOf(admin, "single").stream().filter(p -> p.replicas().get(0).id() == 2).count();
                assertThat(onSecondOnly).as("single's partitions spread over both brokers").isBetween(1L, 3L);

                second.close(); // controlled shutdown: broker 1 leads everything it can, alone in each ISR
                Awaitility.await("broker 1's view after broker 2 left").atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                    PrometheusScrape samples = PrometheusScrape.of(first.httpUrl());
                    assertThat(samples.value("tributary_controller_active")).hasValue(1.0);
                    assertThat(samples.value("tributary_partitions_under_replicated")).hasValue(2.0);
                    assertThat(samples.value("tributary_partitions_offline")).hasValue((double) onSecondOnly);
                });
            }
        }
    }

    private static Map<String, String> topic(String topic) {
        return Map.of("topic", topic);
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
}

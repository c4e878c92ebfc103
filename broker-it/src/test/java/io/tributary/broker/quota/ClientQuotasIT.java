package io.tributary.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestBroker;
import io.tributary.testkit.PrometheusScrape;
import io.tributary.testkit.wire.RawConnection;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.tools.ConfigCommand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client quotas set with Apache Kafka's own {@code kafka-configs}, against real kafka-clients: a producer and a
 * consumer over their byte rates, or over their request time, slow down to them (every record acknowledged and read,
 * none failed) and see throttle times, while clients without a quota see none, and GET /metrics shows the quotas'
 * rates and throttles; a flood of connections from an address over its {@code ip} quota is throttled to its rate. The
 * broker measures rates over 2 windows of 1 s, so that a burst allowance of a window's worth keeps the test short.
 * It registers as 127.0.0.1, so connections from there are a broker's (never throttled); other clients connect from
 * other loopback addresses.
 */
@Timeout(180)
class ClientQuotasIT {
    private static final String TOPIC = "quotas";
    private static final int RECORDS = 1000;
    private static final int RECORD_BYTES = 1000;
    private static final long RATE = 200_000; // bytes per second: the records take at least 5 s at this rate

    @TempDir
    static Path dir;
    private static TestBroker broker;
    private static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir, Map.of(BrokerConfig.QUOTA_WINDOW_NUM, "2", BrokerConfig.QUOTA_WINDOW_SIZE_SECONDS, "1",
                BrokerConfig.HTTP_LISTENERS, "http://127.0.0.1:0"));
        admin = Clients.admin(broker.bootstrapServers());
        admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
    }

    @AfterAll
    static void stop() {
        if (admin != null) {
            admin.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @BeforeEach
    void failInsteadOfExiting() {
        Exit.setExitProcedure((code, message) -> {
            throw new AssertionError("kafka-configs exited with " + code + ": " + message);
        });
    }

    @AfterEach
    void restoreExit() {
        Exit.resetExitProcedure();
    }

    /** Runs Kafka's {@code kafka-configs} against the broker and returns what it printed. */
    private static String kafkaConfigs(String... args) {
        List<String> all = new ArrayList<>(List.of("--bootstrap-server", broker.bootstrapServers()));
        all.addAll(List.of(args));
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            ConfigCommand.main(all.toArray(String[]::new));
        } finally {
            System.setOut(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    private static Map<ClientQuotaEntity, Map<String, Double>> quotasOfClient(String clientId) throws Exception {
        return admin.describeClientQuotas(ClientQuotaFilter.containsOnly(
                List.of(ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.CLIENT_ID, clientId)))).entities().get();
    }

    private static double metric(Map<MetricName, ? extends Metric> metrics, String name) {
        return metrics.entrySet().stream()
                .filter(e -> e.getKey().name().equals(name) && e.getKey().tags().size() == 1) // the client-wide one
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .findFirst().orElseThrow(() -> new AssertionError("no metric " + name));
    }

    private static long produceAll(String clientId, Map<String, Double> throttleMax) throws Exception {
        Map<String, Object> overrides = Map.of(ProducerConfig.CLIENT_ID_CONFIG, clientId, ProducerConfig.ACKS_CONFIG, "1",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 60_000);
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(), overrides)) {
            producer.partitionsFor(TOPIC);
            long started = System.nanoTime();
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                sent.add(producer.send(new ProducerRecord<>(TOPIC, new byte[RECORD_BYTES])));
            }
            for (Future<RecordMetadata> ack : sent) {
                assertThat(ack.get().offset()).isNotNegative(); // throws if any send failed
            }
            long elapsedMs = (System.nanoTime() - started) / 1_000_000;
            throttleMax.put(clientId, metric(producer.metrics(), "produce-throttle-time-max"));
            return elapsedMs;
        }
    }

    private static long consumeAll(String clientId, long endOffset, Map<String, Double> throttleMax) {
        // Fetches of 50 KB: a throttle lasts at most the 2 s window, so one fetch must be well below 2 s of the rate.
        Map<String, Object> overrides = Map.of(ConsumerConfig.CLIENT_ID_CONFIG, clientId,
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 50_000, ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 50_000);
        try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(broker.bootstrapServers(), overrides)) {
            TopicPartition partition = new TopicPartition(TOPIC, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long started = System.nanoTime();
            long read = 0;
            while (consumer.position(partition) < endOffset) {
                read += consumer.poll(Duration.ofMillis(500)).count();
            }
            long elapsedMs = (System.nanoTime() - started) / 1_000_000;
            assertThat(read).isEqualTo(endOffset);
            throttleMax.put(clientId, metric(consumer.metrics(), "fetch-throttle-time-max"));
            return elapsedMs;
        }
    }

    @Test
    void clientsOverTheirByteRatesSlowDownToThemAndOthersAreUnaffected() throws Exception {
        kafkaConfigs("--alter", "--entity-type", "clients", "--entity-name", "slow-writer", "--add-config", "producer_byte_rate=" + RATE);
        kafkaConfigs("--alter", "--entity-type", "clients", "--entity-name", "slow-reader", "--add-config", "consumer_byte_rate=" + RATE);
        assertThat(kafkaConfigs("--describe", "--entity-type", "clients", "--entity-name", "slow-writer"))
                .contains("producer_byte_rate=" + RATE + ".0");
        assertThat(quotasOfClient("slow-reader")).containsValue(Map.of("consumer_byte_rate", (double) RATE));

        Map<String, Double> throttleMax = new HashMap<>();
        long fastWriteMs = produceAll("fast-writer", throttleMax);
        long slowWriteMs = produceAll("slow-writer", throttleMax);
        // At the rate, the bytes take 5 s; the rate window lets a burst of at most 2 s of them through at once.
        assertThat(slowWriteMs).as("slow writer (fast one took %d ms)", fastWriteMs).isGreaterThanOrEqualTo(3_000);
        assertThat(throttleMax.get("slow-writer")).isPositive();
        assertThat(throttleMax.get("fast-writer")).isZero();

        System.out.printf("QUOTA-REPORT produce %d bytes at %d B/s: fast-writer %d ms, slow-writer %d ms (throttle max %.0f ms)%n",
                RECORDS * RECORD_BYTES, RATE, fastWriteMs, slowWriteMs, throttleMax.get("slow-writer"));
        long endOffset = 2L * RECORDS;
        long fastReadMs = consumeAll("fast-reader", endOffset, throttleMax);
        long slowReadMs = consumeAll("slow-reader", endOffset, throttleMax);
        assertThat(slowReadMs).as("slow reader (fast one took %d ms)", fastReadMs).isGreaterThanOrEqualTo(6_000);
        System.out.printf("QUOTA-REPORT fetch %d bytes at %d B/s: fast-reader %d ms, slow-reader %d ms (throttle max %.0f ms)%n",
                2 * RECORDS * RECORD_BYTES, RATE, fastReadMs, slowReadMs, throttleMax.get("slow-reader"));
        assertThat(throttleMax.get("slow-reader")).isPositive();
        assertThat(throttleMax.get("fast-reader")).isZero();
    }

    @Test
    void kafkaConfigsSetsDescribesAndDeletesDefaultAndUserQuotas() throws Exception {
        kafkaConfigs("--alter", "--entity-type", "clients", "--entity-default", "--add-config", "request_percentage=50.5");
        kafkaConfigs("--alter", "--entity-type", "users", "--entity-name", ClientQuotaEnforcer.ANONYMOUS_USER,
                "--entity-type", "clients", "--entity-name", "tool", "--add-config", "producer_byte_rate=1000,consumer_byte_rate=2000");
        assertThat(kafkaConfigs("--describe", "--entity-type", "clients", "--entity-default")).contains("request_percentage=50.5");

        Map<String, String> userAndClient = new HashMap<>();
        userAndClient.put(ClientQuotaEntity.USER, ClientQuotaEnforcer.ANONYMOUS_USER);
        userAndClient.put(ClientQuotaEntity.CLIENT_ID, "tool");
        assertThat(admin.describeClientQuotas(ClientQuotaFilter.all()).entities().get())
                .containsEntry(new ClientQuotaEntity(userAndClient), Map.of("producer_byte_rate", 1000.0, "consumer_byte_rate", 2000.0));

        kafkaConfigs("--alter", "--entity-type", "clients", "--entity-default", "--delete-config", "request_percentage");
        Map<String, String> defaultClient = new HashMap<>();
        defaultClient.put(ClientQuotaEntity.CLIENT_ID, null);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(admin.describeClientQuotas(ClientQuotaFilter.all()).entities().get()).doesNotContainKey(new ClientQuotaEntity(defaultClient)));

        Throwable refused = org.assertj.core.api.Assertions.catchThrowable(() -> admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "x")),
                List.of(new ClientQuotaAlteration.Op("no_such_quota", 1.0))))).all().get());
        assertThat(refused).hasMessageContaining("Unknown quota key");
    }

    /**
     * At {@code request_percentage=0.01} (0.1 ms of request time a second) every request after the first few is over
     * the quota, so each response is throttled, by at most one sample (1 s) as in Kafka: the producer slows down to
     * about a request a second and nothing fails, and GET /metrics shows the client's request time, byte rate and
     * throttles while it works.
     */
    @Test
    void aProducerOverItsRequestPercentageSlowsDownInsteadOfFailingAndTheMetricsShowIt() throws Exception {
        String topic = "request-quota";
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        // A byte rate far above what the test sends, so that its gauge appears too.
        kafkaConfigs("--alter", "--entity-type", "clients", "--entity-name", "busy-writer",
                "--add-config", "request_percentage=0.01,producer_byte_rate=100000000");
        int records = 5;
        Map<String, Object> overrides = Map.of(ProducerConfig.CLIENT_ID_CONFIG, "busy-writer", ProducerConfig.ACKS_CONFIG, "1");
        long started = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(), overrides)) {
            CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < records; i++) {
                    try {
                        producer.send(new ProducerRecord<>(topic, new byte[RECORD_BYTES])).get(); // one request at a time
                    } catch (Exception e) {
                        throw new CompletionException(e);
                    }
                }
            });
            Map<String, String> writer = Map.of("client_id", "busy-writer", "user", "");
            await("the busy writer's quota metrics").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                PrometheusScrape scrape = PrometheusScrape.of(broker.httpUrl());
                assertThat(scrape.value("tributary_quota_request_time_percent", writer)).hasValueSatisfying(v -> assertThat(v).isPositive());
                assertThat(scrape.value("tributary_quota_byte_rate", with(writer, "quota", "produce")))
                        .hasValueSatisfying(v -> assertThat(v).isPositive());
                assertThat(scrape.value("tributary_quota_throttle_time_ms", with(writer, "quota", "request")))
                        .hasValueSatisfying(v -> assertThat(v).isPositive().isLessThanOrEqualTo(1_000));
            });
            sent.get(120, TimeUnit.SECONDS); // throws if any send failed
            assertThat(metric(producer.metrics(), "produce-throttle-time-max")).isPositive().isLessThanOrEqualTo(1_000);
        }
        long writeMs = (System.nanoTime() - started) / 1_000_000;
        System.out.printf("QUOTA-REPORT request_percentage=0.01: %d records written one at a time in %d ms%n", records, writeMs);
        assertThat(writeMs).as("each record after the first waits out a throttle").isGreaterThanOrEqualTo(3_000);
    }

    private static Map<String, String> with(Map<String, String> labels, String key, String value) {
        Map<String, String> all = new HashMap<>(labels);
        all.put(key, value);
        return all;
    }

    /**
     * {@code kafka-configs --entity-type ips} sets a {@code connection_creation_rate} per address and a default one,
     * stored in ZooKeeper; a flood of connections from one address is then taken at about its rate, the others held
     * unanswered and closed, while the same flood from the broker's own address (another broker's, for the limits) is
     * all taken.
     */
    @Test
    void kafkaConfigsSetsIpQuotasAndAFloodOfConnectionsIsThrottledToItsRate() throws Exception {
        String flooder = "127.0.0.2";
        int rate = 10;
        kafkaConfigs("--alter", "--entity-type", "ips", "--entity-name", flooder, "--add-config", "connection_creation_rate=" + rate);
        kafkaConfigs("--alter", "--entity-type", "ips", "--entity-default", "--add-config", "connection_creation_rate=5");
        try {
            assertThat(kafkaConfigs("--describe", "--entity-type", "ips", "--entity-name", flooder)).contains("connection_creation_rate=" + rate);
            Map<String, String> defaultIp = new HashMap<>();
            defaultIp.put(ClientQuotaEntity.IP, null);
            assertThat(admin.describeClientQuotas(ClientQuotaFilter.containsOnly(List.of(ClientQuotaFilterComponent.ofEntityType(ClientQuotaEntity.IP))))
                    .entities().get()).containsOnly(
                            Map.entry(new ClientQuotaEntity(Map.of(ClientQuotaEntity.IP, flooder)), Map.of("connection_creation_rate", (double) rate)),
                            Map.entry(new ClientQuotaEntity(defaultIp), Map.of("connection_creation_rate", 5.0)));
            assertThat(catchThrowable(() -> admin.alterClientQuotas(List.of(new ClientQuotaAlteration(new ClientQuotaEntity(Map.of(ClientQuotaEntity.IP, flooder)),
                    List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 1.0))))).all().get())).hasMessageContaining("Unknown quota key");

            long started = System.nanoTime();
            Map<Boolean, Integer> fromFlooder = flood(flooder, 100);
            double floodSeconds = (System.nanoTime() - started) / 1e9;
            System.out.printf("QUOTA-REPORT 100 connections from %s at connection_creation_rate=%d in %.1f s: %d taken, %d held and closed%n",
                    flooder, rate, floodSeconds, fromFlooder.get(true), fromFlooder.get(false));
            // The window allows a burst of one sample's worth, then the rate: a few more at most, while the quota reaches the broker.
            assertThat(fromFlooder.get(true)).isPositive().isLessThanOrEqualTo((int) (rate * (floodSeconds + 1)) + 5);
            assertThat(fromFlooder.get(false)).isPositive();
            assertThat(flood("127.0.0.1", 100).get(false)).as("connections from the broker's address closed").isZero();
        } finally {
            kafkaConfigs("--alter", "--entity-type", "ips", "--entity-name", flooder, "--delete-config", "connection_creation_rate");
            kafkaConfigs("--alter", "--entity-type", "ips", "--entity-default", "--delete-config", "connection_creation_rate");
        }
    }

    /**
     * Opens {@code count} connections from {@code localAddress} at once, then asks each for its API versions.
     *
     * @return how many were answered (true) and how many were closed unanswered (false)
     */
    private static Map<Boolean, Integer> flood(String localAddress, int count) throws Exception {
        List<RawConnection> connections = new ArrayList<>();
        Map<Boolean, Integer> answered = new HashMap<>(Map.of(true, 0, false, 0));
        try {
            for (int i = 0; i < count; i++) {
                connections.add(new RawConnection(localAddress, "127.0.0.1", broker.port()));
            }
            for (RawConnection connection : connections) {
                boolean ok;
                try {
                    connection.request(ApiKeys.API_VERSIONS, (short) 3, new ApiVersionsRequestData()
                            .setClientSoftwareName("flood").setClientSoftwareVersion("1"));
                    ok = true;
                } catch (IOException e) { // end of stream or reset: closed by the broker unanswered
                    ok = false;
                }
                answered.merge(ok, 1, Integer::sum);
            }
            return answered;
        } finally {
            RawConnection.closeAll(connections);
        }
    }
}

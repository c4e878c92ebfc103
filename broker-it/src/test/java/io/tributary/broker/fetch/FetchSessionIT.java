package io.tributary.broker.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.testing.CapturedLog;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.ExternalZooKeeper;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.FetchSessionHandler;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fetch sessions with real kafka-clients, as its own FetchSessionHandler reports them (our followers keep their
 * sessions with it too): a consumer on many partitions fetches incrementally, a follower's session evicts it from a
 * full cache, and the consumer falls back to full fetches without losing a record.
 */
class FetchSessionIT {
    private static final int PARTITIONS = 200;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final Pattern SESSION_CREATED = Pattern.compile("created a new incremental fetch session (\\d+)");

    @Test
    @Timeout(180)
    void aConsumerFetchesIncrementallyUntilAFollowerEvictsItsSessionThenFallsBackAndReadsEverything(@TempDir Path dir) throws Exception {
        Logger clientSessions = Logger.getLogger(FetchSessionHandler.class);
        Level before = clientSessions.getLevel();
        clientSessions.setLevel(Level.DEBUG);
        try (ExternalZooKeeper zookeeper = ExternalZooKeeper.start(dir);
             TestBroker leader = TestBroker.start(dir.resolve("b1"), settings(zookeeper, 1));
             TestBroker follower = TestBroker.start(dir.resolve("b2"), settings(zookeeper, 2));
             Admin admin = Clients.admin(leader.bootstrapServers());
             KafkaProducer<byte[], byte[]> producer = Clients.producer(leader.bootstrapServers());
             CapturedLog clientLog = CapturedLog.of(FetchSessionHandler.class, Level.DEBUG);
             KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(leader.bootstrapServers())) {
            Map<Integer, List<Integer>> onTheLeader = new HashMap<>();
            IntStream.range(0, PARTITIONS).forEach(p -> onTheLeader.put(p, List.of(1)));
            admin.createTopics(List.of(new NewTopic("consumed", onTheLeader))).all().get();
            List<TopicPartition> partitions = IntStream.range(0, PARTITIONS).mapToObj(p -> new TopicPartition("consumed", p)).toList();
            consumer.assign(partitions);
            Set<String> read = new HashSet<>();
            produceOneToEach(producer);
            readUntil(consumer, read, PARTITIONS);

            // Idle: each fetch names no partition and is answered with none, the session implying all of them.
            String session = createdSession(clientLog);
            assertThat(session).as("the consumer's session").isNotNull();
            pollUntil(consumer, read, "incremental fetches answered with nothing", () -> clientLog.lines().stream().anyMatch(line ->
                    line.message().contains("incremental fetch response with throttleTimeMs = 0 for session " + session
                            + " with 0 response partition(s), " + PARTITIONS + " implied partition(s)")));
            assertThat(metrics(leader)).contains("tributary_fetch_sessions 1.0", "tributary_fetch_sessions_partitions " + PARTITIONS + ".0");

            // The only slot is the consumer's; a follower's session takes it however young it is.
            admin.createTopics(List.of(new NewTopic("replicated", Map.of(0, List.of(1, 2))).configs(Map.of("min.insync.replicas", "2"))))
                    .all().get();
            pollUntil(consumer, read, "the consumer's session evicted, and a full fetch again", () ->
                    clientLog.lines().stream().anyMatch(line -> line.message().contains("FETCH_SESSION_ID_NOT_FOUND")));
            assertThat(metrics(leader)).contains("tributary_fetch_sessions_evicted_total 1.0", "tributary_fetch_sessions 1.0",
                    "tributary_fetch_sessions_partitions 1.0");

            produceOneToEach(producer);
            readUntil(consumer, read, 2 * PARTITIONS);
            producer.send(new ProducerRecord<>("replicated", "acked by both".getBytes())).get(); // acks=all, min ISR 2: the follower has it
            Awaitility.await("the follower fetching incrementally").atMost(Duration.ofSeconds(30)).until(() -> clientLog.lines().stream()
                    .anyMatch(line -> line.message().matches("\\[tributary-replica-fetcher-1-0\\] Node 1 sent an incremental fetch response "
                            + ".* with 0 response partition\\(s\\), 1 implied partition\\(s\\)")));
        } finally {
            clientSessions.setLevel(before);
        }
    }

    private static Map<String, String> settings(ExternalZooKeeper zookeeper, int id) {
        return Map.of(BrokerConfig.ZOOKEEPER_CONNECT, zookeeper.connectString(), BrokerConfig.BROKER_ID, String.valueOf(id),
                BrokerConfig.HTTP_LISTENERS, "http://127.0.0.1:0", BrokerConfig.MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS, "1");
    }

    private static void produceOneToEach(KafkaProducer<byte[], byte[]> producer) throws Exception {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            sent.add(producer.send(new ProducerRecord<>("consumed", p, null, ("record " + p).getBytes())));
        }
        for (Future<RecordMetadata> acknowledged : sent) {
            acknowledged.get();
        }
    }

    private static void readUntil(KafkaConsumer<byte[], byte[]> consumer, Set<String> read, int count) {
        pollUntil(consumer, read, count + " records read", () -> read.size() >= count);
        assertThat(read).hasSize(count);
    }

    /** Polls (a consumer fetches only while polled), adding what it reads to {@code read}, until {@code done}. */
    private static void pollUntil(KafkaConsumer<byte[], byte[]> consumer, Set<String> read, String what, BooleanSupplier done) {
        Awaitility.await(what).atMost(Duration.ofSeconds(60)).until(() -> {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                read.add(record.partition() + "@" + record.offset());
            }
            return done.getAsBoolean();
        });
    }

    private static String createdSession(CapturedLog log) {
        for (CapturedLog.Line line : log.lines()) {
            Matcher matcher = SESSION_CREATED.matcher(line.message());
            if (matcher.find()) {
                return matcher.group(1);
            }
        }
        return null;
    }

    private static String metrics(TestBroker broker) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(broker.httpUrl() + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}

package io.tributary.consumer;

import io.tributary.testkit.tributary.BrokerUnderTest;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;

/**
 * The broker an integration test class runs against, started once per class and stopped after
 * it: {@code @RegisterExtension static final TestBroker broker = new TestBroker();}. This is the
 * only place that asks which broker that is ({@link BrokerUnderTest}: Tributary by default,
 * {@code -Dit.broker=apache-kafka} for Apache Kafka 4.4 in-process). The tests
 * use nothing but {@link #bootstrapServers()} and plain Kafka clients, so they hold for any
 * Kafka-compatible broker with automatic topic creation off. Also a few client helpers to keep
 * the tests about their scenario.
 */
public final class TestBroker implements BeforeAllCallback, AfterAllCallback {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private Path dataDir;
    private BrokerUnderTest broker;
    private Admin admin;
    private KafkaProducer<String, String> producer;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        dataDir = Files.createTempDirectory("realtime-consumer-it");
        broker = BrokerUnderTest.start(dataDir, Map.of("auto.create.topics.enable", "false"));
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()));
        // Not idempotent: right after a topic is created Apache Kafka sometimes answers an idempotent
        // producer's retry with OUT_OF_ORDER_SEQUENCE forever (seen under load). One request in
        // flight keeps the order of plain retries.
        producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false,
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
        if (broker != null) {
            broker.close();
        }
        if (dataDir != null) {
            try (Stream<Path> files = Files.walk(dataDir)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    public Admin admin() {
        return admin;
    }

    /** Creates the topic and waits until every partition has a leader. */
    public void createTopic(String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all()
                .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        await().atMost(TIMEOUT).ignoreExceptions().until(() -> admin.describeTopics(List.of(topic)).allTopicNames()
                .get().get(topic).partitions().stream().allMatch(partition -> partition.leader() != null));
    }

    /** Sends and waits for every record. */
    public void produce(List<ProducerRecord<String, String>> records) throws Exception {
        List<Future<?>> sent = new ArrayList<>();
        records.forEach(record -> sent.add(producer.send(record)));
        for (Future<?> future : sent) {
            future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** To each of {@code partitions} partitions, records valued {@code "<partition>-<i>"} for i in [from, to). */
    public void produceNumbered(String topic, int partitions, int from, int to) throws Exception {
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = from; i < to; i++) {
            for (int p = 0; p < partitions; p++) {
                records.add(new ProducerRecord<>(topic, p, "k" + p, p + "-" + i));
            }
        }
        produce(records);
    }

    /**
     * Records {@code "v0"..} to partition 0, one second apart, the first an hour ago (recent: the
     * broker's time-based retention would delete records older than a week). Returns the first timestamp.
     */
    public Instant produceOneASecond(String topic, int count) throws Exception {
        Instant base = Instant.now().minus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(new ProducerRecord<>(topic, 0, base.plusSeconds(i).toEpochMilli(), "k", "v" + i));
        }
        produce(records);
        return base;
    }

    /** The group's committed offsets for {@code topic}, by partition number (missing: none committed). */
    public Map<Integer, Long> committed(String group, String topic) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        Map<Integer, Long> byPartition = new TreeMap<>();
        offsets.forEach((partition, offset) -> {
            if (partition.topic().equals(topic) && offset != null) {
                byPartition.put(partition.partition(), offset.offset());
            }
        });
        return byPartition;
    }

    /** Log end offsets of {@code topic}, by partition number. */
    public Map<Integer, Long> endOffsets(String topic, int partitions) throws Exception {
        Map<TopicPartition, OffsetSpec> query = IntStream.range(0, partitions).boxed()
                .collect(Collectors.toMap(p -> new TopicPartition(topic, p), p -> OffsetSpec.latest()));
        Map<Integer, Long> ends = new TreeMap<>();
        admin.listOffsets(query).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .forEach((partition, info) -> ends.put(partition.partition(), info.offset()));
        return ends;
    }

    /** Number of members of {@code group} right now. */
    public int members(String group) throws ExecutionException, InterruptedException {
        return admin.describeConsumerGroups(Set.of(group)).all().get().get(group).members().size();
    }

    /** Whether the group finished its rebalance: members hold their assignments. */
    public boolean isStable(String group) throws ExecutionException, InterruptedException {
        return admin.describeConsumerGroups(Set.of(group)).all().get().get(group).groupState() == GroupState.STABLE;
    }

    /** Reads {@code count} records of {@code topic} from the beginning, without a group. */
    public List<ConsumerRecord<String, String>> readFromBeginning(String topic, int count) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (records.size() < count && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
            }
        }
        return records;
    }
}

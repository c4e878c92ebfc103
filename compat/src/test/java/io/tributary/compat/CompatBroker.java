package io.tributary.compat;

import io.tributary.testkit.tributary.BrokerUnderTest;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;

/**
 * The broker one compatibility IT class runs against, started before its first test and stopped after its last:
 * {@code @RegisterExtension static final CompatBroker broker = new CompatBroker();}. Which broker that is, is
 * {@link BrokerUnderTest}'s to say (Tributary by default, Apache Kafka 4.4 with {@code -Dit.broker=apache-kafka});
 * the tests see its address and its {@link #kind()}, which only a test pinning a difference on purpose reads.
 */
public final class CompatBroker implements BeforeAllCallback, AfterAllCallback {
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    /**
     * Settings both brokers take alike: topics exist only when created, __consumer_offsets is small, and consumer
     * groups (KIP-848) hear of a new assignment within a second instead of five.
     */
    private static final Map<String, String> SETTINGS = Map.of(
            "auto.create.topics.enable", "false",
            "offsets.topic.num.partitions", "5",
            "group.consumer.min.heartbeat.interval.ms", "1000",
            "group.consumer.heartbeat.interval.ms", "1000");

    private Path dir;
    private BrokerUnderTest broker;
    private Admin admin;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        dir = Files.createTempDirectory("compat-" + context.getRequiredTestClass().getSimpleName());
        broker = BrokerUnderTest.start(dir.resolve("broker"), SETTINGS);
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()));
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
        if (broker != null) {
            broker.close();
        }
        if (dir != null) {
            Utils.delete(dir.toFile());
        }
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    public BrokerUnderTest.Kind kind() {
        return broker.kind();
    }

    /** A folder of this class's own, removed with the broker. */
    public Path dir() {
        return dir;
    }

    public Admin admin() {
        return admin;
    }

    /** Creates {@code topic} with one replica per partition and waits until every partition answers ListOffsets. */
    public void createTopic(String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        await().atMost(TIMEOUT).ignoreExceptions().until(() -> endOffsets(topic, partitions).size() == partitions);
    }

    /** Sends {@code records} with acks=all and waits until each is acknowledged. */
    public void produce(List<ProducerRecord<String, String>> records) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            List<Future<?>> sent = new ArrayList<>();
            records.forEach(record -> sent.add(producer.send(record)));
            for (Future<?> ack : sent) {
                ack.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    /** The offsets {@code group} committed, by partition (of its one topic). */
    public Map<Integer, Long> committed(String group) throws Exception {
        Map<Integer, Long> byPartition = new TreeMap<>();
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .forEach((partition, offset) -> byPartition.put(partition.partition(), offset.offset()));
        return byPartition;
    }

    /** Log end offsets of {@code topic}, by partition. */
    public Map<Integer, Long> endOffsets(String topic, int partitions) throws Exception {
        Map<TopicPartition, OffsetSpec> query = IntStream.range(0, partitions).boxed()
                .collect(Collectors.toMap(p -> new TopicPartition(topic, p), p -> OffsetSpec.latest()));
        Map<Integer, Long> ends = new TreeMap<>();
        admin.listOffsets(query).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .forEach((partition, info) -> ends.put(partition.partition(), info.offset()));
        return ends;
    }
}

package io.tributary.sink;

import io.tributary.testkit.tributary.BrokerUnderTest;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;

import static org.awaitility.Awaitility.await;

/**
 * The broker the sink tests stream from, and the one place its address comes from:
 * {@link BrokerUnderTest} (Tributary by default, {@code -Dit.broker=apache-kafka} for Apache Kafka).
 */
final class SinkTestBroker implements AutoCloseable {
    private final BrokerUnderTest kafka;
    private final Admin admin;

    private SinkTestBroker(BrokerUnderTest kafka) {
        this.kafka = kafka;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    }

    static SinkTestBroker start(Path dir) throws Exception {
        return new SinkTestBroker(BrokerUnderTest.start(dir, Map.of()));
    }

    String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** Creates {@code topic} and waits until every partition has a leader that answers. */
    void createTopic(String topic, int partitions) throws ExecutionException, InterruptedException {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        // Producing before the broker knows it leads every partition sends idempotent producers into retries.
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
            .until(() -> endOffsets(topic, partitions).size() == partitions);
    }

    /** The log end offset of every partition of {@code topic}. */
    Map<Integer, Long> endOffsets(String topic, int partitions) throws ExecutionException, InterruptedException {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            request.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        Map<Integer, Long> ends = new TreeMap<>();
        admin.listOffsets(request).all().get().forEach((tp, info) -> ends.put(tp.partition(), info.offset()));
        return ends;
    }

    /** DeleteRecords: the log of {@code topic}-{@code partition} starts at {@code offset} from now on, as after retention. */
    void deleteRecordsBefore(String topic, int partition, long offset) throws ExecutionException, InterruptedException {
        admin.deleteRecords(Map.of(new TopicPartition(topic, partition), RecordsToDelete.beforeOffset(offset))).all().get();
    }

    /** Deletes {@code topic} and waits until the brokers no longer list it, so that it can be created again. */
    void deleteTopic(String topic) throws ExecutionException, InterruptedException {
        admin.deleteTopics(List.of(topic)).all().get();
        await().atMost(Duration.ofSeconds(30)).until(() -> !admin.listTopics().names().get().contains(topic));
    }

    /** The offsets {@code group} committed for {@code topic}, by partition. */
    Map<Integer, Long> committedOffsets(String group) throws ExecutionException, InterruptedException {
        Map<Integer, Long> committed = new TreeMap<>();
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get()
            .forEach((tp, om) -> committed.put(tp.partition(), om.offset()));
        return committed;
    }

    @Override
    public void close() {
        admin.close();
        kafka.close();
    }
}

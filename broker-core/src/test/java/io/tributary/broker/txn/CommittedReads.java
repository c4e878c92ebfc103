package io.tributary.broker.txn;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.tributary.broker.testing.Clients;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/** What a read_committed consumer sees of a partition: its values from offset 0, and the end it is told (the LSO). */
final class CommittedReads {
    private CommittedReads() {
    }

    static KafkaConsumer<byte[], byte[]> readCommittedConsumer(String bootstrap, Map<String, Object> more) {
        Map<String, Object> config = new java.util.HashMap<>(Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"));
        config.putAll(more);
        return Clients.consumer(bootstrap, config);
    }

    /** Everything {@code consumer} gets from offset 0 until it has {@code expected} values (failing after 60 s). */
    static List<String> readFromStart(KafkaConsumer<byte[], byte[]> consumer, TopicPartition partition, int expected) {
        consumer.assign(List.of(partition));
        consumer.seek(partition, 0);
        List<String> values = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                values.add(new String(record.value()));
            }
            return values.size() >= expected;
        });
        return values;
    }

    static long lastStableOffset(String bootstrap, TopicPartition partition) {
        try (KafkaConsumer<byte[], byte[]> consumer = readCommittedConsumer(bootstrap, Map.of())) {
            return consumer.endOffsets(List.of(partition)).get(partition);
        }
    }
}

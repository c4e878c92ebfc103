package io.tributary.consumer;

import io.tributary.testkit.tributary.TransactionalTopic;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The library over a topic with committed, aborted and open transactions
 * ({@link TransactionalTopic}), with its default settings: handlers get the committed records
 * only, each once, and those of the open transaction once it commits.
 */
@Timeout(300)
class TransactionalConsumerIT {
    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    private static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void handlersSeeCommittedRecordsOnlyAndTheOpenTransactionOnceItCommits() throws Exception {
        Map<Integer, Set<Long>> seen = new ConcurrentHashMap<>();
        List<String> twice = new CopyOnWriteArrayList<>();
        List<String> values = new CopyOnWriteArrayList<>();
        try (TransactionalTopic topic = TransactionalTopic.create(broker.bootstrapServers(), "txn-consumer", 3, 100)) {
            RealtimeConsumer consumer = RealtimeConsumer.builder()
                .bootstrapServers(broker.bootstrapServers())
                .groupId("txn-consumer")
                .topics(topic.topic())
                .startPosition(StartPosition.earliest())
                .commitInterval(Duration.ofMillis(200))
                .metricsInterval(Duration.ofMillis(200), false)
                .keyDeserializer(new StringDeserializer())
                .valueDeserializer(new StringDeserializer())
                .recordHandler(record -> {
                    if (!seen.computeIfAbsent(record.partition(), p -> ConcurrentHashMap.newKeySet()).add(record.offset())) {
                        twice.add(record.partition() + "@" + record.offset());
                    }
                    values.add(record.value());
                })
                .start();
            try {
                awaitSeen(seen, topic);
                assertThat(sorted(seen)).isEqualTo(topic.visible());

                topic.commitOpenTransaction();
                awaitSeen(seen, topic);
                assertThat(sorted(seen)).isEqualTo(topic.visible());
            } finally {
                consumer.close(Duration.ofSeconds(30));
            }
        }
        assertThat(twice).as("records handled twice").isEmpty();
        assertThat(values).noneMatch(v -> v.startsWith("aborted-"));
    }

    /** Until the handler saw as many records as are visible: more than that fails the comparison after it. */
    private static void awaitSeen(Map<Integer, Set<Long>> seen, TransactionalTopic topic) {
        long visible = topic.visibleCount();
        await().atMost(WAIT).until(() -> seen.values().stream().mapToLong(Set::size).sum() >= visible);
    }

    private static Map<Integer, TreeSet<Long>> sorted(Map<Integer, Set<Long>> seen) {
        Map<Integer, TreeSet<Long>> sorted = new TreeMap<>();
        seen.forEach((p, offsets) -> sorted.put(p, new TreeSet<>(offsets)));
        return sorted;
    }
}

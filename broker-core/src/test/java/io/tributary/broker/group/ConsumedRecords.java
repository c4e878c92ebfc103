package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * Every record the members of a group processed, in the order they processed them (across
 * members), so a test can check that each offset was processed exactly once and each partition in
 * order. Thread-safe.
 */
final class ConsumedRecords {
    private final List<Processed> processed = new ArrayList<>();

    /** One processed record: which member, which partition and offset. */
    record Processed(String member, TopicPartition partition, long offset) {
    }

    synchronized void add(String member, TopicPartition partition, long offset) {
        processed.add(new Processed(member, partition, offset));
    }

    synchronized int count() {
        return processed.size();
    }

    synchronized List<Processed> all() {
        return List.copyOf(processed);
    }

    /** Asserts that offsets 0..end-1 of every partition were processed once each, in offset order. */
    synchronized void assertExactlyOnceInOrder(Map<TopicPartition, Long> endOffsets) {
        Map<TopicPartition, List<Long>> byPartition = new HashMap<>();
        for (Processed record : processed) {
            byPartition.computeIfAbsent(record.partition(), p -> new ArrayList<>()).add(record.offset());
        }
        assertThat(byPartition.keySet()).containsExactlyInAnyOrderElementsOf(endOffsets.keySet());
        endOffsets.forEach((partition, end) -> {
            List<Long> expected = new ArrayList<>();
            for (long offset = 0; offset < end; offset++) {
                expected.add(offset);
            }
            assertThat(byPartition.get(partition)).as("offsets of %s in processing order", partition)
                    .containsExactlyElementsOf(expected);
        });
    }
}

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

    /**
     * Asserts that offsets 0..end-1 of every partition were processed, each run of one member in offset
     * order, and that an offset was processed twice only if {@code crashed} processed it first and
     * another member again after it (a crashed member's records after its last commit come again).
     */
    synchronized void assertNothingLostRepeatedOnlyAfter(String crashed, Map<TopicPartition, Long> endOffsets) {
        Map<TopicPartition, List<Processed>> byPartition = new HashMap<>();
        for (Processed record : processed) {
            byPartition.computeIfAbsent(record.partition(), p -> new ArrayList<>()).add(record);
        }
        assertThat(byPartition.keySet()).containsExactlyInAnyOrderElementsOf(endOffsets.keySet());
        endOffsets.forEach((partition, end) -> {
            List<Processed> records = byPartition.get(partition);
            Map<Long, String> firstBy = new HashMap<>();
            for (int i = 0; i < records.size(); i++) {
                Processed record = records.get(i);
                if (i > 0 && records.get(i - 1).member().equals(record.member())) {
                    assertThat(record.offset()).as("%s processed %s in order", record.member(), partition)
                            .isEqualTo(records.get(i - 1).offset() + 1);
                }
                String earlier = firstBy.putIfAbsent(record.offset(), record.member());
                if (earlier != null) {
                    assertThat(earlier).as("who processed offset %d of %s before %s", record.offset(), partition, record.member())
                            .isEqualTo(crashed);
                    assertThat(record.member()).isNotEqualTo(crashed);
                }
            }
            assertThat(firstBy.keySet()).as("offsets of %s processed", partition).hasSize(end.intValue())
                    .allMatch(offset -> offset >= 0 && offset < end);
        });
    }
}

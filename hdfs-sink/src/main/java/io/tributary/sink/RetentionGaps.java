package io.tributary.sink;

import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.LostRange;
import io.tributary.hadoop.dataset.LostRangeReport;
import io.tributary.hadoop.dataset.MissingPolicy;
import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the sink does where its next offset is no longer in the log, as {@code on.missing} says:
 * the consumer runs with {@code auto.offset.reset=none}, so such a position (after a restart, or
 * when retention overtakes a sink that fell behind) fails the fetch instead of jumping silently to
 * the log start. {@code fail} stops the sink naming the range; {@code skip} writes the range to
 * the lost-range report the loader writes too, and the partition continues at the log start.
 * A dataset ahead of the log always stops the sink. Poll thread only.
 */
final class RetentionGaps {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Consumer<?, ?> consumer;
    private final MissingPolicy policy;
    private final DatasetLayout layout;
    private final Configuration conf;

    RetentionGaps(Consumer<?, ?> consumer, MissingPolicy policy, DatasetLayout layout, Configuration conf) {
        this.consumer = consumer;
        this.policy = policy;
        this.layout = layout;
        this.conf = conf;
    }

    /**
     * The ranges lost at {@code positions} (fetch positions the broker answered out of range);
     * under skip they are already in the report when this returns. A partition whose position is
     * back in range (the log moved between the fetch and now) has no entry: fetching it again works.
     *
     * @throws MissingRecordsException under fail, or if a position is past the log end
     * @throws IOException if the report cannot be written (nothing is skipped then)
     */
    Map<TopicPartition, LostRange> meet(Map<TopicPartition, Long> positions) throws IOException {
        Map<TopicPartition, Long> starts = consumer.beginningOffsets(positions.keySet(), TIMEOUT);
        Map<TopicPartition, Long> ends = consumer.endOffsets(positions.keySet(), TIMEOUT);
        Map<TopicPartition, LostRange> lost = new LinkedHashMap<>();
        for (Map.Entry<TopicPartition, Long> e : positions.entrySet()) {
            TopicPartition tp = e.getKey();
            long position = e.getValue();
            if (position > ends.get(tp)) {
                throw MissingRecordsException.ahead(tp.topic(), tp.partition(), position, ends.get(tp));
            }
            if (position < starts.get(tp)) {
                lost.put(tp, new LostRange(tp.topic(), tp.partition(), position, starts.get(tp)));
            }
        }
        if (policy == MissingPolicy.FAIL && !lost.isEmpty()) {
            throw MissingRecordsException.lost(lost.values().iterator().next());
        }
        for (LostRange range : lost.values()) {
            // Named by partition and first lost offset: a crash before the skip commits reports the same gap again, in place.
            LostRangeReport.write(layout, range.topic(), "sink-" + range.partition() + "-" + range.start(), List.of(range), conf);
        }
        return lost;
    }
}

package io.tributary.hadoop.input;

import io.tributary.hadoop.dataset.LostRange;
import io.tributary.hadoop.dataset.MissingPolicy;
import io.tributary.hadoop.testing.BrokerExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The reader against a real broker: exact ranges, gaps in offsets, records deleted after planning. */
class OffsetRangeReaderIT {
    @RegisterExtension
    static final BrokerExtension BROKER = new BrokerExtension();

    @BeforeAll
    static void createTopics() throws Exception {
        BROKER.broker().createTopic("r", 2);
        BROKER.broker().produce("r", 2, 300, System.currentTimeMillis() - 60_000, 1, (p, i) -> ("v" + i).getBytes(StandardCharsets.UTF_8));
    }


    @Test
    void readsExactlyTheRangesWithProgress() throws Exception {
        TopicSplit split = new TopicSplit("r", List.of(new OffsetRange(0, 17, 40), new OffsetRange(1, 290, 300), new OffsetRange(1, 5, 5)), "");
        try (OffsetRangeReader reader = reader(split, MissingPolicy.FAIL)) {
            assertThat(reader.progress()).isZero();
            List<String> read = new ArrayList<>();
            while (reader.next()) {
                read.add(reader.current().partition() + ":" + reader.current().offset());
                assertThat(reader.progress()).isBetween(0f, 1f);
            }
            assertThat(read).hasSize(33).startsWith("0:17").contains("0:39", "1:290").endsWith("1:299");
            assertThat(reader.progress()).isEqualTo(1f);
        }
    }

    @Test
    void recordsDeletedAfterPlanningFailOrAreSkippedAndReported() throws Exception {
        TopicSplit split = new TopicSplit("r", List.of(new OffsetRange(1, 0, 200)), "");
        BROKER.broker().deleteRecordsBefore("r", 1, 50);
        try (OffsetRangeReader reader = reader(split, MissingPolicy.FAIL)) {
            assertThatThrownBy(reader::next).isInstanceOf(LostRangeException.class).hasMessageContaining("r-1 offsets [0, 50)");
        }
        try (OffsetRangeReader reader = reader(split, MissingPolicy.SKIP)) {
            long count = 0;
            long first = -1;
            while (reader.next()) {
                first = first < 0 ? reader.current().offset() : first;
                count++;
            }
            assertThat(first).isEqualTo(50);
            assertThat(count).isEqualTo(150);
            assertThat(reader.lostRanges()).containsExactly(new LostRange("r", 1, 0, 50));
        }
    }

    @Test
    void closeAtTheEndOfTheLogDoesNotWaitForTheFetchSentAhead() throws Exception {
        // Reading to the log end leaves a fetch for offset 300 in flight, which the broker holds for fetch.max.wait.ms.
        Configuration conf = new Configuration(false);
        conf.set(InputConfig.CONSUMER_PREFIX + "fetch.max.wait.ms", "20000");
        OffsetRangeReader reader = reader(new TopicSplit("r", List.of(new OffsetRange(0, 0, 300)), ""), MissingPolicy.FAIL, conf);
        int read = 0;
        while (reader.next()) {
            read++;
        }
        assertThat(read).isEqualTo(300);
        long start = System.nanoTime();
        reader.close();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }

    private static OffsetRangeReader reader(TopicSplit split, MissingPolicy policy) {
        return reader(split, policy, new Configuration(false));
    }

    private static OffsetRangeReader reader(TopicSplit split, MissingPolicy policy, Configuration conf) {
        conf.set(InputConfig.BOOTSTRAP_SERVERS, BROKER.broker().bootstrapServers());
        return new OffsetRangeReader(new KafkaConsumer<>(new InputConfig(conf).consumerProps("test")), split, policy,
            Duration.ofSeconds(30), Time.SYSTEM);
    }
}

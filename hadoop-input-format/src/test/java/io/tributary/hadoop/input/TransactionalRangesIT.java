package io.tributary.hadoop.input;

import io.tributary.hadoop.dataset.MissingPolicy;
import io.tributary.hadoop.testing.BrokerExtension;
import io.tributary.testkit.tributary.TransactionalTopic;
import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Planning and reading a topic with committed, aborted and open transactions
 * ({@link TransactionalTopic}), with the input format's default settings: plans end at the last
 * stable offset, splits end at offsets that may be markers or aborted records, and the readers
 * return each committed record once and report nothing lost.
 */
@Timeout(300)
class TransactionalRangesIT {
    @RegisterExtension
    static final BrokerExtension BROKER = new BrokerExtension();

    private static final int PARTITIONS = 3;
    private static final int PER_BATCH = 40;
    private static final AtomicInteger TOPICS = new AtomicInteger();
    /** Only read, never changed: the tests that leave the open transaction open share it. */
    private static TransactionalTopic shared;

    @BeforeAll
    static void writeSharedTopic() throws Exception {
        shared = newTopic();
    }

    @AfterAll
    static void closeSharedTopic() {
        if (shared != null) {
            shared.close();
        }
    }

    @Test
    void plansUpToTheLastStableOffsetAndNotesTheLogEndBeyondAnOpenTransaction() throws Exception {
        TransactionalTopic topic = shared;
        LoadPlan plan = JobPlanning.plan(conf(topic, "earliest"));
        Map<Integer, Long> stable = topic.lastStableOffsets();
        Map<Integer, Long> logEnds = topic.logEndOffsets();
        assertThat(stable).containsAllEntriesOf(topic.openTransactionStarts());
        assertThat(plan.endOffsets()).isEqualTo(stable);
        for (LoadPlan.Partition p : plan.partitions()) {
            assertThat(p.logEnd()).as("log end of partition %d", p.range().partition()).isEqualTo(logEnds.get(p.range().partition()));
        }
        assertThat(plan.partitions()).filteredOn(p -> p.heldBack() > 0).extracting(p -> p.range().partition())
            .containsExactlyElementsOf(topic.openTransactionStarts().keySet());

        // A start past the stable end (say, offsets a read_uncommitted consumer committed) names the open transaction.
        assertThatThrownBy(() -> JobPlanning.plan(conf(topic, "offsets:0=" + logEnds.get(0))))
            .hasMessage("start offset " + logEnds.get(0) + " of " + topic.topic() + "-0 is beyond its end " + stable.get(0)
                + ", where a transaction is still open (log end " + logEnds.get(0) + "); load again once it has ended, "
                + "or read with tributary.consumer.isolation.level=read_uncommitted");
    }

    @ParameterizedTest(name = "splits of at most {0} offsets")
    @ValueSource(longs = {7, PER_BATCH + 1, 1_000})
    void readsEveryCommittedRecordOnceWhereverTheSplitsEnd(long maxOffsets) throws Exception {
        Configuration conf = conf(shared, "earliest");
        Map<Integer, TreeSet<Long>> read = readAll(conf, new SplitPlanner(new SplitLimits(maxOffsets, 0, 0)).split(JobPlanning.plan(conf)));
        assertThat(read).isEqualTo(shared.visible());
    }

    @Test
    void aSplitOfAbortedRecordsAndTheirMarkerEndsWithNoRecordAndNothingLost() throws Exception {
        TransactionalTopic topic = shared;
        int partition = PARTITIONS - 1;
        // Each transaction put PER_BATCH records, one offset after the other, into the partition.
        long firstOfLastAbort = topic.aborted().get(partition).descendingSet().stream().skip(PER_BATCH - 1).findFirst().orElseThrow();
        // The log's last transaction: its aborted records and the abort marker after them, up to the log end.
        TopicSplit split = new TopicSplit(topic.topic(), List.of(new OffsetRange(partition, firstOfLastAbort,
            topic.logEndOffsets().get(partition))), "");
        assertThat(split.span()).isEqualTo(PER_BATCH + 1);
        try (OffsetRangeReader reader = reader(conf(topic, "earliest"), split)) {
            assertThat(reader.next()).as("a record of an aborted transaction").isFalse();
            assertThat(reader.progress()).isEqualTo(1f);
            assertThat(reader.lostRanges()).isEmpty();
        }
    }

    @Test
    void theRestLoadsOnceTheOpenTransactionCommitsWithNoGapAndNoDuplicate() throws Exception {
        try (TransactionalTopic topic = newTopic()) {
            Configuration first = conf(topic, "earliest");
            LoadPlan before = JobPlanning.plan(first);
            Map<Integer, TreeSet<Long>> read = readAll(first, new SplitPlanner(new SplitLimits(25, 0, 0)).split(before));

            topic.commitOpenTransaction();
            String resume = before.endOffsets().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(",", "offsets:", ""));
            Configuration second = conf(topic, resume);
            LoadPlan after = JobPlanning.plan(second);
            assertThat(after.endOffsets()).isEqualTo(topic.logEndOffsets());
            assertThat(after.partitions()).allSatisfy(p -> assertThat(p.heldBack()).isZero());
            readAll(second, new SplitPlanner(new SplitLimits(25, 0, 0)).split(after))
                .forEach((p, offsets) -> offsets.forEach(o -> assertThat(read.get(p).add(o)).as("offset %d of partition %d read twice", o, p).isTrue()));
            assertThat(read).isEqualTo(topic.visible());
        }
    }

    /** Reads every split to its end; fails on an offset read twice, a lost range or a split that does not finish. */
    private static Map<Integer, TreeSet<Long>> readAll(Configuration conf, List<TopicSplit> splits) throws Exception {
        Map<Integer, TreeSet<Long>> read = new TreeMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            read.put(p, new TreeSet<>());
        }
        for (TopicSplit split : splits) {
            try (OffsetRangeReader reader = reader(conf, split)) {
                while (reader.next()) {
                    int partition = reader.current().partition();
                    long offset = reader.current().offset();
                    assertThat(read.get(partition).add(offset)).as("offset %d of partition %d read twice", offset, partition).isTrue();
                    assertThat(new String(reader.current().value())).doesNotStartWith("aborted-");
                }
                assertThat(reader.progress()).as("progress at the end of %s", split).isEqualTo(1f);
                assertThat(reader.lostRanges()).as("lost ranges of %s", split).isEmpty();
            }
        }
        return read;
    }

    private static OffsetRangeReader reader(Configuration conf, TopicSplit split) {
        InputConfig config = new InputConfig(conf);
        return new OffsetRangeReader(new KafkaConsumer<>(config.consumerProps("transactional-ranges")), split, MissingPolicy.FAIL,
            Duration.ofSeconds(60), Time.SYSTEM);
    }

    private static Configuration conf(TransactionalTopic topic, String start) {
        Configuration conf = new Configuration(false);
        conf.set(InputConfig.BOOTSTRAP_SERVERS, BROKER.broker().bootstrapServers());
        conf.set(InputConfig.TOPIC, topic.topic());
        conf.set(InputConfig.START, start);
        return conf;
    }

    private static TransactionalTopic newTopic() throws Exception {
        return TransactionalTopic.create(BROKER.broker().bootstrapServers(), "txn-ranges-" + TOPICS.incrementAndGet(), PARTITIONS, PER_BATCH);
    }
}

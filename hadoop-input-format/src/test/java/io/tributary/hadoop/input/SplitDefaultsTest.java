package io.tributary.hadoop.input;

import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.common.IsolationLevel;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The split plan and the consumer settings a job gets from the default configuration. */
class SplitDefaultsTest {
    @Test
    void fourBusyPartitionsGetAtLeastFourMapsByDefault() {
        // The reported case: 200,000 records over 4 partitions ran as one map.
        LoadPlan plan = new LoadPlan("t", List.of(part(0, 50_000), part(1, 50_000), part(2, 50_000), part(3, 50_000)));

        List<TopicSplit> splits = new SplitPlanner(new InputConfig(new Configuration(false)).splitLimits()).split(plan);

        assertThat(splits).hasSizeGreaterThanOrEqualTo(4)
            .allSatisfy(s -> assertThat(s.ranges()).extracting(OffsetRange::partition).containsOnly(s.ranges().get(0).partition()));
    }

    @Test
    void onlyTinyRangesArePackedByDefault() {
        LoadPlan plan = new LoadPlan("t", List.of(part(0, 10), part(1, 20), part(2, 30), part(3, 50_000)));

        List<TopicSplit> splits = new SplitPlanner(new InputConfig(new Configuration(false)).splitLimits()).split(plan);

        assertThat(splits).extracting(TopicSplit::ranges).containsExactlyInAnyOrder(
            List.of(new OffsetRange(3, 0, 50_000)),
            List.of(new OffsetRange(0, 0, 10), new OffsetRange(1, 0, 20), new OffsetRange(2, 0, 30)));
    }

    @Test
    void readersAndPlanningReadCommittedRecordsUnlessTheJobAsksForEveryRecord() {
        Configuration conf = new Configuration(false);
        conf.set(InputConfig.BOOTSTRAP_SERVERS, "127.0.0.1:9092");
        InputConfig defaults = new InputConfig(conf);
        assertThat(defaults.consumerProps("c")).containsEntry("isolation.level", "read_committed");
        assertThat(defaults.isolationLevel()).isEqualTo(IsolationLevel.READ_COMMITTED);

        Configuration uncommitted = new Configuration(false);
        uncommitted.set(InputConfig.CONSUMER_PREFIX + "isolation.level", "READ_UNCOMMITTED");
        assertThat(new InputConfig(uncommitted).isolationLevel()).isEqualTo(IsolationLevel.READ_UNCOMMITTED);
        uncommitted.set(InputConfig.CONSUMER_PREFIX + "isolation.level", "committed");
        assertThatThrownBy(() -> new InputConfig(uncommitted).isolationLevel())
            .hasMessage("bad tributary.consumer.isolation.level 'committed': read_committed or read_uncommitted");
    }

    private static LoadPlan.Partition part(int partition, long records) {
        return new LoadPlan.Partition(new OffsetRange(partition, 0, records), "", 0);
    }
}

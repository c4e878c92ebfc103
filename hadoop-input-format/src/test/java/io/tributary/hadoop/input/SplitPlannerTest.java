package io.tributary.hadoop.input;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SplitPlannerTest {
    @Test
    void cutsAHotPartitionIntoManySplitsThatCoverItExactly() {
        LoadPlan plan = plan(part(0, 100, 1_100, "h0", 0));
        List<TopicSplit> splits = new SplitPlanner(new SplitLimits(300, 0, 0)).split(plan);
        assertThat(splits).extracting(TopicSplit::ranges).containsExactly(
            List.of(new OffsetRange(0, 100, 400)), List.of(new OffsetRange(0, 400, 700)),
            List.of(new OffsetRange(0, 700, 1_000)), List.of(new OffsetRange(0, 1_000, 1_100)));
        assertThat(splits).allSatisfy(s -> assertThat(s.host()).isEqualTo("h0"));
    }

    @Test
    void packsSmallRangesUpToTheTarget() {
        LoadPlan plan = plan(part(0, 0, 40, "a", 0), part(1, 0, 50, "b", 0), part(2, 10, 10, "c", 0),
            part(3, 0, 30, "d", 0), part(4, 0, 500, "e", 0));
        List<TopicSplit> splits = new SplitPlanner(new SplitLimits(200, 0, 100)).split(plan);
        assertThat(splits).extracting(TopicSplit::ranges).containsExactly(
            List.of(new OffsetRange(0, 0, 40), new OffsetRange(1, 0, 50)), // 30 more would pass 100
            List.of(new OffsetRange(4, 0, 200)), List.of(new OffsetRange(4, 200, 400)),
            List.of(new OffsetRange(4, 400, 500)), // a busy partition's tail: never packed
            List.of(new OffsetRange(3, 0, 30)));
        assertThat(splits.get(0).host()).as("the leader of the partition with most of the pack").isEqualTo("b");
    }

    @Test
    void aBusyPartitionsTailIsNotPackedWithTinyRanges() {
        LoadPlan plan = plan(part(0, 0, 250, "a", 0), part(1, 0, 10, "b", 0), part(2, 0, 10, "c", 0));
        List<TopicSplit> splits = new SplitPlanner(new SplitLimits(100, 0, 100)).split(plan);
        assertThat(splits).extracting(TopicSplit::ranges).containsExactly(
            List.of(new OffsetRange(0, 0, 100)), List.of(new OffsetRange(0, 100, 200)), List.of(new OffsetRange(0, 200, 250)),
            List.of(new OffsetRange(1, 0, 10), new OffsetRange(2, 0, 10)));
    }

    @Test
    void minMapsHalvesTheLargestSplitsUntilThereAreEnough() {
        LoadPlan plan = plan(part(0, 0, 1_000, "h0", 0), part(1, 0, 400, "h1", 0));
        List<TopicSplit> splits = new SplitPlanner(new SplitLimits(1_000_000, 0, 0, 4, 0)).split(plan);
        assertThat(splits).extracting(TopicSplit::ranges).containsExactly(
            List.of(new OffsetRange(0, 0, 250)), List.of(new OffsetRange(0, 250, 500)),
            List.of(new OffsetRange(0, 500, 1_000)), List.of(new OffsetRange(1, 0, 400)));
        assertThat(splits).extracting(TopicSplit::host).containsExactly("h0", "h0", "h0", "h1");
    }

    @Test
    void minMapsSplitsAPackAndStopsAtSingleOffsets() {
        LoadPlan plan = plan(part(0, 0, 1, "", 0), part(1, 0, 1, "", 0), part(2, 0, 1, "", 0));
        List<TopicSplit> splits = new SplitPlanner(new SplitLimits(100, 0, 100, 10, 0)).split(plan);
        assertThat(splits).extracting(TopicSplit::span).containsOnly(1L).hasSize(3);
    }

    @Test
    void maxMapsDealsRangesOutEvenlyAndJoinsNeighbours() {
        LoadPlan plan = plan(part(0, 0, 600, "h0", 0), part(1, 0, 300, "h1", 0), part(2, 0, 300, "h2", 0), part(3, 0, 200, "h3", 0));
        List<TopicSplit> splits = new SplitPlanner(new SplitLimits(200, 0, 0, 0, 2)).split(plan);
        assertThat(splits).hasSize(2);
        assertThat(splits).extracting(TopicSplit::span).containsExactly(700L, 700L);
        assertThat(splits.stream().flatMap(s -> s.ranges().stream()).mapToLong(OffsetRange::span).sum()).isEqualTo(1_400);
        assertThat(splits).allSatisfy(s -> assertThat(s.ranges()).doesNotHaveDuplicates()
            .allSatisfy(r -> assertThat(s.ranges()).noneMatch(o -> o.partition() == r.partition() && o.start() == r.end())));
    }

    @Test
    void byteLimitCutsByTheSampledRecordSize() {
        LoadPlan plan = plan(part(0, 0, 1_000, "", 100.0), part(1, 0, 1_000, "", 0));
        List<TopicSplit> splits = new SplitPlanner(new SplitLimits(600, 25_000, 0)).split(plan);
        assertThat(splits.stream().filter(s -> s.ranges().get(0).partition() == 0)).hasSize(4)
            .allSatisfy(s -> assertThat(s.span()).isLessThanOrEqualTo(250));
        assertThat(splits.stream().filter(s -> s.ranges().get(0).partition() == 1)).hasSize(2); // size unknown: records only
    }

    @Test
    void nothingToLoadMeansNoSplits() {
        assertThat(new SplitPlanner(new SplitLimits(10, 0, 10)).split(plan(part(0, 5, 5, "", 0)))).isEmpty();
    }

    @Test
    void limitsAreValidated() {
        assertThatThrownBy(() -> new SplitLimits(0, 0, 0)).hasMessageContaining("max.records 0");
        assertThatThrownBy(() -> new SplitLimits(10, 0, 0, 5, 4)).hasMessageContaining("min.maps 5 is more than max.maps 4");
        assertThat(new SplitLimits(1000, 10, 0).maxOffsets(1_000_000)).isEqualTo(1);
    }

    @Test
    void splitsEndAtOffsetsAndTheLastAtTheStableEndWhateverLiesBeyond() {
        // Offsets 0..99 up to the last stable offset 100, where a transaction is open up to the log end 160.
        LoadPlan plan = plan(new LoadPlan.Partition(new OffsetRange(0, 0, 100), "", 0, 160));
        assertThat(plan.partitions().get(0).heldBack()).isEqualTo(60);

        List<TopicSplit> splits = new SplitPlanner(new SplitLimits(30, 0, 0)).split(plan);

        assertThat(splits).extracting(TopicSplit::ranges).containsExactly(List.of(new OffsetRange(0, 0, 30)),
            List.of(new OffsetRange(0, 30, 60)), List.of(new OffsetRange(0, 60, 90)), List.of(new OffsetRange(0, 90, 100)));
        assertThatThrownBy(() -> new LoadPlan.Partition(new OffsetRange(0, 0, 100), "", 0, 99)).hasMessageContaining("log end 99");
    }

    @Test
    void planSurvivesTheJobConfiguration() {
        LoadPlan plan = plan(part(0, 0, 40, "a.example", 12.5), part(7, 3, 9, "", 0),
            new LoadPlan.Partition(new OffsetRange(8, 5, 20), "", 0, 35));
        assertThat(LoadPlan.decode(plan.encode())).isEqualTo(plan);
        assertThat(LoadPlan.decode(plan.encode()).partitions().get(2).logEnd()).isEqualTo(35);
        assertThat(plan.endOffsets()).containsEntry(0, 40L).containsEntry(7, 9L);
        assertThat(LoadPlan.decode(new LoadPlan("t", List.of()).encode()).partitions()).isEmpty();
    }

    @Test
    void theTieredPartOfARangeIsLeftToTheTieredSplitsAndThePlanKeepsIt() {
        LoadPlan plan = plan(new LoadPlan.Partition(new OffsetRange(0, 0, 100), "", 0, 100, 70));

        List<TopicSplit> splits = new SplitPlanner(new SplitLimits(1000, 0, 0)).split(plan);

        assertThat(splits).extracting(TopicSplit::ranges).containsExactly(List.of(new OffsetRange(0, 70, 100)));
        assertThat(plan.readsTiered()).isTrue();
        LoadPlan unreachable = new LoadPlan("t", List.of(new LoadPlan.Partition(new OffsetRange(1, 5, 50), "", 0, 50, 50)), true);
        assertThat(LoadPlan.decode(plan.encode())).isEqualTo(plan);
        assertThat(LoadPlan.decode(unreachable.encode())).isEqualTo(unreachable);
        assertThat(LoadPlan.decode(unreachable.encode()).brokersUnreachable()).isTrue();
        assertThatThrownBy(() -> new LoadPlan.Partition(new OffsetRange(0, 10, 100), "", 0, 100, 5)).hasMessageContaining("tiered end 5");
    }

    private static LoadPlan plan(LoadPlan.Partition... partitions) {
        return new LoadPlan("t", List.of(partitions));
    }

    private static LoadPlan.Partition part(int partition, long start, long end, String host, double avg) {
        return new LoadPlan.Partition(new OffsetRange(partition, start, end), host, avg);
    }
}

package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.LostRange;
import io.tributary.hadoop.input.LoadPlan;
import io.tributary.hadoop.input.OffsetRange;
import io.tributary.hadoop.input.TopicInputCounter;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobCounter;

import java.util.ArrayList;
import java.util.List;

/** What a finished load did, from its plan and its job counters. */
record LoadSummary(String topic, List<OffsetRange> ranges, long records, long bytes, long files, List<LostRange> lostRanges,
                   int mapTasks, long mapAttempts, long dataLocalMaps, Path dataset) {

    /**
     * {@code mapTasks}: the job's splits; the attempts (retries included) and the maps that ran where their split's data
     * lies come from the counters where the runner keeps them (YARN).
     */
    static LoadSummary of(LoadPlan plan, int mapTasks, Counters counters, Path dataset) {
        List<LostRange> lost = new ArrayList<>();
        for (Counter c : counters.getGroup(TopicInputCounter.LOST_RANGES_GROUP)) {
            lost.add(TopicInputCounter.parseLostRangeCounter(plan.topic(), c.getName()));
        }
        lost.sort((a, b) -> a.partition() != b.partition() ? Integer.compare(a.partition(), b.partition()) : Long.compare(a.start(), b.start()));
        return new LoadSummary(plan.topic(), plan.ranges().stream().filter(r -> !r.isEmpty()).toList(),
            counters.findCounter(TopicInputCounter.RECORDS).getValue(),
            counters.findCounter(TopicInputCounter.BYTES).getValue(),
            counters.findCounter(LoaderCounter.FILES_WRITTEN).getValue(), List.copyOf(lost),
            mapTasks, counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(),
            counters.findCounter(JobCounter.DATA_LOCAL_MAPS).getValue(), dataset);
    }

    String describe() {
        StringBuilder text = new StringBuilder()
            .append("loaded ").append(records).append(" records (").append(bytes).append(" bytes) of ").append(topic)
            .append(" into ").append(files).append(" files\n")
            .append("ranges loaded: ").append(ranges.isEmpty() ? "none (nothing new)" : ranges.toString()).append('\n')
            .append("lost ranges: ").append(lostRanges.isEmpty() ? "none" : lostRanges.toString()).append('\n')
            .append("map tasks: ").append(mapTasks).append(mapAttempts > 0 ? ", attempts: " + mapAttempts : "").append('\n')
            .append(dataLocalMaps > 0 ? "data-local map tasks: " + dataLocalMaps + "\n" : "")
            .append("dataset: ").append(dataset);
        return text.toString();
    }
}

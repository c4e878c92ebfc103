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
import java.util.OptionalLong;

/**
 * What a finished load did, from its plan and its job counters: the same counts the sink serves on GET /metrics.
 *
 * @param bytes         bytes of the records read
 * @param bytesWritten  bytes of the Parquet files written
 * @param lag           offsets a next load would find, counted after this one; empty if the brokers did not answer
 * @param durationMs    from submission to the end of the job's commit
 * @param dataLocalMaps the maps that ran where their split's data lies
 */
record LoadSummary(String topic, List<OffsetRange> ranges, long records, long bytes, long files, long bytesWritten,
                   List<LostRange> lostRanges, OptionalLong lag, long durationMs, int mapTasks, long mapAttempts, long dataLocalMaps,
                   Path dataset) {

    /**
     * {@code mapTasks}: the job's splits; the attempts (retries included) and the maps that ran where their split's data
     * lies come from the counters where the runner keeps them (YARN).
     */
    static LoadSummary of(LoadPlan plan, int mapTasks, Counters counters, OptionalLong lag, long durationMs, Path dataset) {
        return new LoadSummary(plan.topic(), plan.ranges().stream().filter(r -> !r.isEmpty()).toList(),
            counters.findCounter(TopicInputCounter.RECORDS).getValue(),
            counters.findCounter(TopicInputCounter.BYTES).getValue(),
            counters.findCounter(LoaderCounter.FILES_WRITTEN).getValue(), counters.findCounter(LoaderCounter.BYTES_WRITTEN).getValue(),
            lostRanges(plan.topic(), counters), lag, durationMs, mapTasks, counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(),
            counters.findCounter(JobCounter.DATA_LOCAL_MAPS).getValue(), dataset);
    }

    /** The ranges the job's readers found deleted from the log (skipped under on-missing=skip), by partition and offset. */
    static List<LostRange> lostRanges(String topic, Counters counters) {
        List<LostRange> lost = new ArrayList<>();
        for (Counter c : counters.getGroup(TopicInputCounter.LOST_RANGES_GROUP)) {
            lost.add(TopicInputCounter.parseLostRangeCounter(topic, c.getName()));
        }
        lost.sort((a, b) -> a.partition() != b.partition() ? Integer.compare(a.partition(), b.partition()) : Long.compare(a.start(), b.start()));
        return List.copyOf(lost);
    }

    String describe() {
        StringBuilder text = new StringBuilder()
            .append("loaded ").append(records).append(" records (").append(bytes).append(" bytes) of ").append(topic)
            .append(" into ").append(files).append(" files (").append(bytesWritten).append(" bytes of Parquet)\n")
            .append("ranges loaded: ").append(ranges.isEmpty() ? "none (nothing new)" : ranges.toString()).append('\n')
            .append("lost ranges: ").append(lostRanges.isEmpty() ? "none" : lostRanges.toString()).append('\n')
            .append("lag: ").append(lag.isPresent() ? lag.getAsLong() + " offsets left for the next load"
                : "unknown (the brokers are unreachable)").append('\n')
            .append(String.format("took: %.1f s, commit included%n", durationMs / 1000.0))
            .append("map tasks: ").append(mapTasks).append(mapAttempts > 0 ? ", attempts: " + mapAttempts : "").append('\n')
            .append(dataLocalMaps > 0 ? "data-local map tasks: " + dataLocalMaps + "\n" : "")
            .append("dataset: ").append(dataset);
        return text.toString();
    }
}

package io.tributary.hadoop.loader;

import io.tributary.hadoop.input.LoadPlan;
import io.tributary.hadoop.input.TopicSplit;

import java.util.List;

/** The console text of a load's plan: one summary line, and with {@link #splits} a line per split (map task). */
record SplitPlanReport(LoadPlan plan, List<TopicSplit> splits) {

    String summary() {
        long busy = plan.partitions().stream().filter(p -> !p.range().isEmpty()).count();
        return "plan: " + splits.size() + (splits.size() == 1 ? " split" : " splits") + " (map tasks) for " + plan.span()
            + " offsets of " + plan.topic() + " in " + busy + " of " + plan.partitions().size() + " partitions";
    }

    String splitLines() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < splits.size(); i++) {
            TopicSplit split = splits.get(i);
            text.append("split ").append(i + 1).append(": ").append(split.span()).append(" offsets, ").append(split.ranges())
                .append(split.host().isEmpty() ? "" : ", near " + split.host()).append('\n');
        }
        return text.toString();
    }
}

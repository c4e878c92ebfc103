package io.tributary.hadoop.loader;

import io.tributary.hadoop.input.LoadPlan;
import io.tributary.hadoop.input.LoadSplit;

import java.util.List;

/** The console text of a load's plan: a summary, and with {@link #splits} a line per split (map task). */
record SplitPlanReport(LoadPlan plan, List<LoadSplit> splits) {

    /** The plan in one line, and a line for each partition an open transaction holds back. */
    String summary() {
        long busy = plan.partitions().stream().filter(p -> !p.range().isEmpty()).count();
        StringBuilder text = new StringBuilder("plan: ").append(splits.size()).append(splits.size() == 1 ? " split" : " splits")
            .append(" (map tasks) for ").append(plan.span()).append(" offsets of ").append(plan.topic()).append(" in ").append(busy)
            .append(" of ").append(plan.partitions().size()).append(" partitions");
        long tiered = plan.partitions().stream().mapToLong(p -> p.tieredRange().span()).sum();
        if (tiered > 0) {
            text.append(", ").append(tiered).append(" of them from tiered storage");
        }
        for (LoadPlan.Partition p : plan.partitions()) {
            if (plan.brokersUnreachable()) {
                text.append("\n").append(plan.topic()).append('-').append(p.range().partition())
                    .append(": the brokers are unreachable: loading what tiered storage holds, up to offset ").append(p.range().end())
                    .append("; the rest loads in a later run");
            }
            if (p.heldBack() > 0) {
                text.append("\n").append(plan.topic()).append('-').append(p.range().partition())
                    .append(": loading up to its last stable offset ").append(p.range().end()).append(", where a transaction is still open; ")
                    .append(p.heldBack()).append(" offsets up to the log end ").append(p.logEnd())
                    .append(" wait for it to commit or abort and load in a later run");
            }
        }
        return text.toString();
    }

    String splitLines() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < splits.size(); i++) {
            text.append("split ").append(i + 1).append(": ").append(splits.get(i).describe()).append('\n');
        }
        return text.toString();
    }
}

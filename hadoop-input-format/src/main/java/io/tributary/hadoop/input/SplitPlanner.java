package io.tributary.hadoop.input;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a {@link LoadPlan} into splits: each partition's range into pieces of at most
 * {@link SplitLimits#maxOffsets} offsets, so one hot partition feeds many mappers; then pieces
 * smaller than the pack target are packed together (in partition order) up to that target, so
 * many quiet partitions do not cost a mapper each. Stateless.
 */
public final class SplitPlanner {
    private final SplitLimits limits;

    public SplitPlanner(SplitLimits limits) {
        this.limits = limits;
    }

    public List<TopicSplit> split(LoadPlan plan) {
        List<TopicSplit> splits = new ArrayList<>();
        List<OffsetRange> pack = new ArrayList<>();
        String packHost = "";
        long packed = 0;
        for (LoadPlan.Partition p : plan.partitions()) {
            long step = limits.maxOffsets(p.avgRecordBytes());
            for (long start = p.range().start(); start < p.range().end(); start += step) {
                OffsetRange piece = new OffsetRange(p.range().partition(), start, Math.min(p.range().end(), start + step));
                if (piece.span() >= limits.packRecords()) {
                    splits.add(new TopicSplit(plan.topic(), List.of(piece), p.host()));
                    continue;
                }
                if (packed + piece.span() > limits.packRecords()) {
                    splits.add(new TopicSplit(plan.topic(), pack, packHost));
                    pack = new ArrayList<>();
                    packed = 0;
                }
                if (pack.isEmpty()) {
                    packHost = p.host();
                }
                pack.add(piece);
                packed += piece.span();
            }
        }
        if (!pack.isEmpty()) {
            splits.add(new TopicSplit(plan.topic(), pack, packHost));
        }
        return splits;
    }
}

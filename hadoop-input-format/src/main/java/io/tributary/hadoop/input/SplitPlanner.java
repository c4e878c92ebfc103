package io.tributary.hadoop.input;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Cuts the parts of a {@link LoadPlan} read through the brokers into splits, in four steps:
 * <ol>
 *   <li>each busy partition's range into pieces of at most {@link SplitLimits#maxOffsets} offsets,
 *       so it gets a map or more of its own and a hot one feeds many;</li>
 *   <li>the tiny ranges, of partitions with fewer than {@link SplitLimits#packRecords} offsets to
 *       load, packed together (in partition order) up to that size, so many quiet partitions do
 *       not cost a map each;</li>
 *   <li>below {@link SplitLimits#minMaps} splits, the largest split halved until there are enough
 *       (or nothing is left to halve);</li>
 *   <li>above {@link SplitLimits#maxMaps}, all ranges dealt out again into that many splits, the
 *       largest first onto the least loaded, a partition's neighbouring ranges in one split joined.</li>
 * </ol>
 * Deterministic for a plan and limits, so the job gets the splits the loader printed. Stateless.
 */
public final class SplitPlanner {
    private static final Comparator<OffsetRange> BY_PARTITION_AND_START =
        Comparator.comparingInt(OffsetRange::partition).thenComparingLong(OffsetRange::start);

    private final SplitLimits limits;

    public SplitPlanner(SplitLimits limits) {
        this.limits = limits;
    }

    public List<TopicSplit> split(LoadPlan plan) {
        Map<Integer, String> hosts = new HashMap<>();
        plan.partitions().forEach(p -> hosts.put(p.range().partition(), p.host()));
        List<List<OffsetRange>> splits = cutAndPack(plan);
        if (splits.size() < limits.minMaps()) {
            splits = halveLargest(splits, limits.minMaps());
        }
        if (limits.maxMaps() > 0 && splits.size() > limits.maxMaps()) {
            splits = dealOut(splits, limits.maxMaps());
        }
        return splits.stream().map(ranges -> new TopicSplit(plan.topic(), ranges, hostOfLargest(ranges, hosts))).toList();
    }

    /**
     * Busy partitions' ranges cut into pieces of their own; the tiny ranges (whole ranges under the
     * pack size, never pieces of a busy one) packed together up to the pack size and the split size.
     */
    private List<List<OffsetRange>> cutAndPack(LoadPlan plan) {
        List<List<OffsetRange>> splits = new ArrayList<>();
        List<OffsetRange> pack = new ArrayList<>();
        long packed = 0;
        for (LoadPlan.Partition p : plan.partitions()) {
            OffsetRange range = p.brokerRange(); // the tiered part is TieredSplitPlanner's
            long step = limits.maxOffsets(p.avgRecordBytes());
            if (range.isEmpty()) {
                continue;
            }
            if (range.span() >= limits.packRecords() || range.span() > step) {
                for (long start = range.start(); start < range.end(); start += step) {
                    splits.add(List.of(new OffsetRange(range.partition(), start, Math.min(range.end(), start + step))));
                }
                continue;
            }
            if (packed + range.span() > Math.min(limits.packRecords(), step)) {
                splits.add(pack);
                pack = new ArrayList<>();
                packed = 0;
            }
            pack.add(range);
            packed += range.span();
        }
        if (!pack.isEmpty()) {
            splits.add(pack);
        }
        return splits;
    }

    /** Halves the largest split (a range at its middle offset, a pack between its ranges) until there are {@code wanted}. */
    private static List<List<OffsetRange>> halveLargest(List<List<OffsetRange>> splits, int wanted) {
        List<List<OffsetRange>> result = new ArrayList<>(splits);
        while (result.size() < wanted) {
            List<OffsetRange> largest = result.stream().max(Comparator.comparingLong(SplitPlanner::span)).orElse(List.of());
            if (largest.size() == 1 && largest.get(0).span() >= 2) {
                OffsetRange r = largest.get(0);
                long middle = r.start() + r.span() / 2;
                replace(result, largest, List.of(new OffsetRange(r.partition(), r.start(), middle)), List.of(new OffsetRange(r.partition(), middle, r.end())));
            } else if (largest.size() > 1) {
                int half = largest.size() / 2;
                replace(result, largest, largest.subList(0, half), largest.subList(half, largest.size()));
            } else {
                break; // every split is a single offset
            }
        }
        return result;
    }

    private static void replace(List<List<OffsetRange>> splits, List<OffsetRange> old, List<OffsetRange> first, List<OffsetRange> second) {
        int at = splits.indexOf(old);
        splits.set(at, List.copyOf(first));
        splits.add(at + 1, List.copyOf(second));
    }

    /** All ranges into {@code count} splits of about equal span: the largest range first, each onto the least loaded split. */
    private static List<List<OffsetRange>> dealOut(List<List<OffsetRange>> splits, int count) {
        List<OffsetRange> ranges = splits.stream().flatMap(List::stream)
            .sorted(Comparator.comparingLong(OffsetRange::span).reversed().thenComparing(BY_PARTITION_AND_START)).toList();
        PriorityQueue<Bin> bins = new PriorityQueue<>(Comparator.comparingLong((Bin b) -> b.span).thenComparingInt(b -> b.index));
        for (int i = 0; i < count; i++) {
            bins.add(new Bin(i));
        }
        for (OffsetRange range : ranges) {
            Bin least = bins.poll();
            least.ranges.add(range);
            least.span += range.span();
            bins.add(least);
        }
        return bins.stream().sorted(Comparator.comparingInt(b -> b.index)).filter(b -> !b.ranges.isEmpty())
            .map(b -> joinNeighbours(b.ranges)).toList();
    }

    private static List<OffsetRange> joinNeighbours(List<OffsetRange> ranges) {
        List<OffsetRange> sorted = ranges.stream().sorted(BY_PARTITION_AND_START).toList();
        List<OffsetRange> joined = new ArrayList<>();
        for (OffsetRange r : sorted) {
            OffsetRange last = joined.isEmpty() ? null : joined.get(joined.size() - 1);
            if (last != null && last.partition() == r.partition() && last.end() == r.start()) {
                joined.set(joined.size() - 1, new OffsetRange(r.partition(), last.start(), r.end()));
            } else {
                joined.add(r);
            }
        }
        return List.copyOf(joined);
    }

    /** The leader of the partition with the most offsets in the split, to run the map near it. */
    private static String hostOfLargest(List<OffsetRange> ranges, Map<Integer, String> hosts) {
        Map<Integer, Long> spans = new HashMap<>();
        ranges.forEach(r -> spans.merge(r.partition(), r.span(), Long::sum));
        int partition = ranges.get(0).partition();
        for (OffsetRange r : ranges) {
            if (spans.get(r.partition()) > spans.get(partition)) {
                partition = r.partition();
            }
        }
        return hosts.getOrDefault(partition, "");
    }

    private static long span(List<OffsetRange> ranges) {
        return ranges.stream().mapToLong(OffsetRange::span).sum();
    }

    private static final class Bin {
        final int index;
        final List<OffsetRange> ranges = new ArrayList<>();
        long span;

        Bin(int index) {
            this.index = index;
        }
    }
}

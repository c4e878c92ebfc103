package io.tributary.broker.status;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import io.tributary.broker.group.CoordinatedGroup;
import io.tributary.broker.metrics.PartitionLag;
import org.apache.kafka.common.TopicPartition;

/**
 * The groups this broker coordinates, each with its lag on every partition it has committed and whose end offset is
 * known now. Read for the lag gauges and the status page; one caller at a time.
 */
final class GroupLags implements AutoCloseable {
    /** One group and its lag per partition (in the order of its committed offsets). */
    record GroupReport(CoordinatedGroup group, List<PartitionLag> lags) {
        long totalLag() {
            return lags.stream().mapToLong(PartitionLag::lag).sum();
        }
    }

    private final Supplier<List<CoordinatedGroup>> groups;
    private final EndOffsets endOffsets;

    GroupLags(Supplier<List<CoordinatedGroup>> groups, EndOffsets endOffsets) {
        this.groups = groups;
        this.endOffsets = endOffsets;
    }

    List<GroupReport> reports() {
        List<CoordinatedGroup> coordinated = groups.get();
        Set<TopicPartition> partitions = new HashSet<>();
        coordinated.forEach(group -> partitions.addAll(group.committedOffsets().keySet()));
        Map<TopicPartition, Long> ends = endOffsets.of(partitions);
        List<GroupReport> reports = new ArrayList<>();
        for (CoordinatedGroup group : coordinated) {
            List<PartitionLag> lags = new ArrayList<>();
            group.committedOffsets().forEach((partition, committed) -> {
                Long end = ends.get(partition);
                if (end != null) {
                    lags.add(new PartitionLag(group.listing().groupId(), partition, committed, end));
                }
            });
            reports.add(new GroupReport(group, lags));
        }
        return reports;
    }

    /** Every partition lag of every group, for the {@code tributary_group_lag} gauges. */
    List<PartitionLag> all() {
        return reports().stream().flatMap(report -> report.lags().stream()).toList();
    }

    @Override
    public void close() {
        endOffsets.close();
    }
}

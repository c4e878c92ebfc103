package io.tributary.benchmarks.harness;

import java.util.ArrayList;
import java.util.List;

/** One cell of the produce grid: record value size, acks and partition count, with its own topic. */
public record ProduceWorkload(int recordBytes, String acks, int partitions) {

    /** 100 B and 1 KiB records × acks=1 and acks=all × 1 and 6 partitions. */
    public static List<ProduceWorkload> grid() {
        List<ProduceWorkload> grid = new ArrayList<>();
        for (int recordBytes : new int[] {100, 1024}) {
            for (String acks : new String[] {"1", "all"}) {
                for (int partitions : new int[] {1, 6}) {
                    grid.add(new ProduceWorkload(recordBytes, acks, partitions));
                }
            }
        }
        return grid;
    }

    public String name() {
        return sizeLabel(recordBytes) + " acks=" + acks + " " + partitions + "p";
    }

    /** This workload's measure of the given kind. */
    public Metric metric(MetricKind kind) {
        return new Metric(kind, name(), recordBytes);
    }

    /** This workload's measure of the given kind as a reader of its topic sees it: without the acks ("100B 1p"). */
    public Metric readMetric(MetricKind kind) {
        return new Metric(kind, sizeLabel(recordBytes) + " " + partitions + "p", recordBytes);
    }

    public String topic() {
        return "produce-" + recordBytes + "b-acks" + acks + "-p" + partitions;
    }

    /** "100B", "1KiB". */
    private static String sizeLabel(int recordBytes) {
        return recordBytes % 1024 == 0 ? recordBytes / 1024 + "KiB" : recordBytes + "B";
    }
}

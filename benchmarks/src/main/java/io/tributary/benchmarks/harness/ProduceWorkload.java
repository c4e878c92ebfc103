package io.tributary.benchmarks.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * One cell of a produce grid: record value size, acks and partition count, at a replication
 * factor, with its own topic.
 */
public record ProduceWorkload(int recordBytes, String acks, int partitions, int replicationFactor) {

    /** A workload at replication factor 1. */
    public ProduceWorkload(int recordBytes, String acks, int partitions) {
        this(recordBytes, acks, partitions, 1);
    }

    /** 100 B and 1 KiB records × acks=1 and acks=all × 1 and 6 partitions, at replication factor 1. */
    public static List<ProduceWorkload> grid() {
        return grid(1, List.of("1", "all"));
    }

    /** 100 B and 1 KiB records × the given acks settings × 1 and 6 partitions. */
    public static List<ProduceWorkload> grid(int replicationFactor, List<String> acksSettings) {
        List<ProduceWorkload> grid = new ArrayList<>();
        for (int recordBytes : new int[] {100, 1024}) {
            for (String acks : acksSettings) {
                for (int partitions : new int[] {1, 6}) {
                    grid.add(new ProduceWorkload(recordBytes, acks, partitions, replicationFactor));
                }
            }
        }
        return grid;
    }

    /** "100B acks=all 6p", with " RF3" appended above replication factor 1. */
    public String name() {
        return sizeLabel(recordBytes) + " acks=" + acks + " " + partitions + "p" + replicationSuffix(" RF");
    }

    /** This workload's measure of the given kind. */
    public Metric metric(MetricKind kind) {
        return new Metric(kind, name(), recordBytes, replicationFactor);
    }

    /** This workload's measure of the given kind as a reader of its topic sees it: without the acks ("100B 1p"). */
    public Metric readMetric(MetricKind kind) {
        return new Metric(kind, sizeLabel(recordBytes) + " " + partitions + "p" + replicationSuffix(" RF"), recordBytes,
                replicationFactor);
    }

    public String topic() {
        return "produce-" + recordBytes + "b-acks" + acks + "-p" + partitions + replicationSuffix("-rf");
    }

    private String replicationSuffix(String prefix) {
        return replicationFactor == 1 ? "" : prefix + replicationFactor;
    }

    /** "100B", "1KiB". */
    private static String sizeLabel(int recordBytes) {
        return recordBytes % 1024 == 0 ? recordBytes / 1024 + "KiB" : recordBytes + "B";
    }
}

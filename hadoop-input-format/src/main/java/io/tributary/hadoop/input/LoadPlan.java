package io.tributary.hadoop.input;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The fixed ranges of one load, decided once at planning so the job is deterministic and
 * re-runnable: for each partition {@code [start, end at planning)}, where the end is the last
 * stable offset under {@code read_committed} (the high watermark under {@code read_uncommitted}),
 * its log end, its leader host and (when sampled) its average record size. Immutable.
 */
public record LoadPlan(String topic, List<Partition> partitions) {
    /**
     * One partition's range, the host to prefer for reading it, its sampled average record size
     * (0 = unknown) and its log end at planning: beyond the range's end when a transaction still
     * open there holds the last stable offset back.
     */
    public record Partition(OffsetRange range, String host, double avgRecordBytes, long logEnd) {
        public Partition {
            if (host.contains(" ") || host.contains(",")) {
                throw new IllegalArgumentException("bad host '" + host + "'");
            }
            if (logEnd < range.end()) {
                throw new IllegalArgumentException("log end " + logEnd + " before the end of " + range);
            }
        }

        /** A partition whose range ends at its log end. */
        public Partition(OffsetRange range, String host, double avgRecordBytes) {
            this(range, host, avgRecordBytes, range.end());
        }

        public Partition withAvgRecordBytes(double avg) {
            return new Partition(range, host, avg, logEnd);
        }

        /** Offsets after the range that wait for an open transaction to end; 0 if none. */
        public long heldBack() {
            return logEnd - range.end();
        }
    }

    public LoadPlan {
        partitions = partitions.stream().sorted(Comparator.comparingInt(p -> p.range().partition())).toList();
    }

    /** The next offset to load per planned partition once this plan is loaded: its range's end. */
    public Map<Integer, Long> endOffsets() {
        Map<Integer, Long> ends = new TreeMap<>();
        partitions.forEach(p -> ends.put(p.range().partition(), p.range().end()));
        return ends;
    }

    public List<OffsetRange> ranges() {
        return partitions.stream().map(Partition::range).toList();
    }

    public long span() {
        return partitions.stream().mapToLong(p -> p.range().span()).sum();
    }

    /** A one-line text form for the job configuration: {@code topic;p start end avg host logEnd,...}. */
    public String encode() {
        StringBuilder text = new StringBuilder(topic).append(';');
        for (int i = 0; i < partitions.size(); i++) {
            Partition p = partitions.get(i);
            text.append(i == 0 ? "" : ",").append(p.range().partition()).append(' ').append(p.range().start())
                .append(' ').append(p.range().end()).append(' ').append(p.avgRecordBytes())
                .append(' ').append(p.host().isEmpty() ? "-" : p.host()).append(' ').append(p.logEnd());
        }
        return text.toString();
    }

    public static LoadPlan decode(String text) {
        int semicolon = text.indexOf(';');
        if (semicolon < 1) {
            throw new IllegalArgumentException("not a load plan: '" + text + "'");
        }
        List<Partition> partitions = new ArrayList<>();
        String body = text.substring(semicolon + 1);
        for (String entry : body.isEmpty() ? new String[0] : body.split(",")) {
            String[] f = entry.split(" ");
            if (f.length != 6) {
                throw new IllegalArgumentException("bad load plan entry '" + entry + "'");
            }
            partitions.add(new Partition(new OffsetRange(Integer.parseInt(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])),
                f[4].equals("-") ? "" : f[4], Double.parseDouble(f[3]), Long.parseLong(f[5])));
        }
        return new LoadPlan(text.substring(0, semicolon), partitions);
    }
}

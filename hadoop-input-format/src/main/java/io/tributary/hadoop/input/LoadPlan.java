package io.tributary.hadoop.input;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The fixed ranges of one load, decided once at planning so the job is deterministic and
 * re-runnable: for each partition {@code [start, high watermark at planning)}, its leader host
 * and (when sampled) its average record size. Immutable.
 */
public record LoadPlan(String topic, List<Partition> partitions) {
    /** One partition's range, the host to prefer for reading it, and its sampled average record size (0 = unknown). */
    public record Partition(OffsetRange range, String host, double avgRecordBytes) {
        public Partition {
            if (host.contains(" ") || host.contains(",")) {
                throw new IllegalArgumentException("bad host '" + host + "'");
            }
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

    /** A one-line text form for the job configuration: {@code topic;p start end avg host,...}. */
    public String encode() {
        StringBuilder text = new StringBuilder(topic).append(';');
        for (int i = 0; i < partitions.size(); i++) {
            Partition p = partitions.get(i);
            text.append(i == 0 ? "" : ",").append(p.range().partition()).append(' ').append(p.range().start())
                .append(' ').append(p.range().end()).append(' ').append(p.avgRecordBytes())
                .append(' ').append(p.host().isEmpty() ? "-" : p.host());
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
            if (f.length != 5) {
                throw new IllegalArgumentException("bad load plan entry '" + entry + "'");
            }
            partitions.add(new Partition(new OffsetRange(Integer.parseInt(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])),
                f[4].equals("-") ? "" : f[4], Double.parseDouble(f[3])));
        }
        return new LoadPlan(text.substring(0, semicolon), partitions);
    }
}

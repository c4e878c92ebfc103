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
 * its log end, its leader host, (when sampled) its average record size, and how much of the range
 * tiered storage holds. {@code brokersUnreachable}: planned from tiered storage alone, each range ending
 * where the tiered part does. Immutable.
 */
public record LoadPlan(String topic, List<Partition> partitions, boolean brokersUnreachable) {
    private static final String BROKERS_UNREACHABLE = ";brokers-unreachable";

    /**
     * One partition's range, the host to prefer for reading it, its sampled average record size
     * (0 = unknown), its log end at planning (beyond the range's end when a transaction still
     * open there holds the last stable offset back), and {@code tieredEnd}: the offsets
     * {@code [start, tieredEnd)} are read from tiered storage, the rest through the brokers.
     */
    public record Partition(OffsetRange range, String host, double avgRecordBytes, long logEnd, long tieredEnd) {
        public Partition {
            if (host.contains(" ") || host.contains(",")) {
                throw new IllegalArgumentException("bad host '" + host + "'");
            }
            if (logEnd < range.end()) {
                throw new IllegalArgumentException("log end " + logEnd + " before the end of " + range);
            }
            if (tieredEnd < range.start() || tieredEnd > range.end()) {
                throw new IllegalArgumentException("tiered end " + tieredEnd + " outside " + range);
            }
        }

        /** A partition read through the brokers alone. */
        public Partition(OffsetRange range, String host, double avgRecordBytes, long logEnd) {
            this(range, host, avgRecordBytes, logEnd, range.start());
        }

        /** A partition read through the brokers alone, whose range ends at its log end. */
        public Partition(OffsetRange range, String host, double avgRecordBytes) {
            this(range, host, avgRecordBytes, range.end());
        }

        public Partition withAvgRecordBytes(double avg) {
            return new Partition(range, host, avg, logEnd, tieredEnd);
        }

        /** The part of the range read from tiered storage. */
        public OffsetRange tieredRange() {
            return new OffsetRange(range.partition(), range.start(), tieredEnd);
        }

        /** The part of the range read through the brokers. */
        public OffsetRange brokerRange() {
            return new OffsetRange(range.partition(), tieredEnd, range.end());
        }

        /** Offsets after the range that wait for an open transaction to end; 0 if none. */
        public long heldBack() {
            return logEnd - range.end();
        }
    }

    public LoadPlan {
        partitions = partitions.stream().sorted(Comparator.comparingInt(p -> p.range().partition())).toList();
    }

    /** A plan made with the brokers. */
    public LoadPlan(String topic, List<Partition> partitions) {
        this(topic, partitions, false);
    }

    /** Whether any range is read from tiered storage. */
    public boolean readsTiered() {
        return partitions.stream().anyMatch(p -> !p.tieredRange().isEmpty());
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

    /** A one-line text form for the job configuration: {@code topic;p start end avg host logEnd tieredEnd,...[;brokers-unreachable]}. */
    public String encode() {
        StringBuilder text = new StringBuilder(topic).append(';');
        for (int i = 0; i < partitions.size(); i++) {
            Partition p = partitions.get(i);
            text.append(i == 0 ? "" : ",").append(p.range().partition()).append(' ').append(p.range().start())
                .append(' ').append(p.range().end()).append(' ').append(p.avgRecordBytes())
                .append(' ').append(p.host().isEmpty() ? "-" : p.host()).append(' ').append(p.logEnd())
                .append(' ').append(p.tieredEnd());
        }
        return text.append(brokersUnreachable ? BROKERS_UNREACHABLE : "").toString();
    }

    public static LoadPlan decode(String text) {
        int semicolon = text.indexOf(';');
        if (semicolon < 1) {
            throw new IllegalArgumentException("not a load plan: '" + text + "'");
        }
        List<Partition> partitions = new ArrayList<>();
        boolean unreachable = text.endsWith(BROKERS_UNREACHABLE);
        String body = text.substring(semicolon + 1, text.length() - (unreachable ? BROKERS_UNREACHABLE.length() : 0));
        for (String entry : body.isEmpty() ? new String[0] : body.split(",")) {
            String[] f = entry.split(" ");
            if (f.length != 7) {
                throw new IllegalArgumentException("bad load plan entry '" + entry + "'");
            }
            partitions.add(new Partition(new OffsetRange(Integer.parseInt(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])),
                f[4].equals("-") ? "" : f[4], Double.parseDouble(f[3]), Long.parseLong(f[5]), Long.parseLong(f[6])));
        }
        return new LoadPlan(text.substring(0, semicolon), partitions, unreachable);
    }
}

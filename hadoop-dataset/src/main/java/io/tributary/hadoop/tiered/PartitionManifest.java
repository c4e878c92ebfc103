package io.tributary.hadoop.tiered;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The remote part of one partition's log, as its leader broker last committed it: the segment copies, oldest first,
 * each serving the offsets after the one before (a gap only where retention or an unclean election lost a range);
 * the log start offset of the whole log; the offset after the last one ever copied ({@code endOffset}, kept when
 * retention has emptied the list; -1 before anything was); the leader epoch of its writer; and the aborted
 * transactions with records below {@code endOffset} whose ABORT marker lies at or beyond it, which a reader of the
 * copies alone could not know of. Every record below {@code endOffset} is below the last stable offset the leader
 * had when it copied: every transaction with records there was decided.
 *
 * <p>The text of a version file ({@link ManifestStore}), one {@code key=value} per line, in this order:
 * <pre>
 * # comment lines
 * format=1
 * topic=orders
 * partition=0
 * leader.epoch=3
 * log.start.offset=0
 * end.offset=1200
 * segment=&lt;base&gt; &lt;start&gt; &lt;end&gt; &lt;bytes&gt; &lt;max timestamp&gt; &lt;location&gt; &lt;txnindex&gt; &lt;snapshot&gt; &lt;epoch:offset,...|-&gt;
 * aborted=&lt;producer id&gt; &lt;first offset&gt; &lt;last offset&gt; &lt;last stable offset&gt;
 * </pre>
 * with one {@code segment} line per copy, oldest first, and one {@code aborted} line per transaction. Immutable.
 */
public record PartitionManifest(String topic, int partition, long version, int leaderEpoch, long logStartOffset,
                                long endOffset, List<ManifestSegment> segments, List<AbortedTransaction> abortedAcrossEnd) {
    private static final String HEADER = "# Tributary tiered storage: the remote segments of one partition\n";
    private static final String FORMAT = "1";

    public PartitionManifest {
        segments = List.copyOf(segments);
        abortedAcrossEnd = List.copyOf(abortedAcrossEnd);
        for (int i = 1; i < segments.size(); i++) {
            if (segments.get(i).startOffset() < segments.get(i - 1).endOffset()) {
                throw new IllegalArgumentException(topic + "-" + partition + ": segments overlap at offset "
                    + segments.get(i).startOffset());
            }
        }
        if (!segments.isEmpty() && segments.get(segments.size() - 1).endOffset() > endOffset) {
            throw new IllegalArgumentException(topic + "-" + partition + ": end offset " + endOffset
                + " below the last segment's end");
        }
    }

    /** The manifest of a partition nothing was copied of: version 0, which no file holds. */
    public static PartitionManifest empty(String topic, int partition) {
        return new PartitionManifest(topic, partition, 0, -1, 0, -1, List.of(), List.of());
    }

    /** The first offset the copies serve (at or above the log start), or the end offset if none is listed. */
    public long startOffset() {
        return segments.isEmpty() ? endOffset : Math.max(logStartOffset, segments.get(0).startOffset());
    }

    /** This manifest as version {@code number} of its store. */
    public PartitionManifest withVersion(long number) {
        return new PartitionManifest(topic, partition, number, leaderEpoch, logStartOffset, endOffset, segments,
            abortedAcrossEnd);
    }

    public String encode() {
        StringBuilder text = new StringBuilder(HEADER)
            .append("format=").append(FORMAT).append('\n')
            .append("topic=").append(topic).append('\n')
            .append("partition=").append(partition).append('\n')
            .append("leader.epoch=").append(leaderEpoch).append('\n')
            .append("log.start.offset=").append(logStartOffset).append('\n')
            .append("end.offset=").append(endOffset).append('\n');
        for (ManifestSegment s : segments) {
            text.append("segment=").append(s.baseOffset()).append(' ').append(s.startOffset()).append(' ')
                .append(s.endOffset()).append(' ').append(s.sizeInBytes()).append(' ').append(s.maxTimestamp()).append(' ')
                .append(s.location()).append(' ').append(s.txnIndex()).append(' ').append(s.producerSnapshot()).append(' ')
                .append(epochs(s.leaderEpochs())).append('\n');
        }
        for (AbortedTransaction t : abortedAcrossEnd) {
            text.append("aborted=").append(t.producerId()).append(' ').append(t.firstOffset()).append(' ')
                .append(t.lastOffset()).append(' ').append(t.lastStableOffset()).append('\n');
        }
        return text.toString();
    }

    private static String epochs(SortedMap<Integer, Long> epochs) {
        if (epochs.isEmpty()) {
            return "-";
        }
        StringBuilder text = new StringBuilder();
        epochs.forEach((epoch, start) -> text.append(text.length() == 0 ? "" : ",").append(epoch).append(':').append(start));
        return text.toString();
    }

    /**
     * Reads version {@code version} of a manifest.
     *
     * @throws IllegalArgumentException naming the line if the text is not a manifest this reader knows
     */
    public static PartitionManifest parse(String text, long version) {
        Fields fields = new Fields();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("not a manifest line: '" + line + "'");
            }
            try {
                fields.take(line.substring(0, eq), line.substring(eq + 1));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("bad manifest line '" + line + "': " + e.getMessage(), e);
            }
        }
        return fields.manifest(version);
    }

    /** The fields of a manifest as its lines give them. */
    private static final class Fields {
        private String format;
        private String topic;
        private Integer partition;
        private Integer leaderEpoch;
        private Long logStartOffset;
        private Long endOffset;
        private final List<ManifestSegment> segments = new ArrayList<>();
        private final List<AbortedTransaction> aborted = new ArrayList<>();

        void take(String key, String value) {
            switch (key) {
                case "format" -> format = value;
                case "topic" -> topic = value;
                case "partition" -> partition = Integer.parseInt(value);
                case "leader.epoch" -> leaderEpoch = Integer.parseInt(value);
                case "log.start.offset" -> logStartOffset = Long.parseLong(value);
                case "end.offset" -> endOffset = Long.parseLong(value);
                case "segment" -> segments.add(segment(value.split(" ")));
                case "aborted" -> aborted.add(abortedTransaction(value.split(" ")));
                default -> throw new IllegalArgumentException("unknown key");
            }
        }

        private static ManifestSegment segment(String[] f) {
            if (f.length != 9) {
                throw new IllegalArgumentException("9 fields expected");
            }
            SortedMap<Integer, Long> epochs = new TreeMap<>();
            if (!f[8].equals("-")) {
                for (String entry : f[8].split(",")) {
                    String[] pair = entry.split(":");
                    epochs.put(Integer.parseInt(pair[0]), Long.parseLong(pair[1]));
                }
            }
            return new ManifestSegment(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]),
                Long.parseLong(f[4]), epochs, f[5], bool(f[6]), bool(f[7]));
        }

        private static boolean bool(String value) {
            if (!value.equals("true") && !value.equals("false")) {
                throw new IllegalArgumentException("true or false expected, got " + value);
            }
            return Boolean.parseBoolean(value);
        }

        private static AbortedTransaction abortedTransaction(String[] f) {
            if (f.length != 4) {
                throw new IllegalArgumentException("4 fields expected");
            }
            return new AbortedTransaction(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]));
        }

        PartitionManifest manifest(long version) {
            if (!FORMAT.equals(format)) {
                throw new IllegalArgumentException("unknown manifest format " + format + " (this reader knows " + FORMAT + ")");
            }
            if (topic == null || partition == null || leaderEpoch == null || logStartOffset == null || endOffset == null) {
                throw new IllegalArgumentException("a manifest needs topic, partition, leader.epoch, log.start.offset and end.offset");
            }
            return new PartitionManifest(topic, partition, version, leaderEpoch, logStartOffset, endOffset, segments, aborted);
        }
    }
}

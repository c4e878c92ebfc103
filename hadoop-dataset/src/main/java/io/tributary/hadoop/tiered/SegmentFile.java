package io.tributary.hadoop.tiered;

import java.util.Locale;

/**
 * The files of one segment copy, named exactly as the broker's local files, so that Kafka's {@code DumpLogSegments}
 * reads them: {@code <20-digit base offset>.log}, {@code .index}, {@code .timeindex}, {@code .txnindex} (only if the
 * segment indexes aborted transactions), the producer snapshot {@code <20-digit end offset>.snapshot} (only if the
 * broker still had it) and {@code leader-epoch-checkpoint} (the epochs from the log's start up to the segment's end).
 */
public enum SegmentFile {
    LOG(".log"),
    OFFSET_INDEX(".index"),
    TIME_INDEX(".timeindex"),
    TXN_INDEX(".txnindex"),
    PRODUCER_SNAPSHOT(".snapshot"),
    LEADER_EPOCH_CHECKPOINT("");

    private final String suffix;

    SegmentFile(String suffix) {
        this.suffix = suffix;
    }

    /** The file's name in the copy of {@code segment}. */
    public String fileName(ManifestSegment segment) {
        return fileName(segment.baseOffset(), segment.endOffset());
    }

    /** The file's name in the copy of a segment of offsets {@code [baseOffset, endOffset)}. */
    public String fileName(long baseOffset, long endOffset) {
        return switch (this) {
            case LEADER_EPOCH_CHECKPOINT -> "leader-epoch-checkpoint";
            case PRODUCER_SNAPSHOT -> offsetName(endOffset) + suffix;
            default -> offsetName(baseOffset) + suffix;
        };
    }

    /** An offset as Kafka's file names write it: 20 digits, zero-padded. */
    public static String offsetName(long offset) {
        return String.format(Locale.ROOT, "%020d", offset);
    }
}

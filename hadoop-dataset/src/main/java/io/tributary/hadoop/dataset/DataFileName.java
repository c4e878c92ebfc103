package io.tributary.hadoop.dataset;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name of a committed data file, {@code <topic>+<partition>+<startOffset>+<endOffset>.parquet}.
 * {@code startOffset} is the first and {@code endOffset} the last (inclusive) offset the file
 * holds. Offsets need not be dense in between (compaction and transaction markers leave gaps),
 * and with out-of-order timestamps two files of one partition in different buckets may
 * interleave.
 */
public record DataFileName(String topic, int partition, long startOffset, long endOffset) {
    public static final String EXTENSION = ".parquet";

    // Kafka topic names are [a-zA-Z0-9._-]+, so '+' cannot occur inside one.
    private static final Pattern FORMAT = Pattern.compile("([a-zA-Z0-9._-]+)\\+(\\d+)\\+(\\d+)\\+(\\d+)\\.parquet");

    public DataFileName {
        Objects.requireNonNull(topic, "topic");
        if (!Topics.isLegal(topic)) {
            throw new IllegalArgumentException("illegal topic name '" + topic + "'");
        }
        if (partition < 0 || startOffset < 0 || endOffset < startOffset) {
            throw new IllegalArgumentException("bad data file range: partition " + partition
                + ", offsets " + startOffset + ".." + endOffset);
        }
    }

    /** The name of a file for {@code topic}-{@code partition} holding offsets {@code startOffset..endOffset}. */
    public static DataFileName of(String topic, int partition, long startOffset, long endOffset) {
        return new DataFileName(topic, partition, startOffset, endOffset);
    }

    /** Parses a final data file name; anything else (temp files, markers, other data) is empty. */
    public static Optional<DataFileName> parse(String fileName) {
        Matcher m = FORMAT.matcher(fileName);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new DataFileName(m.group(1), Integer.parseInt(m.group(2)),
                Long.parseLong(m.group(3)), Long.parseLong(m.group(4))));
        } catch (IllegalArgumentException outOfRange) { // NumberFormatException included
            return Optional.empty();
        }
    }

    /** The file name, without a directory. */
    public String fileName() {
        return topic + '+' + partition + '+' + startOffset + '+' + endOffset + EXTENSION;
    }

    /** The offset right after this file: where a writer resumes if this is the newest file. */
    public long nextOffset() {
        return endOffset + 1;
    }

    @Override
    public String toString() {
        return fileName();
    }
}

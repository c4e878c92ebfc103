package io.tributary.hadoop.input;

import io.tributary.hadoop.dataset.LostRange;

/** Counters of the topic input formats; per-partition records and lost ranges are dynamic counters in the groups below. */
public enum TopicInputCounter {
    RECORDS,
    /** Key + value + header bytes read. */
    BYTES,
    /** Offsets retention deleted before they were read (skip mode). */
    LOST_OFFSETS;

    /** Records read per partition, counter names {@code partition <p>}. */
    public static final String PARTITION_RECORDS_GROUP = "Tributary records per partition";
    /** One counter per lost range, named {@code <partition>:<start>-<end>} (end exclusive), valued its offset count. */
    public static final String LOST_RANGES_GROUP = "Tributary lost ranges";

    static String partitionCounter(int partition) {
        return "partition " + partition;
    }

    static String lostRangeCounter(LostRange range) {
        return range.partition() + ":" + range.start() + "-" + range.end();
    }

    /** Reverses {@link #lostRangeCounter}. */
    public static LostRange parseLostRangeCounter(String topic, String name) {
        int colon = name.indexOf(':');
        int dash = name.indexOf('-', colon);
        if (colon < 1 || dash < 0) {
            throw new IllegalArgumentException("not a lost-range counter: '" + name + "'");
        }
        return new LostRange(topic, Integer.parseInt(name.substring(0, colon)),
            Long.parseLong(name.substring(colon + 1, dash)), Long.parseLong(name.substring(dash + 1)));
    }
}

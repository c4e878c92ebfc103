package io.tributary.hadoop.dataset;

import java.util.Locale;

/** What to do when retention deleted part of a range before it was read. */
public enum MissingPolicy {
    /** Fail the job with a message naming the lost range (the default). */
    FAIL,
    /** Load what is left and write the lost ranges to a report beside the output. */
    SKIP;

    /** Parses the value of the setting {@code key} (the loader's and the sink's keys differ), naming it when invalid. */
    public static MissingPolicy parse(String key, String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + " must be fail or skip, not '" + text + "'", e);
        }
    }
}

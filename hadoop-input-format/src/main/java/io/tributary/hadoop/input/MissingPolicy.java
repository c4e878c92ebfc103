package io.tributary.hadoop.input;

import java.util.Locale;

/** What to do when retention deleted part of a range before it was read. */
public enum MissingPolicy {
    /** Fail the job with a message naming the lost range (the default). */
    FAIL,
    /** Load what is left and write the lost ranges to a report beside the output. */
    SKIP;

    public static MissingPolicy parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(InputConfig.ON_MISSING + " must be fail or skip, not '" + text + "'", e);
        }
    }
}

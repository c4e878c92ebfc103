package io.tributary.sink;

import java.util.Locale;

/** What the sink does with a record whose value does not decode with the value schema. */
public enum BadRecordPolicy {
    /** Stop the sink with an error naming the record; its offset is never passed. */
    FAIL,
    /** Leave it out of the dataset and count it. */
    SKIP,
    /** Send it, with the reason in headers, to the dead-letter topic, then leave it out. */
    DEAD_LETTER;

    public static BadRecordPolicy parse(String text) {
        return valueOf(text.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    }
}

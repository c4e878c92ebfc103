package io.tributary.sink;

import io.tributary.hadoop.dataset.ValueDecodingException;

/** Stops the sink under {@link BadRecordPolicy#FAIL}: the message names the record. */
public final class BadRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadRecordException(ValueDecodingException cause) {
        super(cause.getMessage() + " (bad.record.policy=fail; use skip or dead-letter to move past it)", cause);
    }
}

package io.tributary.hadoop.input;

import java.io.IOException;

/** The brokers did not answer planning in time; with tiered storage, a load can still plan what is tiered. */
public final class BrokersUnreachableException extends IOException {
    private static final long serialVersionUID = 1L;

    public BrokersUnreachableException(String message, Throwable cause) {
        super(message, cause);
    }
}

package io.tributary.consumer.cli;

/** A failure the user can act on, printed as is: one line, no stack trace. */
public final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CliException(String message) {
        super(message);
    }
}

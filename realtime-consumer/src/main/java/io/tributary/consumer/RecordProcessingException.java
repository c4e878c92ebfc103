package io.tributary.consumer;

/** The handler kept failing on a record and the {@link FailurePolicy} was to stop. */
public final class RecordProcessingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RecordProcessingException(String message, Throwable cause) {
        super(message, cause);
    }
}

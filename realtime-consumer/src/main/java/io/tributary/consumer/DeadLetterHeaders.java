package io.tributary.consumer;

/**
 * Headers added to a dead-letter record, next to the original record's own headers. All values
 * are UTF-8 text; partition and offset are decimal numbers.
 */
public final class DeadLetterHeaders {
    public static final String TOPIC = "tributary.dlq.original.topic";
    public static final String PARTITION = "tributary.dlq.original.partition";
    public static final String OFFSET = "tributary.dlq.original.offset";
    public static final String EXCEPTION_CLASS = "tributary.dlq.exception.class";
    public static final String EXCEPTION_MESSAGE = "tributary.dlq.exception.message";

    private DeadLetterHeaders() {
    }
}

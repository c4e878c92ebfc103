package io.tributary.hadoop.dataset;

/** A record value that does not decode with the configured value schema; names the record. */
public final class ValueDecodingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ValueDecodingException(String topic, int partition, long offset, Throwable cause) {
        super("value of " + topic + "-" + partition + " at offset " + offset
            + " does not decode with the value schema: " + cause.getMessage(), cause);
    }
}

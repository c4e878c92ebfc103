package io.tributary.hadoop.dataset;

/**
 * A record's row that parquet-avro refuses to write (a value the Parquet schema cannot hold, such
 * as a null in a required field); names the record.
 */
public final class UnwritableRowException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UnwritableRowException(String topic, int partition, long offset, Throwable cause) {
        super("row of " + topic + "-" + partition + " at offset " + offset + " cannot be written as Parquet: " + cause.getMessage(), cause);
    }
}

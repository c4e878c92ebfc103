package io.tributary.hadoop.tiered;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * An aborted transaction as a {@code .txnindex} entry holds it (Kafka's 34 bytes: short version 0, long producer id,
 * long first offset, long last offset (the ABORT marker's), long last stable offset when it was written). A
 * read_committed reader skips the producer's records in {@code [firstOffset, lastOffset]}.
 */
public record AbortedTransaction(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
    static final int ENTRY_BYTES = 2 + 8 + 8 + 8 + 8;

    /** The entries of a whole {@code .txnindex} file. */
    public static List<AbortedTransaction> readIndex(ByteBuffer bytes) {
        List<AbortedTransaction> entries = new ArrayList<>();
        while (bytes.remaining() >= ENTRY_BYTES) {
            short version = bytes.getShort();
            if (version != 0) {
                throw new IllegalArgumentException("unknown .txnindex entry version " + version);
            }
            entries.add(new AbortedTransaction(bytes.getLong(), bytes.getLong(), bytes.getLong(), bytes.getLong()));
        }
        return entries;
    }

    /** Whether a record of {@code producerId} at {@code offset} belongs to this aborted transaction. */
    public boolean covers(long producerId, long offset) {
        return this.producerId == producerId && offset >= firstOffset && offset <= lastOffset;
    }
}

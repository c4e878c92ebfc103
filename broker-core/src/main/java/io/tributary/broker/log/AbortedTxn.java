package io.tributary.broker.log;

import java.nio.ByteBuffer;

/**
 * One aborted transaction of a partition, as an entry of the {@code .txnindex} file: 34 bytes of short version (0),
 * long producer id, long first offset, long last offset (the ABORT marker's) and long last stable offset (the LSO
 * once the abort was written), byte for byte as Kafka's AbortedTxn.
 */
public record AbortedTxn(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
    static final int SIZE = 2 + 8 + 8 + 8 + 8;
    private static final short VERSION = 0;

    void writeTo(ByteBuffer buffer) {
        buffer.putShort(VERSION).putLong(producerId).putLong(firstOffset).putLong(lastOffset).putLong(lastStableOffset);
    }

    /** Reads one entry at the buffer's position. */
    static AbortedTxn readFrom(ByteBuffer buffer) {
        short version = buffer.getShort();
        if (version != VERSION) {
            throw new IllegalStateException("unknown aborted transaction entry version " + version);
        }
        return new AbortedTxn(buffer.getLong(), buffer.getLong(), buffer.getLong(), buffer.getLong());
    }
}

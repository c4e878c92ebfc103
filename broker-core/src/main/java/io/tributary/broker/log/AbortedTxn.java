package io.tributary.broker.log;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

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

    /** The entries of a whole {@code .txnindex} file; a torn last entry (a crash while appending) is left out. */
    public static List<AbortedTxn> readAll(ByteBuffer bytes) {
        List<AbortedTxn> read = new ArrayList<>();
        while (bytes.remaining() >= SIZE) {
            read.add(readFrom(bytes));
        }
        return List.copyOf(read);
    }

    /**
     * Adds to {@code out} those of one index's {@code entries} (in marker order) that end at or after
     * {@code fetchOffset} and start before {@code upperBound}.
     *
     * @return true if no later segment can hold more of them: an entry was written once the LSO had reached
     *         {@code upperBound}, so every transaction starting below it had completed by then
     */
    public static boolean collect(List<AbortedTxn> entries, long fetchOffset, long upperBound, List<AbortedTxn> out) {
        for (AbortedTxn txn : entries) {
            if (txn.lastOffset() >= fetchOffset && txn.firstOffset() < upperBound) {
                out.add(txn);
            }
            if (txn.lastStableOffset() >= upperBound) {
                return true;
            }
        }
        return false;
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

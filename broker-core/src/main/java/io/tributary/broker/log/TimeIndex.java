package io.tributary.broker.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The time index of a segment ({@code .timeindex}), byte-compatible with Apache Kafka's.
 *
 * <p>12-byte big-endian entries: 8-byte timestamp, 4-byte offset relative to the segment's base offset. An entry
 * (T, O) says that the largest timestamp in the batches up to offset O is T; entries are added only when the
 * timestamp grows, so timestamps strictly and offsets weakly increase. The last slot is kept free for the
 * final entry written when the segment rolls. See {@link AbstractIndex} for the threading rules.
 */
final class TimeIndex extends AbstractIndex {

    static final int ENTRY_SIZE = 12;

    private volatile TimestampOffset lastEntry;

    TimeIndex(Path file, long baseOffset, int maxIndexSize) throws IOException {
        super(file, baseOffset, maxIndexSize, ENTRY_SIZE);
        // Read straight from the file: opening an inactive segment must not load its whole index.
        this.lastEntry = entries() == 0 ? noEntry() : entryIn(lastEntryFromFile(), 0);
    }

    private TimestampOffset noEntry() {
        return new TimestampOffset(-1, baseOffset);
    }

    /** Full one entry early: the last slot is reserved for the entry added on roll. */
    @Override
    boolean isFull() {
        return entries() >= maxEntries() - 1;
    }

    /**
     * Appends (timestamp, offset) if the timestamp is larger than the last entry's. {@code skipFullCheck} lets
     * the roll use the reserved last slot.
     */
    void maybeAppend(long timestamp, long offset, boolean skipFullCheck) {
        int n = entries();
        if (!skipFullCheck && isFull()) {
            throw new IllegalStateException("Time index " + file() + " is full (" + n + " entries)");
        }
        if (n >= maxEntries()) {
            return;
        }
        TimestampOffset last = lastEntry;
        if (n > 0 && offset < last.offset()) {
            throw new IllegalArgumentException("Offset " + offset + " is smaller than the last time-indexed offset "
                    + last.offset() + " in " + file());
        }
        // An empty index's last entry is (-1, base offset): batches without timestamps (NO_TIMESTAMP) add nothing.
        if (timestamp > last.timestamp()) {
            ByteBuffer buffer = writableBuffer();
            buffer.putLong(n * ENTRY_SIZE, timestamp);
            buffer.putInt(n * ENTRY_SIZE + 8, relativeOffset(offset));
            publishAppended();
            lastEntry = new TimestampOffset(timestamp, offset);
        }
    }

    /** The last entry whose timestamp is at most {@code target}, or (-1, base offset) when there is none. */
    TimestampOffset lookup(long target) {
        int slot = largestLowerBoundSlot(target, entries());
        return slot < 0 ? noEntry() : entry(slot);
    }

    /** The entry with the largest timestamp, or (-1, base offset) for an empty index. */
    TimestampOffset lastEntry() {
        return lastEntry;
    }

    TimestampOffset entry(int slot) {
        return entryIn(buffer(), slot);
    }

    private TimestampOffset entryIn(ByteBuffer entries, int slot) {
        return new TimestampOffset(keyIn(entries, slot), offsetIn(entries, slot));
    }

    @Override
    protected long keyIn(ByteBuffer entries, int slot) {
        return entries.getLong(slot * ENTRY_SIZE);
    }

    @Override
    protected long offsetIn(ByteBuffer entries, int slot) {
        return baseOffset + entries.getInt(slot * ENTRY_SIZE + 8);
    }

    @Override
    protected void truncateToEntries(int count) {
        super.truncateToEntries(count);
        lastEntry = count == 0 ? noEntry() : entry(count - 1);
    }

    @Override
    protected boolean positionInside(ByteBuffer entries, int slot, int logSizeInBytes) {
        return true;
    }

    @Override
    void sanityCheck(int logSizeInBytes) {
        TimestampOffset previous = null;
        for (int slot = 0; slot < entries(); slot++) {
            TimestampOffset e = entry(slot);
            if (e.offset() < baseOffset || previous != null
                    && (e.timestamp() <= previous.timestamp() || e.offset() < previous.offset())) {
                throw new CorruptIndexException("Time index " + file() + " entry " + slot + " " + e
                        + " breaks the order of timestamps and offsets");
            }
            previous = e;
        }
    }
}

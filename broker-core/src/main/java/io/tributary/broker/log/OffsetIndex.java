package io.tributary.broker.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The sparse offset index of a segment ({@code .index}), byte-compatible with Apache Kafka's.
 *
 * <p>8-byte big-endian entries: 4-byte offset relative to the segment's base offset, 4-byte file position of
 * the batch that ends at that offset. One entry is added per {@code index.interval.bytes} of appended batches,
 * so offsets and positions strictly increase. See {@link AbstractIndex} for the threading rules.
 */
final class OffsetIndex extends AbstractIndex {

    static final int ENTRY_SIZE = 8;

    OffsetIndex(Path file, long baseOffset, int maxIndexSize) throws IOException {
        super(file, baseOffset, maxIndexSize, ENTRY_SIZE);
    }

    /** Appends an entry; the offset must be larger than the last entry's. Only the appender calls this. */
    void append(long offset, int position) {
        int n = entries();
        if (isFull()) {
            throw new IllegalStateException("Offset index " + file() + " is full (" + n + " entries)");
        }
        if (n > 0 && offset <= lastOffset()) {
            throw new IllegalArgumentException("Offset " + offset + " is not larger than the last indexed offset "
                    + lastOffset() + " in " + file());
        }
        ByteBuffer buffer = writableBuffer();
        buffer.putInt(n * ENTRY_SIZE, relativeOffset(offset));
        buffer.putInt(n * ENTRY_SIZE + 4, position);
        publishAppended();
    }

    /** The last entry whose offset is at most {@code target}, or (base offset, 0) when there is none. */
    OffsetPosition lookup(long target) {
        int slot = largestLowerBoundSlot(target, entries());
        return slot < 0 ? new OffsetPosition(baseOffset, 0) : entry(slot);
    }

    /** The first entry whose offset is at or above {@code target}, or null when there is none. */
    OffsetPosition firstEntryAtOrAbove(long target) {
        int count = entries();
        int slot = largestLowerBoundSlot(target, count);
        if (slot >= 0 && offsetAt(slot) == target) {
            return entry(slot);
        }
        return slot + 1 < count ? entry(slot + 1) : null;
    }

    OffsetPosition entry(int slot) {
        ByteBuffer buffer = buffer();
        return new OffsetPosition(offsetIn(buffer, slot), positionIn(buffer, slot));
    }

    private static int positionIn(ByteBuffer entries, int slot) {
        return entries.getInt(slot * ENTRY_SIZE + 4);
    }

    /** The offset of the last entry, or the base offset of an empty index. */
    long lastOffset() {
        int n = entries();
        return n == 0 ? baseOffset : offsetAt(n - 1);
    }

    @Override
    protected long keyIn(ByteBuffer entries, int slot) {
        return offsetIn(entries, slot);
    }

    @Override
    protected long offsetIn(ByteBuffer entries, int slot) {
        return baseOffset + entries.getInt(slot * ENTRY_SIZE);
    }

    @Override
    protected boolean positionInside(ByteBuffer entries, int slot, int logSizeInBytes) {
        int position = positionIn(entries, slot);
        return position >= 0 && position < logSizeInBytes;
    }

    @Override
    void sanityCheck(int logSizeInBytes) {
        long previousOffset = -1;
        int previousPosition = -1;
        for (int slot = 0; slot < entries(); slot++) {
            OffsetPosition e = entry(slot);
            if (e.offset() < baseOffset || e.offset() <= previousOffset || e.position() <= previousPosition
                    || e.position() >= logSizeInBytes) {
                throw new CorruptIndexException("Offset index " + file() + " entry " + slot + " " + e
                        + " breaks the order or lies outside the log of " + logSizeInBytes + " bytes");
            }
            previousOffset = e.offset();
            previousPosition = e.position();
        }
    }
}

package io.tributary.broker.log;

import java.io.Closeable;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A memory-mapped file of fixed-size entries sorted by a key, searched by binary search.
 *
 * <p>The file is preallocated to the maximum index size while its segment is active and trimmed to the entries
 * in use when the segment rolls or closes; a file found on disk holds {@code length / entrySize} entries.
 * Index files carry no checksum: after an unclean stop they are rebuilt from the log.
 *
 * <p>Threading: writes (append, truncate, resize) are done by the single appender of the partition; lookups
 * are lock-free and read only entries below the published (volatile) entry count.
 */
abstract sealed class AbstractIndex implements Closeable permits OffsetIndex, TimeIndex {

    private final int entrySize;
    protected final long baseOffset;
    private volatile Path file;
    private volatile int maxIndexSize;
    private volatile MappedByteBuffer mmap;
    private volatile int entries;
    private volatile int maxEntries;

    AbstractIndex(Path file, long baseOffset, int maxIndexSize, int entrySize) throws IOException {
        this.entrySize = entrySize;
        this.baseOffset = baseOffset;
        this.file = file;
        this.maxIndexSize = maxIndexSize;
        boolean existed = Files.exists(file);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            if (!existed) {
                raf.setLength(roundDown(maxIndexSize));
            }
            long length = raf.length();
            this.mmap = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, length);
            this.entries = existed ? (int) (length / entrySize) : 0;
            this.maxEntries = (int) (length / entrySize);
        }
    }

    private int roundDown(int size) {
        return size / entrySize * entrySize;
    }

    final int entries() {
        return entries;
    }

    final int maxEntries() {
        return maxEntries;
    }

    boolean isFull() {
        return entries >= maxEntries;
    }

    final Path file() {
        return file;
    }

    final long baseOffset() {
        return baseOffset;
    }

    /** Bytes used by the entries. */
    final int sizeInBytes() {
        return entries * entrySize;
    }

    protected final MappedByteBuffer buffer() {
        return mmap;
    }

    /** Makes the entry just written at slot {@link #entries()} visible to readers. */
    protected final void publishAppended() {
        entries = entries + 1;
    }

    protected final int relativeOffset(long offset) {
        long relative = offset - baseOffset;
        if (relative < 0 || relative > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("Offset " + offset + " does not fit an index with base offset "
                    + baseOffset);
        }
        return (int) relative;
    }

    /**
     * The slot of the largest entry whose key is at most {@code target}, or -1 if every key is larger.
     * {@link #keyAt} gives the key of a slot.
     */
    protected final int largestLowerBoundSlot(long target, int count) {
        if (count == 0 || keyAt(0) > target) {
            return -1;
        }
        int lo = 0;
        int hi = count - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (keyAt(mid) <= target) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** The search key (offset or timestamp) of a slot. */
    protected abstract long keyAt(int slot);

    /** The offset of a slot; entries with an offset at or above a truncation point are removed. */
    protected abstract long offsetAt(int slot);

    /** Removes every entry whose offset is at or above {@code offset}. */
    final void truncateTo(long offset) {
        int count = entries;
        int keep = 0;
        while (keep < count && offsetAt(keep) < offset) {
            keep++;
        }
        truncateToEntries(keep);
    }

    /** Removes all entries and grows the file back to the maximum size, ready for a rebuild. */
    final void reset() {
        truncateToEntries(0);
        resize(maxIndexSize);
    }

    protected void truncateToEntries(int count) {
        entries = count;
    }

    /** Shrinks the file to the entries in use; done when the segment stops being active. */
    final void trimToValidSize() {
        resize(sizeInBytes());
    }

    /** Changes the file size (rounded down to whole entries) and remaps it. The old mapping is left to the GC. */
    final void resize(int newSize) {
        int rounded = roundDown(Math.max(newSize, sizeInBytes()));
        if (rounded == mmap.capacity()) {
            return;
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(rounded);
            mmap = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, rounded);
            maxEntries = rounded / entrySize;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot resize index " + file, e);
        }
    }

    /** Changes the size the index grows to when the segment becomes active again. */
    final void updateMaxIndexSize(int size) {
        this.maxIndexSize = size;
    }

    final int maxIndexSize() {
        return maxIndexSize;
    }

    final void flush() {
        mmap.force();
    }

    final void renameTo(Path target) throws IOException {
        Files.move(file, target);
        file = target;
    }

    /**
     * Checks the invariants a reader relies on: keys and offsets never decrease, offsets lie within the
     * segment's range, positions (where there are any) stay inside the log.
     *
     * @throws CorruptIndexException when an entry breaks them
     */
    abstract void sanityCheck(int logSizeInBytes);

    /**
     * The cheap check of a clean start-up: the first and last entries only. Their offsets must lie in
     * [base offset, {@code nextBaseOffset}) and be ordered, positions (where there are any) inside the log.
     *
     * @throws CorruptIndexException when they do not
     */
    final void checkEnds(long nextBaseOffset, int logSizeInBytes) {
        int n = entries();
        if (n == 0) {
            return;
        }
        for (int slot : new int[] {0, n - 1}) {
            long offset = offsetAt(slot);
            if (offset < baseOffset || offset >= nextBaseOffset || !positionInside(slot, logSizeInBytes)) {
                throw new CorruptIndexException(this + ": entry " + slot + " with offset " + offset
                        + " lies outside the segment [" + baseOffset + ", " + nextBaseOffset + ") of "
                        + logSizeInBytes + " bytes");
            }
        }
        if (n > 1 && (keyAt(0) > keyAt(n - 1) || offsetAt(0) > offsetAt(n - 1))) {
            throw new CorruptIndexException(this + ": first and last entries are out of order");
        }
    }

    /** True if the slot's file position (for indexes that have one) lies inside a log of the given size. */
    protected abstract boolean positionInside(int slot, int logSizeInBytes);

    /** Trims the file so a clean restart finds exactly the entries in use. */
    @Override
    public void close() {
        trimToValidSize();
    }

    final void deleteIfExists() throws IOException {
        Files.deleteIfExists(file);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(" + file + ", entries=" + entries + ")";
    }
}

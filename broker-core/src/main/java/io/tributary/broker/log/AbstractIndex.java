package io.tributary.broker.log;

import java.io.Closeable;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.lang.ref.SoftReference;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.kafka.common.errors.KafkaStorageException;

/**
 * A file of fixed-size entries sorted by a key, searched by binary search.
 *
 * <p>While its segment is active the file is preallocated to the maximum index size and memory-mapped for appends.
 * When the segment becomes inactive the file is trimmed to the entries in use, the mapping is dropped, and lookups
 * read a heap copy of the (now immutable) entries, loaded on the first lookup and held softly so that the GC can
 * take it back under memory pressure. Thousands of inactive segments then cost no mappings and no page-table
 * walks per lookup. A file found on disk holds {@code length / entrySize} entries; opening it reads nothing.
 * Index files carry no checksum: after an unclean stop they are rebuilt from the log.
 *
 * <p>Threading: writes (append, truncate, resize, trim) are done by the single appender of the partition; lookups
 * are lock-free and read only entries below the published (volatile) entry count.
 */
abstract sealed class AbstractIndex implements Closeable permits OffsetIndex, TimeIndex {

    private final int entrySize;
    protected final long baseOffset;
    private volatile Path file;
    private volatile int maxIndexSize;
    /** The writable mapping of an active index; null once the index is trimmed. */
    private volatile MappedByteBuffer mmap;
    /** The entries of a trimmed index, loaded on the first lookup; null (or cleared) until then. */
    private volatile SoftReference<byte[]> heapCopy;
    private volatile int entries;
    private volatile int maxEntries;

    /**
     * Opens an existing index file without reading it (it counts as trimmed), or creates and maps a new one
     * preallocated to {@code maxIndexSize}.
     */
    AbstractIndex(Path file, long baseOffset, int maxIndexSize, int entrySize) throws IOException {
        this.entrySize = entrySize;
        this.baseOffset = baseOffset;
        this.file = file;
        this.maxIndexSize = maxIndexSize;
        if (Files.exists(file)) {
            this.entries = (int) (Files.size(file) / entrySize);
            this.maxEntries = entries;
        } else {
            resize(maxIndexSize);
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

    /** The entries: the mapping of an active index, else the heap copy (loaded now if needed). */
    protected final ByteBuffer buffer() {
        MappedByteBuffer mapped = mmap;
        return mapped != null ? mapped : heapCopy();
    }

    /** The mapping appends write to; only an active (mapped) index takes appends. */
    protected final ByteBuffer writableBuffer() {
        MappedByteBuffer mapped = mmap;
        if (mapped == null) {
            throw new IllegalStateException(this + " is trimmed: resize it before appending");
        }
        return mapped;
    }

    private ByteBuffer heapCopy() {
        // The array itself is held, not a buffer over it: one object fewer to miss in the cache on a lookup.
        SoftReference<byte[]> ref = heapCopy;
        byte[] copy = ref == null ? null : ref.get();
        if (copy == null) {
            // Concurrent first lookups may both load; the copies are equal.
            copy = readFromFile(0, entries).array();
            heapCopy = new SoftReference<>(copy);
        }
        return ByteBuffer.wrap(copy);
    }

    /** Reads {@code count} entries from {@code firstSlot} on straight from the file into a heap buffer. */
    private ByteBuffer readFromFile(int firstSlot, int count) {
        ByteBuffer bytes = ByteBuffer.allocate(count * entrySize);
        Path path = file;
        try (FileChannel channel = open(path)) {
            while (bytes.hasRemaining()) {
                if (channel.read(bytes, (long) firstSlot * entrySize + bytes.position()) < 0) {
                    throw new CorruptIndexException(this + " is shorter than its " + entries + " entries");
                }
            }
        } catch (IOException e) {
            throw new KafkaStorageException("Cannot read index " + path, e);
        }
        return bytes.flip();
    }

    /** Opens the file for reading; retention may rename it ({@code .deleted}) meanwhile, so then the new name. */
    private FileChannel open(Path path) throws IOException {
        try {
            return FileChannel.open(path, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            if (file.equals(path)) {
                throw e;
            }
            return FileChannel.open(file, StandardOpenOption.READ);
        }
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
     * {@link #keyIn} gives the key of a slot.
     */
    protected final int largestLowerBoundSlot(long target, int count) {
        if (count == 0) {
            return -1;
        }
        ByteBuffer buffer = buffer();
        if (keyIn(buffer, 0) > target) {
            return -1;
        }
        int lo = 0;
        int hi = count - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (keyIn(buffer, mid) <= target) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** The search key (offset or timestamp) of a slot of {@code entries}. */
    protected abstract long keyIn(ByteBuffer entries, int slot);

    /** The offset of a slot of {@code entries}. */
    protected abstract long offsetIn(ByteBuffer entries, int slot);

    /** The offset of a slot; entries with an offset at or above a truncation point are removed. */
    protected final long offsetAt(int slot) {
        return offsetIn(buffer(), slot);
    }

    /** The last entry read straight from the file, leaving the heap copy unloaded; only for an index with entries. */
    protected final ByteBuffer lastEntryFromFile() {
        return readFromFile(entries - 1, 1);
    }

    /** True if the index is mapped or its heap copy is loaded: reading an entry costs no I/O. */
    private boolean loaded() {
        SoftReference<byte[]> ref = heapCopy;
        return mmap != null || (ref != null && ref.get() != null);
    }

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

    /**
     * Shrinks the file to the entries in use and drops the mapping; done when the segment stops being active.
     * Lookups then read the heap copy.
     */
    final void trimToValidSize() {
        if (mmap == null && maxEntries == entries) {
            return;
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(sizeInBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot trim index " + file, e);
        }
        maxEntries = entries;
        heapCopy = null; // a copy from before the index was last made active again may be stale
        mmap = null; // readers still holding it read only entries below the count; the GC unmaps it
    }

    /**
     * Changes the file size (rounded down to whole entries) and maps it for appends; makes a trimmed index active
     * again. The old mapping is left to the GC.
     */
    final void resize(int newSize) {
        int rounded = roundDown(Math.max(newSize, sizeInBytes()));
        MappedByteBuffer mapped = mmap;
        if (mapped != null && rounded == mapped.capacity()) {
            return;
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(rounded);
            mmap = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, rounded);
            maxEntries = rounded / entrySize;
            heapCopy = null;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot resize index " + file, e);
        }
    }

    /** Changes the size the index grows to when the segment becomes active again. */
    final void updateMaxIndexSize(int size) {
        this.maxIndexSize = size;
    }

    /** fsyncs the entries: through the mapping while active, else the file (trimmed through the mapping). */
    final void flush() throws IOException {
        MappedByteBuffer mapped = mmap;
        if (mapped != null) {
            mapped.force();
            return;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }

    final void renameTo(Path target) throws IOException {
        Files.move(file, target);
        file = target;
    }

    /** The folder holding the file was renamed to {@code dir}. */
    final void updateParentDir(Path dir) {
        file = dir.resolve(file.getFileName());
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
        // An unloaded index is not read whole for this: two entries straight from the file.
        boolean loaded = loaded();
        ByteBuffer ends = loaded ? buffer() : ByteBuffer.allocate(2 * entrySize)
                .put(readFromFile(0, 1)).put(readFromFile(n - 1, 1)).flip();
        int lastSlot = loaded ? n - 1 : 1;
        for (int slot : new int[] {0, lastSlot}) {
            long offset = offsetIn(ends, slot);
            if (offset < baseOffset || offset >= nextBaseOffset || !positionInside(ends, slot, logSizeInBytes)) {
                throw new CorruptIndexException(this + ": entry " + (slot == 0 ? 0 : n - 1) + " with offset "
                        + offset + " lies outside the segment [" + baseOffset + ", " + nextBaseOffset + ") of "
                        + logSizeInBytes + " bytes");
            }
        }
        if (n > 1 && (keyIn(ends, 0) > keyIn(ends, lastSlot) || offsetIn(ends, 0) > offsetIn(ends, lastSlot))) {
            throw new CorruptIndexException(this + ": first and last entries are out of order");
        }
    }

    /** True if the slot's file position (for indexes that have one) lies inside a log of the given size. */
    protected abstract boolean positionInside(ByteBuffer entries, int slot, int logSizeInBytes);

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

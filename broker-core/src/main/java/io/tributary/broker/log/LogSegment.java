package io.tributary.broker.log;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.FileRecords.LogOffsetPosition;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.Records;

/**
 * One segment of a partition log: the {@code .log} file of record batches exactly as on the wire, plus its
 * sparse {@link OffsetIndex} and {@link TimeIndex}.
 *
 * <p>Once the segment stops taking appends it is {@link #seal sealed}, and reads go through a read-only mapping of
 * the file made on the first read (see {@link SegmentMappings}) instead of positioned reads: {@link #read} then
 * returns {@link MemoryRecords} over the mapping, else a {@link FileRecords} slice. A mapping is dropped before
 * the file shrinks (truncation, deletion); a reader that still holds a slice of a part cut off meanwhile gets an
 * I/O error ({@code EFAULT} from a socket write, an {@link InternalError} in Java code), never other bytes.
 *
 * <p>Threading: one appender at a time (the partition's append lock); reads ({@link #read}, {@link
 * #translateOffset}, {@link #findOffsetByTimestamp}) are lock-free and see the bytes whose append completed.
 */
final class LogSegment implements Closeable {

    /** Batch header bytes up to and including the last offset delta. */
    private static final int SCANNED_HEADER_BYTES = DefaultRecordBatch.LAST_OFFSET_DELTA_OFFSET + 4;

    private final long baseOffset;
    private final FileRecords records;
    private final OffsetIndex offsetIndex;
    /**
     * The read-only mapping of a sealed segment, made on its first read; null until then. Written under this.
     * Declared next to {@link #offsetIndex}, the other field a read needs, so that both tend to share a cache line.
     */
    private volatile ByteBuffer mapped;
    private final TimeIndex timeIndex;
    private final TransactionIndex txnIndex;
    /** Marks {@link #firstBatchTimestamp} as not read yet. */
    private static final long NOT_LOADED = Long.MIN_VALUE;

    private final long createdMs;
    /** The max timestamp of the first batch, read once from the file; the appender's, so not volatile. */
    private long firstBatchTimestamp = NOT_LOADED;
    private volatile int indexIntervalBytes;
    private int bytesSinceLastIndexEntry;
    private volatile TimestampOffset maxTimestampSoFar = TimestampOffset.UNKNOWN;
    /** Null while the segment takes appends; once sealed, where reads may map it from. Guarded by this. */
    private volatile SegmentMappings mappings;

    private LogSegment(long baseOffset, FileRecords records, OffsetIndex offsetIndex, TimeIndex timeIndex,
                       TransactionIndex txnIndex, int indexIntervalBytes, long createdMs) {
        this.baseOffset = baseOffset;
        this.records = records;
        this.offsetIndex = offsetIndex;
        this.timeIndex = timeIndex;
        this.txnIndex = txnIndex;
        this.indexIntervalBytes = indexIntervalBytes;
        this.createdMs = createdMs;
    }

    /** Creates the files of a new, empty segment. */
    static LogSegment create(Path dir, long baseOffset, LogConfig config, long nowMs) throws IOException {
        Files.deleteIfExists(SegmentFiles.offsetIndex(dir, baseOffset));
        Files.deleteIfExists(SegmentFiles.timeIndex(dir, baseOffset));
        Files.deleteIfExists(SegmentFiles.txnIndex(dir, baseOffset));
        FileRecords records = FileRecords.open(SegmentFiles.log(dir, baseOffset).toFile(), false, 0, false);
        return open(dir, baseOffset, records, config, nowMs);
    }

    /**
     * Opens the files of an existing segment. Missing index files are created empty; the caller rebuilds them
     * with {@link #recover()}. Its creation time (which matters only to a segment without record timestamps) is
     * taken from the log file's last modification, so that segment.ms keeps counting across restarts.
     */
    static LogSegment open(Path dir, long baseOffset, LogConfig config) throws IOException {
        Path logFile = SegmentFiles.log(dir, baseOffset);
        FileRecords records = FileRecords.open(logFile.toFile());
        return open(dir, baseOffset, records, config, Files.getLastModifiedTime(logFile).toMillis());
    }

    private static LogSegment open(Path dir, long baseOffset, FileRecords records, LogConfig config, long nowMs)
            throws IOException {
        OffsetIndex offsetIndex = new OffsetIndex(SegmentFiles.offsetIndex(dir, baseOffset), baseOffset,
                config.segmentIndexBytes());
        TimeIndex timeIndex = new TimeIndex(SegmentFiles.timeIndex(dir, baseOffset), baseOffset,
                config.segmentIndexBytes());
        LogSegment segment = new LogSegment(baseOffset, records, offsetIndex, timeIndex,
                new TransactionIndex(SegmentFiles.txnIndex(dir, baseOffset)), config.indexIntervalBytes(), nowMs);
        segment.maxTimestampSoFar = timeIndex.entries() == 0 ? TimestampOffset.UNKNOWN : timeIndex.lastEntry();
        return segment;
    }

    long baseOffset() {
        return baseOffset;
    }

    int size() {
        ByteBuffer view = mapped;
        return view != null ? view.capacity() : records.sizeInBytes();
    }

    /** Marks the segment as taking no more appends, so that reads may map it. Only the appender calls this. */
    synchronized void seal(SegmentMappings mappings) {
        this.mappings = mappings;
    }

    /** Before the file changes: reads go through the file again. The old mapping is left to the GC. */
    private synchronized void unseal() {
        mappings = null;
        mapped = null;
    }

    /**
     * The mapping reads use, made now if the segment is sealed but not mapped yet; null to read the file (active,
     * or the process is at its cap of mappings). The fast path is one volatile read: no object between the
     * segment and its mapping, as every cold object costs a cache miss on a read at a random offset.
     */
    private ByteBuffer mapping() {
        ByteBuffer current = mapped;
        if (current != null || mappings == null) {
            return current;
        }
        synchronized (this) {
            if (mapped == null && mappings != null) {
                mapped = mappings.map(records.channel(), records.sizeInBytes(), records.file().toPath());
            }
            return mapped;
        }
    }

    /**
     * How long this segment has been taking appends, for segment.ms. As in Apache Kafka it is measured from
     * persistent data, so it survives restarts: from the max timestamp of the segment's first batch to
     * {@code incomingMaxTimestamp}, the max timestamp of the batches about to be appended (with CreateTime, old
     * data replayed into a new topic then does not roll a segment per batch). A segment without record
     * timestamps counts from its creation by the clock, or from its file's last modification if it was loaded.
     * Only the appender calls this.
     */
    long timeWaitedForRoll(long nowMs, long incomingMaxTimestamp) {
        long first = firstBatchTimestamp();
        return first >= 0 ? incomingMaxTimestamp - first : nowMs - createdMs;
    }

    /** The max timestamp of the first batch, or NO_TIMESTAMP for an empty segment; one header read per segment. */
    long firstBatchTimestamp() {
        if (firstBatchTimestamp == NOT_LOADED) {
            if (records.sizeInBytes() == 0) {
                return RecordBatch.NO_TIMESTAMP;
            }
            Iterator<FileChannelRecordBatch> batches = records.batches().iterator();
            firstBatchTimestamp = batches.hasNext() ? batches.next().maxTimestamp() : RecordBatch.NO_TIMESTAMP;
        }
        return firstBatchTimestamp;
    }

    OffsetIndex offsetIndex() {
        return offsetIndex;
    }

    TimeIndex timeIndex() {
        return timeIndex;
    }

    FileRecords records() {
        return records;
    }

    void updateIndexInterval(int bytes) {
        this.indexIntervalBytes = bytes;
    }

    /** True if an offset can be stored relative to the base offset in the 4-byte index fields. */
    boolean canHoldOffset(long offset) {
        long relative = offset - baseOffset;
        return relative >= 0 && relative <= Integer.MAX_VALUE;
    }

    boolean indexesFull() {
        return offsetIndex.isFull() || timeIndex.isFull();
    }

    /**
     * Appends batches whose offsets are already assigned, adding index entries every index interval.
     * Only the partition's appender calls this.
     */
    void append(long largestOffset, MemoryRecords batches) throws IOException {
        if (batches.sizeInBytes() == 0) {
            return;
        }
        if (!canHoldOffset(largestOffset)) {
            throw new IllegalArgumentException("Offset " + largestOffset + " overflows segment " + baseOffset);
        }
        int position = records.sizeInBytes();
        try {
            records.append(batches);
        } catch (IOException e) {
            cutPartialWrite(position, e);
            throw e;
        }
        for (RecordBatch batch : batches.batches()) {
            indexBatch(batch.lastOffset(), batch.maxTimestamp(), position, batch.sizeInBytes());
            position += batch.sizeInBytes();
        }
    }

    /**
     * A write that failed part-way (a full disk) has put bytes past the segment's end and moved the file's position
     * with them: without this cut, the next append would land after the torn bytes, which reads and recovery take for
     * the batch at that position. Cut them off; should that fail, at least put the position back, so that the next
     * append overwrites them (recovery cuts what is left past the end).
     */
    private void cutPartialWrite(int size, IOException cause) {
        try {
            records.truncateTo(size);
        } catch (IOException | RuntimeException truncateFailed) {
            cause.addSuppressed(truncateFailed);
            try {
                records.channel().position(size);
            } catch (IOException positionFailed) {
                cause.addSuppressed(positionFailed);
            }
        }
    }

    private void indexBatch(long lastOffset, long maxTimestamp, int position, int size) {
        if (maxTimestamp > maxTimestampSoFar.timestamp()) {
            maxTimestampSoFar = new TimestampOffset(maxTimestamp, lastOffset);
        }
        // A full index only makes the next lookup scan further; the next append rolls the segment.
        if (bytesSinceLastIndexEntry > indexIntervalBytes && !indexesFull()) {
            offsetIndex.append(lastOffset, position);
            TimestampOffset max = maxTimestampSoFar;
            timeIndex.maybeAppend(max.timestamp(), max.offset(), false);
            bytesSinceLastIndexEntry = 0;
        }
        bytesSinceLastIndexEntry += size;
    }

    /**
     * The position and size of the batch that holds {@code offset} (or the first batch after it); null if the
     * segment has no such batch. Usually one header read: the first index entry at or above the offset names a
     * batch that ends at or after it, and holds it if it starts at or before it. Otherwise it scans the batch
     * headers from the index entry below the offset, at most one index interval.
     */
    LogOffsetPosition translateOffset(long offset) {
        return translateOffset(offset, mapping());
    }

    private LogOffsetPosition translateOffset(long offset, ByteBuffer view) {
        int end = view != null ? view.capacity() : records.sizeInBytes();
        ByteBuffer header = ByteBuffer.allocate(SCANNED_HEADER_BYTES);
        try {
            OffsetPosition ceiling = offsetIndex.firstEntryAtOrAbove(offset);
            if (ceiling != null && ceiling.position() + DefaultRecordBatch.RECORD_BATCH_OVERHEAD <= end) {
                readHeader(ceiling.position(), header, view);
                if (header.getLong(Records.OFFSET_OFFSET) <= offset) {
                    return positionOf(header, ceiling.position());
                }
            }
            int position = offsetIndex.lookup(offset).position();
            while (position + DefaultRecordBatch.RECORD_BATCH_OVERHEAD <= end) {
                readHeader(position, header, view);
                LogOffsetPosition batch = positionOf(header, position);
                if (batch.offset + header.getInt(DefaultRecordBatch.LAST_OFFSET_DELTA_OFFSET) >= offset) {
                    return batch;
                }
                position += batch.size;
            }
        } catch (IOException e) {
            throw new KafkaStorageException("Cannot read " + records.file(), e);
        }
        return null;
    }

    /** Reads the batch header at {@code position} from the mapping {@code view}, or from the file if that is null. */
    private void readHeader(int position, ByteBuffer header, ByteBuffer view) throws IOException {
        header.clear();
        if (view != null) {
            header.put(0, view, position, SCANNED_HEADER_BYTES);
        } else {
            records.readInto(header, position);
        }
    }

    /** The base offset, position and size of the batch whose header is in {@code header}. */
    private static LogOffsetPosition positionOf(ByteBuffer header, int position) {
        return new LogOffsetPosition(header.getLong(Records.OFFSET_OFFSET), position,
                Records.LOG_OVERHEAD + header.getInt(Records.SIZE_OFFSET));
    }

    /**
     * A slice of this segment starting at the batch that holds {@code startOffset}.
     *
     * @param maxSize      most bytes to return; the slice may end inside a batch, as Kafka's fetches do
     * @param maxPosition  bytes at or beyond this file position are not returned
     * @param minOneBatch  return the whole first batch even if it is larger than maxSize
     * @return the slice (of the mapping once sealed, else of the file), or empty if this segment holds no batch at
     *         or after startOffset
     */
    Optional<Records> read(long startOffset, int maxSize, int maxPosition, boolean minOneBatch) {
        ByteBuffer view = mapping();
        LogOffsetPosition start = translateOffset(startOffset, view);
        if (start == null) {
            return Optional.empty();
        }
        int adjustedMaxSize = minOneBatch ? Math.max(maxSize, start.size) : maxSize;
        int fetchSize = Math.max(0, Math.min(maxPosition - start.position, adjustedMaxSize));
        return Optional.of(view != null
                ? MemoryRecords.readableRecords(view.slice(start.position, fetchSize))
                : records.slice(start.position, fetchSize));
    }

    /** The first record at or after {@code startingOffset} with a timestamp at or above {@code timestamp}. */
    Optional<FileRecords.TimestampAndOffset> findOffsetByTimestamp(long timestamp, long startingOffset) {
        TimestampOffset floor = timeIndex.lookup(timestamp);
        int position = offsetIndex.lookup(Math.max(floor.offset(), startingOffset)).position();
        return Optional.ofNullable(records.searchForTimestamp(timestamp, position, startingOffset, Integer.MAX_VALUE));
    }

    /** The largest record timestamp and the last offset of its batch, or UNKNOWN if no record has one. */
    TimestampOffset maxTimestampSoFar() {
        return maxTimestampSoFar;
    }

    /** The newest timestamp in the segment for retention: the largest record timestamp, else the file's mtime. */
    long largestTimestamp() throws IOException {
        long max = maxTimestampSoFar.timestamp();
        return max >= 0 ? max : Files.getLastModifiedTime(records.file().toPath()).toMillis();
    }

    /**
     * Re-reads the tail after the last index entry to find the next offset and the newest timestamp.
     * Cheap: it scans at most one index interval, so a clean start-up never reads whole segments.
     */
    long loadTail() {
        int lastIndexed = offsetIndex.entries() == 0 ? 0
                : offsetIndex.entry(offsetIndex.entries() - 1).position();
        long nextOffset = offsetIndex.entries() == 0 ? baseOffset : offsetIndex.lastOffset() + 1;
        for (FileChannelRecordBatch batch : records.batchesFrom(lastIndexed)) {
            nextOffset = batch.nextOffset();
            if (batch.maxTimestamp() > maxTimestampSoFar.timestamp()) {
                maxTimestampSoFar = new TimestampOffset(batch.maxTimestamp(), batch.lastOffset());
            }
        }
        return nextOffset;
    }

    /**
     * Re-validates every batch (magic, size, CRC-32C, increasing offsets within this segment's range), rebuilds
     * both indexes from the valid ones and truncates the file at the first invalid byte.
     *
     * @return the outcome: the next offset after the valid batches and the bytes cut off
     */
    RecoveryResult recover() throws IOException {
        unseal();
        firstBatchTimestamp = NOT_LOADED;
        offsetIndex.reset();
        timeIndex.reset();
        maxTimestampSoFar = TimestampOffset.UNKNOWN;
        bytesSinceLastIndexEntry = 0;
        int validBytes = 0;
        long nextOffset = baseOffset;
        String reason = null;
        try {
            for (FileChannelRecordBatch batch : records.batches()) {
                RecordsValidator.checkStoredBatch(batch, nextOffset, this::canHoldOffset);
                indexBatch(batch.lastOffset(), batch.maxTimestamp(), validBytes, batch.sizeInBytes());
                validBytes += batch.sizeInBytes();
                nextOffset = batch.nextOffset();
            }
        } catch (CorruptRecordException | InvalidRecordException e) {
            reason = e.getMessage();
        }
        txnIndex.truncateTo(nextOffset);
        int truncated = records.sizeInBytes() - validBytes;
        if (truncated > 0) {
            records.truncateTo(validBytes);
            if (reason == null) {
                reason = "incomplete batch at the end of the file";
            }
        }
        return new RecoveryResult(nextOffset, validBytes, truncated, reason);
    }

    /** What {@link #recover()} found. {@code reason} is null when nothing was truncated. */
    record RecoveryResult(long nextOffset, int validBytes, int truncatedBytes, String reason) {
    }

    /**
     * Removes every batch from the one holding {@code offset} onwards, with their index entries. Call
     * {@link #loadTail()} afterwards to learn the new next offset.
     *
     * @return the number of bytes removed
     */
    int truncateTo(long offset) throws IOException {
        unseal();
        LogOffsetPosition mapping = translateOffset(offset);
        firstBatchTimestamp = NOT_LOADED;
        offsetIndex.truncateTo(offset);
        timeIndex.truncateTo(offset);
        txnIndex.truncateTo(offset);
        bytesSinceLastIndexEntry = 0;
        maxTimestampSoFar = timeIndex.entries() == 0 ? TimestampOffset.UNKNOWN : timeIndex.lastEntry();
        if (mapping == null) {
            return 0;
        }
        return records.truncateTo(mapping.position);
    }

    /** Grows (active segment) or sets the preallocated size of both indexes. */
    void resizeIndexes(int maxIndexSize) {
        offsetIndex.updateMaxIndexSize(maxIndexSize);
        timeIndex.updateMaxIndexSize(maxIndexSize);
        offsetIndex.resize(maxIndexSize);
        timeIndex.resize(maxIndexSize);
    }

    /** Called when a newer segment takes over appends: writes the final time index entry and trims both indexes. */
    void onBecomeInactive() {
        appendFinalTimeIndexEntry();
        offsetIndex.trimToValidSize();
        timeIndex.trimToValidSize();
    }

    private void appendFinalTimeIndexEntry() {
        TimestampOffset max = maxTimestampSoFar;
        if (max.timestamp() >= 0) {
            timeIndex.maybeAppend(max.timestamp(), max.offset(), true);
        }
    }

    /** fsyncs the log file and both indexes. */
    void flush() throws IOException {
        records.flush();
        offsetIndex.flush();
        timeIndex.flush();
        txnIndex.flush();
    }

    /** Records a transaction whose ABORT marker this segment holds. */
    void appendAbortedTxn(AbortedTxn txn) {
        txnIndex.append(txn);
    }

    /** The aborted transactions whose markers this segment holds, oldest first. */
    List<AbortedTxn> abortedTxns() {
        return txnIndex.entries();
    }

    /** The offset of the newest ABORT marker this segment's index has, or -1. */
    long lastAbortMarkerOffset() {
        return txnIndex.lastMarkerOffset();
    }

    /** See {@link TransactionIndex#collect}. */
    boolean collectAbortedTxns(long fetchOffset, long upperBound, List<AbortedTxn> out) {
        return txnIndex.collect(fetchOffset, upperBound, out);
    }

    /**
     * Renames the files with the {@code .deleted} suffix; reads in flight keep working. The log file goes last: as
     * long as it is there, so are the indexes it owns (a crash recovery that finishes a clean relies on it).
     */
    void markDeleted() throws IOException {
        offsetIndex.renameTo(offsetIndex.file().resolveSibling(offsetIndex.file().getFileName()
                + SegmentFiles.DELETED_SUFFIX));
        timeIndex.renameTo(timeIndex.file().resolveSibling(timeIndex.file().getFileName()
                + SegmentFiles.DELETED_SUFFIX));
        txnIndex.renameTo(txnIndex.file().resolveSibling(txnIndex.file().getFileName() + SegmentFiles.DELETED_SUFFIX));
        Path logFile = records.file().toPath();
        records.renameTo(logFile.resolveSibling(logFile.getFileName() + SegmentFiles.DELETED_SUFFIX).toFile());
    }

    /** The partition folder was renamed to {@code dir} (a move between log dirs): the files are there now. */
    void updateParentDir(Path dir) {
        records.updateParentDir(dir.toFile());
        offsetIndex.updateParentDir(dir);
        timeIndex.updateParentDir(dir);
        txnIndex.updateParentDir(dir);
    }

    /** Closes and deletes the files, wherever they were renamed to. */
    void deleteFiles() throws IOException {
        ByteBuffer view = mapped;
        unseal();
        if (view != null) {
            // Blocks of a mapped file stay allocated until the GC collects the mapping; emptying the file frees
            // them now (readers in flight were given file.delete.delay.ms to finish).
            records.truncateTo(0);
        }
        records.close();
        Files.deleteIfExists(records.file().toPath());
        offsetIndex.deleteIfExists();
        timeIndex.deleteIfExists();
        txnIndex.deleteIfExists();
    }

    /** Writes the final time index entry, trims the indexes and closes the file. */
    @Override
    public void close() throws IOException {
        unseal();
        appendFinalTimeIndexEntry();
        offsetIndex.close();
        timeIndex.close();
        txnIndex.close();
        records.close();
    }

    @Override
    public String toString() {
        return "LogSegment(baseOffset=" + baseOffset + ", size=" + size() + ")";
    }
}

package io.tributary.broker.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.FileRecords.LogOffsetPosition;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Records;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log of one partition: a folder {@code <topic>-<partition>} of segments ordered by base offset; the last one
 * takes appends.
 *
 * <p>Threading: appends, rolls, truncation and retention hold one lock; reads are lock-free: they look up the
 * segment in a concurrent map and slice files up to the published (volatile) log end offset. Flushes run under
 * their own lock so that an fsync never blocks appends. Deleted segments keep their files (renamed
 * {@code .deleted}) for {@code file.delete.delay.ms} so that reads in flight finish.
 *
 * <p>I/O failures surface as {@link KafkaStorageException}; invalid input as the exceptions of
 * {@link RecordsValidator}, with nothing appended.
 */
public final class PartitionLog {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionLog.class);

    private final TopicPartition topicPartition;
    private final Path dir;
    private final Time time;
    private final Scheduler scheduler;
    private final ConcurrentSkipListMap<Long, LogSegment> segments;
    /** What reads look segments up in: a copy of {@link #segments} published after each change of it. */
    private volatile SegmentTable readTable;
    private final ReentrantLock appendLock = new ReentrantLock();
    private final Object flushLock = new Object();
    private volatile LogConfig config;
    private volatile long logStartOffset;
    private volatile long logEndOffset;
    private volatile long recoveryPoint;
    private volatile long lastFlushMs;
    private volatile boolean closed;
    /** Told (on the scheduler) the base offset of each new segment; forgotten when the log is truncated. */
    private volatile LongConsumer rollListener;

    private PartitionLog(TopicPartition topicPartition, Path dir, LogConfig config, Time time, Scheduler scheduler,
                         LogLoader.LoadedLog loaded, long checkpointedLogStartOffset) {
        this.topicPartition = topicPartition;
        this.dir = dir;
        this.config = config;
        this.time = time;
        this.scheduler = scheduler;
        this.segments = new ConcurrentSkipListMap<>(loaded.segments());
        publishSegments();
        this.logEndOffset = loaded.logEndOffset();
        // A DeleteRecords start inside the first segment survives restarts through its checkpoint.
        this.logStartOffset = Math.max(segments.firstKey(), Math.min(checkpointedLogStartOffset, logEndOffset));
        this.recoveryPoint = loaded.recoveryPoint();
        this.lastFlushMs = time.milliseconds();
    }

    /**
     * Opens (creating if needed) the partition folder {@code dir} and loads its segments; see {@link LogLoader}
     * for what a clean and an unclean start do. The log starts at {@code logStartOffset} (checkpointed by the
     * {@link LogManager}) or at its first segment, whichever is later.
     */
    static PartitionLog open(TopicPartition tp, Path dir, LogConfig config, Time time, Scheduler scheduler,
                             long recoveryPoint, long logStartOffset, boolean cleanShutdown) throws IOException {
        Files.createDirectories(dir);
        LogLoader.LoadedLog loaded = new LogLoader(tp, dir, config, time.milliseconds())
                .load(recoveryPoint, cleanShutdown);
        return new PartitionLog(tp, dir, config, time, scheduler, loaded, logStartOffset);
    }

    public TopicPartition topicPartition() {
        return topicPartition;
    }

    public Path dir() {
        return dir;
    }

    public LogConfig config() {
        return config;
    }

    /** The first offset that can be read. */
    public long logStartOffset() {
        return logStartOffset;
    }

    /** The offset the next appended record gets. */
    public long logEndOffset() {
        return logEndOffset;
    }

    /** Every offset below this one is fsynced; recovery after a crash starts here. */
    long recoveryPoint() {
        return recoveryPoint;
    }

    /**
     * Validates the batches (magic v2, sizes, CRC-32C, record counts, max.message.bytes, the topic's
     * {@link RecordRules}), assigns offsets from the log end offset, stamps the leader epoch (and the broker time
     * if the topic uses LogAppendTime), then appends. The batches in {@code records} are modified in place. An empty {@code records} appends nothing.
     */
    public LogAppendInfo appendAsLeader(MemoryRecords records, int leaderEpoch) {
        LogConfig cfg = config;
        RecordsValidator.ValidatedRecords validated = RecordsValidator.validate(records, cfg.maxMessageBytes(), true,
                RecordRules.forLeader(topicPartition.toString(), cfg, time.milliseconds()));
        if (validated.batchCount() == 0) {
            return LogAppendInfo.NOTHING_APPENDED;
        }
        Optional<Compression> stored = cfg.storedCompression();
        if (stored.isPresent()) {
            records = BatchRecompressor.recompress(records, stored.get(), cfg.maxMessageBytes());
        }
        appendLock.lock();
        try {
            ensureOpen();
            long now = time.milliseconds();
            boolean logAppendTime = cfg.timestampType() == TimestampType.LOG_APPEND_TIME;
            long firstOffset = logEndOffset;
            long nextOffset = firstOffset;
            long maxTimestamp = -1;
            for (MutableRecordBatch batch : records.batches()) {
                nextOffset += batch.countOrNull();
                batch.setLastOffset(nextOffset - 1);
                batch.setPartitionLeaderEpoch(leaderEpoch);
                if (logAppendTime) {
                    batch.setMaxTimestamp(TimestampType.LOG_APPEND_TIME, now);
                }
                maxTimestamp = Math.max(maxTimestamp, batch.maxTimestamp());
            }
            appendAssigned(records, firstOffset, nextOffset - 1, maxTimestamp);
            return new LogAppendInfo(firstOffset, nextOffset - 1, maxTimestamp, logAppendTime ? now : -1,
                    validated.recordCount(), validated.sizeInBytes());
        } finally {
            appendLock.unlock();
        }
    }

    /**
     * Appends batches whose offsets the leader assigned. They are validated like a leader append, must have
     * increasing offsets and start at or after the log end offset (gaps are allowed).
     */
    public LogAppendInfo appendAsFollower(MemoryRecords records) {
        RecordsValidator.ValidatedRecords validated =
                RecordsValidator.validate(records, config.maxMessageBytes(), false, RecordRules.ANY);
        if (validated.batchCount() == 0) {
            return LogAppendInfo.NOTHING_APPENDED;
        }
        appendLock.lock();
        try {
            ensureOpen();
            if (validated.firstOffset() < logEndOffset) {
                throw new InvalidRecordException("Follower append at offset " + validated.firstOffset()
                        + " is below the log end offset " + logEndOffset + " of " + topicPartition);
            }
            long maxTimestamp = -1;
            for (MutableRecordBatch batch : records.batches()) {
                maxTimestamp = Math.max(maxTimestamp, batch.maxTimestamp());
            }
            if (validated.lastOffset() - validated.firstOffset() > Integer.MAX_VALUE) {
                // The batches cannot share one segment: append them one by one so each can roll.
                for (MutableRecordBatch batch : records.batches()) {
                    appendAssigned(MemoryRecords.readableRecords(copyOf(batch)), batch.baseOffset(),
                            batch.lastOffset(), batch.maxTimestamp());
                }
            } else {
                appendAssigned(records, validated.firstOffset(), validated.lastOffset(), maxTimestamp);
            }
            return new LogAppendInfo(validated.firstOffset(), validated.lastOffset(), maxTimestamp, -1,
                    validated.recordCount(), validated.sizeInBytes());
        } finally {
            appendLock.unlock();
        }
    }

    private static ByteBuffer copyOf(MutableRecordBatch batch) {
        ByteBuffer buffer = ByteBuffer.allocate(batch.sizeInBytes());
        batch.writeTo(buffer);
        return buffer.flip();
    }

    /**
     * Appends batches with final offsets, rolling first if needed. {@code maxTimestamp} is the largest batch
     * timestamp of {@code records}, which the caller has computed already. Caller holds the append lock.
     */
    private void appendAssigned(MemoryRecords records, long firstOffset, long lastOffset, long maxTimestamp) {
        try {
            LogSegment segment = maybeRoll(records.sizeInBytes(), firstOffset, lastOffset, maxTimestamp);
            segment.append(lastOffset, records);
        } catch (IOException e) {
            throw new KafkaStorageException("Append to " + topicPartition + " in " + dir + " failed", e);
        }
        logEndOffset = lastOffset + 1;
        if (logEndOffset - recoveryPoint >= config.flushMessages()) {
            flush();
        }
    }

    /**
     * Rolls when the active segment is not empty and would exceed segment.bytes, has waited segment.ms less its
     * jitter (see
     * {@link LogSegment#timeWaitedForRoll}) or has a full index, and whenever {@code lastOffset} does not fit its
     * 4-byte relative offsets.
     */
    private LogSegment maybeRoll(int appendBytes, long firstOffset, long lastOffset, long maxTimestamp)
            throws IOException {
        LogConfig cfg = config;
        LogSegment active = segments.lastEntry().getValue();
        boolean full = active.size() > 0 && (active.size() > cfg.segmentBytes() - appendBytes
                || active.timeWaitedForRoll(time.milliseconds(), maxTimestamp) > cfg.segmentMs() - rollJitterMs(active, cfg)
                || active.indexesFull());
        return full || !active.canHoldOffset(lastOffset) ? roll(firstOffset) : active;
    }

    /**
     * How much earlier than segment.ms this segment rolls: a share of segment.jitter.ms fixed per segment (from
     * its partition and base offset), so that partitions created together do not all roll at the same moment.
     */
    private long rollJitterMs(LogSegment segment, LogConfig cfg) {
        long bound = Math.min(cfg.segmentJitterMs(), cfg.segmentMs());
        long mixed = (31L * topicPartition.hashCode() + segment.baseOffset()) * 0x9E3779B97F4A7C15L;
        return bound == 0 ? 0 : Math.floorMod(mixed, bound);
    }

    private LogSegment roll(long newBaseOffset) throws IOException {
        LogSegment old = segments.lastEntry().getValue();
        LogSegment segment = LogSegment.create(dir, newBaseOffset, config, time.milliseconds());
        if (old.size() == 0) {
            // An empty segment cannot hold the offsets (relative-offset overflow on a follower): replace it.
            segments.remove(old.baseOffset());
            old.deleteFiles();
        } else {
            retire(old);
        }
        segments.put(newBaseOffset, segment);
        publishSegments();
        logStartOffset = Math.max(logStartOffset, segments.firstKey());
        LOG.debug("Partition {}: rolled segment {}", topicPartition, newBaseOffset);
        scheduler.schedule("flush-" + topicPartition, () -> flushUpTo(newBaseOffset), 0, 0);
        LongConsumer listener = rollListener;
        if (listener != null) {
            scheduler.schedule("roll-listener-" + topicPartition, () -> {
                if (rollListener == listener) {
                    listener.accept(newBaseOffset);
                }
            }, 0, 0);
        }
        return segment;
    }

    /**
     * Sets what to tell, on the background scheduler and outside the append lock, the base offset of each segment
     * rolled from now on (the producer state snapshots itself there). Replaces the previous listener; a truncation
     * removes it, since whatever the listener keeps about the log is stale after one.
     */
    public void onRoll(LongConsumer listener) {
        rollListener = listener;
    }

    /**
     * Reads from the batch holding {@code startOffset}.
     *
     * @param maxBytes           most bytes to return; the slice may end inside a batch
     * @param maxOffsetExclusive no batch holding this offset or later is returned (the high watermark for
     *                           consumers, the log end offset for followers)
     * @param minOneBatch        return at least the first batch even if it is larger than maxBytes
     * @throws OffsetOutOfRangeException if startOffset is below the log start or above the log end offset; the
     *                                   message names the first available offset
     */
    public FetchDataInfo read(long startOffset, int maxBytes, long maxOffsetExclusive, boolean minOneBatch) {
        long start = logStartOffset;
        long end = logEndOffset;
        checkInRange(startOffset, start, end);
        long limit = Math.min(maxOffsetExclusive, end);
        if (startOffset < limit) {
            SegmentTable table = readTable;
            for (int slot = table.floorSlot(startOffset); slot >= 0 && slot < table.size(); slot++) {
                LogSegment segment = table.segment(slot);
                int maxPosition = maxPosition(segment, table.nextBaseOffset(slot), limit);
                Optional<Records> slice = segment.read(startOffset, maxBytes, maxPosition, minOneBatch);
                if (slice.isPresent()) {
                    return new FetchDataInfo(startOffset, slice.get(), start, end);
                }
            }
            checkInRange(startOffset, logStartOffset, end);
        }
        return new FetchDataInfo(startOffset, MemoryRecords.EMPTY, start, end);
    }

    private void checkInRange(long offset, long start, long end) {
        if (offset < start || offset > end) {
            throw new OffsetOutOfRangeException("Offset " + offset + " is out of range for partition "
                    + topicPartition + ": the first available offset is " + start + ", the log end offset is "
                    + end);
        }
    }

    /** The file position in {@code segment} of the batch holding {@code limit}, or its size if it ends before. */
    private static int maxPosition(LogSegment segment, long nextBaseOffset, long limit) {
        if (limit >= nextBaseOffset) {
            return segment.size();
        }
        LogOffsetPosition position = segment.translateOffset(limit);
        return position == null ? segment.size() : position.position;
    }

    /** The first record whose timestamp is at or above {@code timestamp}, found through the time indexes. */
    public Optional<FileRecords.TimestampAndOffset> offsetForTimestamp(long timestamp) {
        long start = logStartOffset;
        for (LogSegment segment : segments.values()) {
            if (segment.maxTimestampSoFar().timestamp() >= timestamp) {
                Optional<FileRecords.TimestampAndOffset> found = segment.findOffsetByTimestamp(timestamp, start);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    /** The record with the largest timestamp (the first such record), or empty if no record has one. */
    public Optional<FileRecords.TimestampAndOffset> maxTimestampAndOffset() {
        LogSegment newest = null;
        for (LogSegment segment : segments.values()) {
            if (newest == null || segment.maxTimestampSoFar().timestamp() > newest.maxTimestampSoFar().timestamp()) {
                newest = segment;
            }
        }
        if (newest == null || newest.maxTimestampSoFar().timestamp() < 0) {
            return Optional.empty();
        }
        return newest.findOffsetByTimestamp(newest.maxTimestampSoFar().timestamp(), logStartOffset);
    }

    /** A segment that takes no more appends: its indexes are trimmed and reads may map it. */
    private void retire(LogSegment segment) {
        segment.onBecomeInactive();
        segment.seal(config.segmentMappings());
    }

    private void publishSegments() {
        readTable = SegmentTable.of(segments.values());
    }

    /**
     * Removes every batch from the one holding {@code offset} onwards (a follower diverging from its leader).
     * Below the log start offset the log is emptied and restarts at {@code offset}.
     */
    public void truncateTo(long offset) {
        appendLock.lock();
        try {
            ensureOpen();
            if (offset >= logEndOffset) {
                return;
            }
            if (offset < logStartOffset) {
                restartAt(offset);
                return;
            }
            rollListener = null;
            long floor = segments.floorKey(offset);
            deleteSegments(new ArrayList<>(segments.tailMap(floor, false).values()));
            LogSegment active = segments.get(floor);
            active.truncateTo(offset);
            active.resizeIndexes(config.segmentIndexBytes());
            logEndOffset = active.loadTail();
            // A start inside the batch just cut (DeleteRecords) would lie beyond the end; the fetch from the end refills it.
            logStartOffset = Math.min(logStartOffset, logEndOffset);
            lowerRecoveryPoint(logEndOffset);
        } catch (IOException e) {
            throw new KafkaStorageException("Truncating " + topicPartition + " failed", e);
        } finally {
            appendLock.unlock();
        }
    }

    /**
     * Empties the log and restarts it, empty, at {@code offset}: a follower whose leader no longer has the
     * records it would fetch next (they are below the leader's log start) continues from the leader's log start.
     *
     * @throws IllegalArgumentException if {@code offset} lies within [log start, log end]
     */
    public void truncateFullyAndStartAt(long offset) {
        appendLock.lock();
        try {
            ensureOpen();
            if (offset >= logStartOffset && offset <= logEndOffset) {
                throw new IllegalArgumentException("A restart offset must lie outside [" + logStartOffset + ", "
                        + logEndOffset + "] of " + topicPartition + ", got " + offset);
            }
            restartAt(offset);
        } catch (IOException e) {
            throw new KafkaStorageException("Truncating " + topicPartition + " failed", e);
        } finally {
            appendLock.unlock();
        }
    }

    private void restartAt(long offset) throws IOException {
        rollListener = null;
        List<LogSegment> all = new ArrayList<>(segments.values());
        // offset is outside every segment's range, so the new segment's files cannot collide with an old one's.
        segments.put(offset, LogSegment.create(dir, offset, config, time.milliseconds()));
        publishSegments();
        deleteSegments(all);
        logStartOffset = offset;
        logEndOffset = offset;
        lowerRecoveryPoint(offset);
    }

    private void lowerRecoveryPoint(long offset) {
        synchronized (flushLock) {
            recoveryPoint = Math.min(recoveryPoint, offset);
        }
    }

    /** Removes segments from the map now and their files after file.delete.delay.ms. Caller holds the lock. */
    private void deleteSegments(List<LogSegment> toDelete) throws IOException {
        for (LogSegment segment : toDelete) {
            segments.remove(segment.baseOffset());
        }
        publishSegments();
        for (LogSegment segment : toDelete) {
            segment.markDeleted();
            scheduleFileDeletion(segment);
        }
    }

    private void scheduleFileDeletion(LogSegment segment) {
        scheduler.schedule("delete-" + topicPartition + "-" + segment.baseOffset(), () -> {
            try {
                segment.deleteFiles();
            } catch (IOException e) {
                LOG.warn("Partition {}: cannot delete the files of segment {}", topicPartition,
                        segment.baseOffset(), e);
            }
        }, config.fileDeleteDelayMs(), 0);
    }

    /**
     * An earlier clean may have retired a segment at the same base offset whose files still wait for their
     * delayed deletion under the {@code .deleted} names; they go now (readers in flight keep their handles).
     */
    private void deleteRetiredFiles(long baseOffset) throws IOException {
        for (Path file : List.of(SegmentFiles.log(dir, baseOffset), SegmentFiles.offsetIndex(dir, baseOffset),
                SegmentFiles.timeIndex(dir, baseOffset))) {
            Files.deleteIfExists(file.resolveSibling(file.getFileName() + SegmentFiles.DELETED_SUFFIX));
        }
    }

    /** The segments no longer appended to, oldest first, for the cleaner. The active segment is never among them. */
    public List<ClosedSegment> closedSegments() {
        List<LogSegment> all = List.copyOf(segments.values());
        List<ClosedSegment> closed = new ArrayList<>();
        for (int i = 0; i + 1 < all.size(); i++) {
            LogSegment segment = all.get(i);
            closed.add(new ClosedSegment(segment.baseOffset(), all.get(i + 1).baseOffset(), segment.records(),
                    segment.firstBatchTimestamp(), segment.maxTimestampSoFar().timestamp()));
        }
        return closed;
    }

    /** Where the cleaner writes the segment that is to replace the closed segments of offsets [base, end). */
    public Path cleanedFile(long baseOffset, long endOffset) {
        return SegmentFiles.cleaned(dir, baseOffset, endOffset);
    }

    /**
     * Swaps a cleaned segment (written and fsynced by the cleaner at {@link #cleanedFile}) in for the consecutive
     * closed segments it was made from. Renaming it to {@code .swap} commits the swap: after a crash
     * {@link LogLoader} finishes it, and before that point the old segments are untouched. Reads in flight keep
     * reading the old files, which are deleted after file.delete.delay.ms.
     *
     * @return false, with the cleaned file deleted, if those segments changed meanwhile (retention, truncation)
     */
    public boolean swapInCleaned(List<ClosedSegment> replaced, Path cleaned) {
        appendLock.lock();
        try {
            ensureOpen();
            ClosedSegment last = replaced.get(replaced.size() - 1);
            List<LogSegment> old = new ArrayList<>();
            for (ClosedSegment segment : replaced) {
                LogSegment current = segments.get(segment.baseOffset());
                if (current == null || current.records() != segment.records()) {
                    Files.deleteIfExists(cleaned);
                    return false;
                }
                old.add(current);
            }
            Long next = segments.higherKey(last.baseOffset());
            if (next == null || next != last.endOffset()) {
                Files.deleteIfExists(cleaned);
                return false;
            }
            long base = replaced.get(0).baseOffset();
            Path swap = SegmentFiles.swap(dir, base, last.endOffset());
            Files.move(cleaned, swap, StandardCopyOption.ATOMIC_MOVE);
            Utils.flushDir(dir); // the commit point must survive a power loss, not only a process crash
            for (LogSegment segment : old) {
                deleteRetiredFiles(segment.baseOffset());
                segment.markDeleted();
            }
            Files.move(swap, SegmentFiles.log(dir, base), StandardCopyOption.ATOMIC_MOVE);
            LogSegment segment = LogSegment.open(dir, base, config);
            segment.recover();
            retire(segment);
            segment.flush();
            segments.put(base, segment);
            for (LogSegment replacedSegment : old) {
                segments.remove(replacedSegment.baseOffset(), replacedSegment);
            }
            publishSegments();
            old.forEach(this::scheduleFileDeletion);
            return true;
        } catch (IOException e) {
            throw new KafkaStorageException("Swapping a cleaned segment into " + topicPartition + " failed", e);
        } finally {
            appendLock.unlock();
        }
    }

    /**
     * Applies retention: deletes the oldest non-active segments that are past retention.ms or beyond
     * retention.bytes, and advances the log start offset.
     *
     * @return the number of segments deleted
     */
    int deleteOldSegments() {
        appendLock.lock();
        try {
            if (closed) {
                return 0;
            }
            List<LogSegment> deletable = RetentionPolicy.deletable(new ArrayList<>(segments.values()), config,
                    time.milliseconds());
            if (!deletable.isEmpty()) {
                // Advance the start first: a reader that then misses a removed segment sees the new start.
                long newStart = segments.higherKey(deletable.get(deletable.size() - 1).baseOffset());
                logStartOffset = Math.max(logStartOffset, newStart);
                deleteSegments(deletable);
                LOG.info("Partition {}: retention deleted {} segments; the log now starts at offset {}",
                        topicPartition, deletable.size(), logStartOffset);
            }
            return deletable.size();
        } catch (IOException e) {
            throw new KafkaStorageException("Retention of " + topicPartition + " failed", e);
        } finally {
            appendLock.unlock();
        }
    }

    /**
     * DeleteRecords, and a follower catching up with its leader's log start: makes {@code offset} the first
     * readable offset. Reads below it fail as out of range at once; the segments wholly below it are deleted
     * (after file.delete.delay.ms, like retention's). The start never moves back.
     *
     * @return the log start offset after the call
     * @throws OffsetOutOfRangeException if {@code offset} is beyond the log end offset
     */
    public long advanceLogStartOffset(long offset) {
        appendLock.lock();
        try {
            ensureOpen();
            if (offset > logEndOffset) {
                throw new OffsetOutOfRangeException("Cannot delete the records of " + topicPartition + " below offset "
                        + offset + ": the log ends at " + logEndOffset);
            }
            if (offset <= logStartOffset) {
                return logStartOffset;
            }
            // Advance the start first: a reader that then misses a removed segment sees the new start.
            logStartOffset = offset;
            List<LogSegment> below = new ArrayList<>();
            for (LogSegment segment : segments.values()) {
                Long next = segments.higherKey(segment.baseOffset());
                if (next == null || next > offset) {
                    break;
                }
                below.add(segment);
            }
            deleteSegments(below);
            LOG.info("Partition {}: records below offset {} deleted ({} whole segments)", topicPartition, offset,
                    below.size());
            return offset;
        } catch (IOException e) {
            throw new KafkaStorageException("Deleting the records of " + topicPartition + " failed", e);
        } finally {
            appendLock.unlock();
        }
    }

    /** fsyncs everything up to the log end offset and advances the recovery point. */
    public void flush() {
        flushUpTo(logEndOffset);
    }

    /** Flushes if flush.ms has passed since the last flush and there is something to flush. */
    void maybeFlushByTime() {
        long now = time.milliseconds();
        if (logEndOffset > recoveryPoint && now - lastFlushMs >= config.flushMs()) {
            flush();
        }
    }

    private void flushUpTo(long offset) {
        synchronized (flushLock) {
            if (closed || offset <= recoveryPoint) {
                return;
            }
            Long from = segments.floorKey(recoveryPoint);
            try {
                for (LogSegment segment : segments.subMap(from == null ? 0L : from, true, offset, false).values()) {
                    segment.flush();
                }
            } catch (IOException e) {
                throw new KafkaStorageException("Flushing " + topicPartition + " failed", e);
            }
            recoveryPoint = offset;
            lastFlushMs = time.milliseconds();
        }
    }

    /** Applies new settings: retention, flush and size limits at once, index sizes from the next roll. */
    public void updateConfig(LogConfig newConfig) {
        this.config = newConfig;
        segments.lastEntry().getValue().updateIndexInterval(newConfig.indexIntervalBytes());
    }

    /** Total bytes of all segments. */
    long size() {
        return segments.values().stream().mapToLong(LogSegment::size).sum();
    }

    int numberOfSegments() {
        return segments.size();
    }

    List<LogSegment> segments() {
        return List.copyOf(segments.values());
    }

    /** Flushes, writes the final index entries, trims the indexes and closes the files. */
    void close() {
        close(true);
    }

    /** Closes without syncing what is not on disk yet: the log is about to be deleted. */
    void closeForDeletion() {
        close(false);
    }

    private void close(boolean flush) {
        appendLock.lock();
        try {
            if (closed) {
                return;
            }
            if (flush) {
                flush();
            }
            closed = true;
            for (LogSegment segment : segments.values()) {
                segment.close();
            }
        } catch (IOException e) {
            throw new KafkaStorageException("Closing " + topicPartition + " failed", e);
        } finally {
            appendLock.unlock();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new KafkaStorageException("The log of " + topicPartition + " is closed");
        }
    }

    @Override
    public String toString() {
        return "PartitionLog(" + topicPartition + ", start=" + logStartOffset + ", end=" + logEndOffset + ")";
    }
}

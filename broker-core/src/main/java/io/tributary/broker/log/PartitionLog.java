package io.tributary.broker.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.errors.OffsetMovedToTieredStorageException;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Records;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log of one partition: a folder {@code <topic>-<partition>} of segments ordered by base offset; the last one
 * takes appends.
 *
 * <p>As Kafka's UnifiedLog over LocalLog and LogSegments: this class owns the log start offset, validation and
 * offset assignment, retention, DeleteRecords and the time lookups; {@link LocalLog} owns the segment files (roll,
 * read, truncation, deletion, the cleaner's swap, flushes) and {@link LogSegments} the segment set.
 *
 * <p>A tiered log (remote.storage.enable) has a remote part below its local one: its log start offset (the first
 * readable offset of the whole log) may lie below its local log start offset (the first offset in a local segment).
 * Reads in between throw {@link OffsetMovedToTieredStorageException}: they are served from remote storage. What
 * the remote part holds comes from whoever manages it ({@link #updateRemoteTier}); local retention deletes only
 * segments it holds. Without remote storage both starts are the same.
 *
 * <p>Threading: appends, rolls, truncation and retention hold one lock; reads are lock-free (see {@link LocalLog}).
 *
 * <p>I/O failures surface as {@link KafkaStorageException}; invalid input as the exceptions of
 * {@link RecordsValidator}, with nothing appended.
 */
public final class PartitionLog {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionLog.class);

    private final TopicPartition topicPartition;
    private final Time time;
    private final LocalLog local;
    private final ReentrantLock appendLock = new ReentrantLock();
    /** The first readable offset of the whole log, remote part included. At most {@link #localLogStartOffset}. */
    private volatile long logStartOffset;
    /** The first readable offset of the local segments. */
    private volatile long localLogStartOffset;
    /** The offset after the last one the remote part holds; {@link #NOTHING_REMOTE} before anything was copied. */
    private volatile long remoteLogEndOffset = NOTHING_REMOTE;
    /** Another copy of the partition replaced this one (a move between log dirs): no more changes, reads go on. */
    private volatile boolean retired;

    /** {@link #remoteLogEndOffset()} of a log with nothing in remote storage (or none at all). */
    public static final long NOTHING_REMOTE = -1;

    private PartitionLog(TopicPartition topicPartition, Path dir, LogConfig config, Time time, Scheduler scheduler,
                         FlushTimes flushTimes, LogLoader.LoadedLog loaded, long checkpointedLogStartOffset) {
        this.topicPartition = topicPartition;
        this.time = time;
        this.local = new LocalLog(topicPartition, dir, config, time, scheduler, flushTimes, loaded);
        // A DeleteRecords start inside the first segment survives restarts through its checkpoint.
        long checkpointed = Math.min(checkpointedLogStartOffset, local.logEndOffset());
        this.localLogStartOffset = Math.max(local.segments().firstBaseOffset(), checkpointed);
        // Below the local segments only if the remote part held the offsets in between when the start was checkpointed.
        this.logStartOffset = config.remoteStorageEnable() ? Math.min(checkpointed, localLogStartOffset) : localLogStartOffset;
    }

    /**
     * Opens (creating if needed) the partition folder {@code dir} and loads its segments; see {@link LogLoader}
     * for what a clean and an unclean start do. The log starts at {@code logStartOffset} (checkpointed by the
     * {@link LogManager}) or at its first segment, whichever is later.
     */
    static PartitionLog open(TopicPartition tp, Path dir, LogConfig config, Time time, Scheduler scheduler, FlushTimes flushTimes,
                             long recoveryPoint, long logStartOffset, boolean cleanShutdown) throws IOException {
        Files.createDirectories(dir);
        LogLoader.LoadedLog loaded = new LogLoader(tp, dir, config, time.milliseconds())
                .load(recoveryPoint, cleanShutdown);
        return new PartitionLog(tp, dir, config, time, scheduler, flushTimes, loaded, logStartOffset);
    }

    public TopicPartition topicPartition() {
        return topicPartition;
    }

    /** The partition folder, which a move between log dirs renames. */
    public Path dir() {
        return local.dir();
    }

    public LogConfig config() {
        return local.config();
    }

    /** The first offset that can be read, from the local segments or (on a tiered log) from remote storage. */
    public long logStartOffset() {
        return logStartOffset;
    }

    /** The first offset of the local segments: reads below it (and at or above {@link #logStartOffset}) are remote. */
    public long localLogStartOffset() {
        return localLogStartOffset;
    }

    /** The offset after the last one in remote storage, as last told by {@link #updateRemoteTier}; or NOTHING_REMOTE. */
    public long remoteLogEndOffset() {
        return remoteLogEndOffset;
    }

    /**
     * What the remote part of a tiered log holds now, from its manager: offsets {@code [remoteStart, remoteEnd)}, or
     * nothing ({@link #NOTHING_REMOTE} for both). Local retention may then delete the local segments below
     * {@code remoteEnd}, and the log start follows the remote start up (remote retention, DeleteRecords); it never
     * moves back.
     */
    public void updateRemoteTier(long remoteStart, long remoteEnd) {
        appendLock.lock();
        try {
            remoteLogEndOffset = remoteEnd;
            long first = remoteEnd == NOTHING_REMOTE ? localLogStartOffset : Math.min(remoteStart, localLogStartOffset);
            logStartOffset = Math.min(Math.max(logStartOffset, first), localLogStartOffset);
        } finally {
            appendLock.unlock();
        }
    }

    /**
     * Tells {@code copy}, a copy of this tiered log's records in another folder that takes over from it (a move between
     * log dirs), what the remote part holds as this log last heard it; nothing if it has not heard yet (the remote
     * part's manager tells the copy then, as it tells every log it finds).
     */
    void handRemoteTierTo(PartitionLog copy) {
        if (remoteLogEndOffset != NOTHING_REMOTE) {
            copy.updateRemoteTier(logStartOffset, remoteLogEndOffset);
        }
    }

    /** The offset the next appended record gets. */
    public long logEndOffset() {
        return local.logEndOffset();
    }

    /** Every offset below this one is fsynced; recovery after a crash starts here. */
    long recoveryPoint() {
        return local.recoveryPoint();
    }

    /**
     * Validates the batches (magic v2, sizes, CRC-32C, record counts, max.message.bytes, the topic's
     * {@link RecordRules}), assigns offsets from the log end offset, stamps the leader epoch (and the broker time
     * if the topic uses LogAppendTime), then appends. The batches in {@code records} are modified in place. An
     * empty {@code records} appends nothing.
     */
    public LogAppendInfo appendAsLeader(MemoryRecords records, int leaderEpoch) {
        return appendAsLeader(records, leaderEpoch, AppendOrigin.CLIENT);
    }

    /** {@link #appendAsLeader(MemoryRecords, int)} for {@code origin}: a coordinator may append control batches. */
    public LogAppendInfo appendAsLeader(MemoryRecords records, int leaderEpoch, AppendOrigin origin) {
        LogConfig cfg = local.config();
        RecordsValidator.ValidatedRecords validated = RecordsValidator.validate(records, cfg.maxMessageBytes(), origin,
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
            long firstOffset = local.logEndOffset();
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
     * Appends batches whose offsets the leader assigned. They are checked as Kafka's followers check them (magic,
     * CRC; not the records, which the leader validated and its cleaner may have thinned), must have
     * increasing offsets and start at or after the log end offset (gaps are allowed).
     */
    public LogAppendInfo appendAsFollower(MemoryRecords records) {
        RecordsValidator.ValidatedRecords validated =
                RecordsValidator.validate(records, local.config().maxMessageBytes(), AppendOrigin.REPLICATION, RecordRules.ANY);
        if (validated.batchCount() == 0) {
            return LogAppendInfo.NOTHING_APPENDED;
        }
        appendLock.lock();
        try {
            ensureOpen();
            if (validated.firstOffset() < local.logEndOffset()) {
                throw new InvalidRecordException("Follower append at offset " + validated.firstOffset()
                        + " is below the log end offset " + local.logEndOffset() + " of " + topicPartition);
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
     * Appends batches with final offsets; a roll that replaced an empty first segment moves the local start (and the
     * log start, unless a remote part lies below).
     */
    private void appendAssigned(MemoryRecords records, long firstOffset, long lastOffset, long maxTimestamp) {
        if (local.append(records, firstOffset, lastOffset, maxTimestamp)) {
            long first = local.segments().firstBaseOffset();
            localLogStartOffset = Math.max(localLogStartOffset, first);
            if (!local.config().remoteStorageEnable()) {
                logStartOffset = Math.max(logStartOffset, first);
            }
        }
    }

    /**
     * Sets what to tell, on the background scheduler and outside the append lock, the base offset of each segment
     * rolled from now on (the producer state snapshots itself there). Replaces the previous listener; a truncation
     * removes it, since whatever the listener keeps about the log is stale after one.
     */
    public void onRoll(LongConsumer listener) {
        local.onRoll(listener);
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
     * @throws OffsetMovedToTieredStorageException if startOffset lies in the remote part of a tiered log
     */
    public FetchDataInfo read(long startOffset, int maxBytes, long maxOffsetExclusive, boolean minOneBatch) {
        long start = logStartOffset;
        long end = local.logEndOffset();
        checkInRange(startOffset, start, localLogStartOffset, end);
        long limit = Math.min(maxOffsetExclusive, end);
        if (startOffset < limit) {
            Optional<Records> slice = local.read(startOffset, maxBytes, limit, minOneBatch);
            if (slice.isPresent()) {
                return new FetchDataInfo(startOffset, slice.get(), start, end);
            }
            checkInRange(startOffset, logStartOffset, localLogStartOffset, end);
        }
        return new FetchDataInfo(startOffset, MemoryRecords.EMPTY, start, end);
    }

    private void checkInRange(long offset, long start, long localStart, long end) {
        // Retention moves the local start before the log start, so a read between the two sees a log start behind
        // the local one; below the local start of a log that is not tiered, nothing is left anywhere.
        long firstAvailable = local.config().remoteStorageEnable() ? start : Math.max(start, localStart);
        if (offset < firstAvailable || offset > end) {
            throw new OffsetOutOfRangeException("Offset " + offset + " is out of range for partition "
                    + topicPartition + ": the first available offset is " + firstAvailable + ", the log end offset is "
                    + end);
        }
        if (offset < localStart) {
            throw new OffsetMovedToTieredStorageException("Offset " + offset + " of partition " + topicPartition
                    + " is in remote storage: the local log starts at " + localStart);
        }
    }

    /**
     * Records in the {@code .txnindex} of the segment holding its marker a transaction whose ABORT marker has been
     * appended; one indexed already is left alone.
     */
    public void indexAbortedTxn(AbortedTxn txn) {
        appendLock.lock();
        try {
            ensureOpen();
            local.indexAbortedTxn(txn);
        } finally {
            appendLock.unlock();
        }
    }

    /**
     * For a read_committed fetch from {@code fetchOffset}: the aborted transactions that end at or after it and
     * start below {@code upperBound} (the last stable offset), whose records the consumer must skip.
     */
    public List<AbortedTxn> abortedTxns(long fetchOffset, long upperBound) {
        return local.abortedTxns(fetchOffset, upperBound);
    }

    /** The first record whose timestamp is at or above {@code timestamp}, found through the time indexes. */
    public Optional<FileRecords.TimestampAndOffset> offsetForTimestamp(long timestamp) {
        long start = logStartOffset;
        for (LogSegment segment : local.segments().all()) {
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
        for (LogSegment segment : local.segments().all()) {
            if (newest == null || segment.maxTimestampSoFar().timestamp() > newest.maxTimestampSoFar().timestamp()) {
                newest = segment;
            }
        }
        if (newest == null || newest.maxTimestampSoFar().timestamp() < 0) {
            return Optional.empty();
        }
        return newest.findOffsetByTimestamp(newest.maxTimestampSoFar().timestamp(), logStartOffset);
    }

    /**
     * Removes every batch from the one holding {@code offset} onwards (a follower diverging from its leader).
     * Below the log start offset the log is emptied and restarts at {@code offset}.
     */
    public void truncateTo(long offset) {
        appendLock.lock();
        try {
            ensureOpen();
            if (offset >= local.logEndOffset()) {
                return;
            }
            if (offset < localLogStartOffset) {
                restartAt(offset);
                return;
            }
            long end = local.truncateTo(offset);
            // A start inside the batch just cut (DeleteRecords) would lie beyond the end; the fetch from the end refills it.
            localLogStartOffset = Math.min(localLogStartOffset, end);
            logStartOffset = Math.min(logStartOffset, end);
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
            if (offset >= logStartOffset && offset <= local.logEndOffset()) {
                throw new IllegalArgumentException("A restart offset must lie outside [" + logStartOffset + ", "
                        + local.logEndOffset() + "] of " + topicPartition + ", got " + offset);
            }
            restartAt(offset);
        } catch (IOException e) {
            throw new KafkaStorageException("Truncating " + topicPartition + " failed", e);
        } finally {
            appendLock.unlock();
        }
    }

    /** The local log restarts at {@code offset}; on a tiered log, the remote part below stays readable. */
    private void restartAt(long offset) throws IOException {
        local.restartAt(offset);
        localLogStartOffset = offset;
        logStartOffset = local.config().remoteStorageEnable() ? Math.min(logStartOffset, offset) : offset;
    }

    /** The segments no longer appended to, oldest first, for the cleaner. The active segment is never among them. */
    public List<ClosedSegment> closedSegments() {
        return local.closedSegments();
    }

    /**
     * The closed segments that hold offsets at or after {@code fromOffset} and end at or below {@code upTo}, oldest
     * first, with their files: what the remote tier copies. They stop before a segment whose roll is still being told
     * to the log's roll listener, which writes the producer snapshot at its end: its copy would go without it. The files
     * stay readable while a copy runs, unless the segment is deleted meanwhile (an I/O error then).
     */
    public List<ClosedSegmentFiles> closedSegmentFiles(long fromOffset, long upTo) {
        List<ClosedSegmentFiles> found = new ArrayList<>();
        List<LogSegment> all = List.copyOf(local.segments().all());
        Path dir = local.dir();
        for (int i = 0; i + 1 < all.size(); i++) {
            LogSegment segment = all.get(i);
            long end = all.get(i + 1).baseOffset();
            if (end <= fromOffset) {
                continue;
            }
            if (end > upTo || local.rollBeingTold(end)) {
                break; // beyond the bound, or the producer snapshot at its end (which its copy takes) is being written
            }
            Path txnIndex = SegmentFiles.txnIndex(dir, segment.baseOffset());
            Path snapshot = ProducerStateManager.snapshotFile(dir, end);
            found.add(new ClosedSegmentFiles(segment.baseOffset(), end, segment.size(),
                    segment.maxTimestampSoFar().timestamp(), SegmentFiles.log(dir, segment.baseOffset()),
                    SegmentFiles.offsetIndex(dir, segment.baseOffset()), SegmentFiles.timeIndex(dir, segment.baseOffset()),
                    segment.abortedTxns().isEmpty() ? Optional.empty() : Optional.of(txnIndex),
                    Files.exists(snapshot) ? Optional.of(snapshot) : Optional.empty()));
        }
        return found;
    }

    /**
     * Whether the producer snapshot at {@code offset} must outlive the usual newest three: on a tiered log, the
     * snapshots at the ends of segments not yet copied, which their copies take along.
     */
    boolean producerSnapshotNeeded(long offset) {
        return local.config().remoteStorageEnable() && offset > remoteLogEndOffset
                && local.segments().get(offset) != null;
    }

    /** Where the cleaner writes the segment that is to replace the closed segments of offsets [base, end). */
    public Path cleanedFile(long baseOffset, long endOffset) {
        return SegmentFiles.cleaned(local.dir(), baseOffset, endOffset);
    }

    /**
     * Swaps a cleaned segment (written and fsynced by the cleaner at {@link #cleanedFile}) in for the consecutive
     * closed segments it was made from. Renaming it to {@code .swap} commits the swap: after a crash
     * {@link LogLoader} finishes it, and before that point the old segments are untouched. Reads in flight keep
     * reading the old files, which are deleted after file.delete.delay.ms.
     *
     * @param abortedTxns the aborted transactions whose markers the cleaned segment holds and whose data, emptied or
     *                    not, it still has: its {@code .txnindex}
     * @return false, with the cleaned file deleted, if those segments changed meanwhile (retention, truncation)
     */
    public boolean swapInCleaned(List<ClosedSegment> replaced, Path cleaned, List<AbortedTxn> abortedTxns) {
        appendLock.lock();
        try {
            ensureOpen();
            return local.swapInCleaned(replaced, cleaned, abortedTxns);
        } catch (IOException e) {
            throw new KafkaStorageException("Swapping a cleaned segment into " + topicPartition + " failed", e);
        } finally {
            appendLock.unlock();
        }
    }

    /** See {@link LocalLog#onSwapStep}. */
    void onSwapStep(Consumer<LocalLog.SwapStep> listener) {
        local.onSwapStep(listener);
    }

    /**
     * Applies retention: deletes the oldest non-active segments that are past retention.ms or beyond
     * retention.bytes, and advances the log start offset. On a tiered log, local.retention.ms/bytes apply instead,
     * only to segments the remote part holds whole, and only the local log start moves (the remote part is its
     * manager's to expire).
     *
     * @return the number of segments deleted
     */
    int deleteOldSegments() {
        appendLock.lock();
        try {
            LogConfig cfg = local.config();
            if (local.isClosed() || retired || !cfg.deleteRetentionEnabled()) {
                return 0;
            }
            boolean tiered = cfg.remoteStorageEnable();
            List<LogSegment> deletable = tiered
                    ? RetentionPolicy.deletable(new ArrayList<>(local.segments().all()), cfg.localRetentionMs(),
                            cfg.localRetentionBytes(), time.milliseconds(), remoteLogEndOffset)
                    : RetentionPolicy.deletable(new ArrayList<>(local.segments().all()), cfg.retentionMs(),
                            cfg.retentionBytes(), time.milliseconds(), Long.MAX_VALUE);
            if (!deletable.isEmpty()) {
                // Advance the start first: a reader that then misses a removed segment sees the new start.
                long newStart = local.segments().nextBaseOffset(deletable.get(deletable.size() - 1).baseOffset());
                localLogStartOffset = Math.max(localLogStartOffset, newStart);
                if (!tiered) {
                    logStartOffset = Math.max(logStartOffset, newStart);
                }
                local.deleteSegments(deletable);
                LOG.info("Partition {}: {}retention deleted {} segments; the {}log now starts at offset {}", topicPartition,
                        tiered ? "local " : "", deletable.size(), tiered ? "local " : "", localLogStartOffset);
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
            if (offset > local.logEndOffset()) {
                throw new OffsetOutOfRangeException("Cannot delete the records of " + topicPartition + " below offset "
                        + offset + ": the log ends at " + local.logEndOffset());
            }
            if (offset <= logStartOffset) {
                return logStartOffset;
            }
            // Advance the start first: a reader that then misses a removed segment sees the new start.
            logStartOffset = offset;
            localLogStartOffset = Math.max(localLogStartOffset, offset);
            List<LogSegment> below = new ArrayList<>();
            for (LogSegment segment : local.segments().all()) {
                Long next = local.segments().nextBaseOffset(segment.baseOffset());
                if (next == null || next > offset) {
                    break;
                }
                below.add(segment);
            }
            local.deleteSegments(below);
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
        local.flush();
    }

    /** Flushes if flush.ms has passed since the last flush and there is something to flush. */
    void maybeFlushByTime() {
        local.maybeFlushByTime();
    }

    /** Applies new settings: retention, flush and size limits at once, index sizes from the next roll. */
    public void updateConfig(LogConfig newConfig) {
        local.updateConfig(newConfig);
    }

    /** Total bytes of all segments. */
    public long size() {
        return local.segments().sizeInBytes();
    }

    /** The bytes of the local segments that start at or after {@code offset}: on a tiered log, those not yet copied. */
    public long sizeFrom(long offset) {
        return local.segments().all().stream().filter(segment -> segment.baseOffset() >= offset)
                .mapToLong(LogSegment::size).sum();
    }

    int numberOfSegments() {
        return local.segments().count();
    }

    List<LogSegment> segments() {
        return List.copyOf(local.segments().all());
    }

    /** Flushes, writes the final index entries, trims the indexes and closes the files. */
    void close() {
        close(true);
    }

    /** Closes without syncing what is not on disk yet: the log is about to be deleted. */
    void closeForDeletion() {
        close(false);
    }

    /**
     * Renames the partition folder to {@code target}, a folder of the same log dir (a move between log dirs: the
     * future copy takes the partition's own name, the copy it replaced a deletion name); appends wait meanwhile,
     * reads in flight go on.
     */
    void renameDir(Path target) throws IOException {
        appendLock.lock();
        try {
            local.renameDir(target);
        } finally {
            appendLock.unlock();
        }
    }

    /**
     * This copy of the partition was replaced by another (a move between log dirs): it takes no more appends,
     * truncations, retention or cleaner swaps. Its files stay open, so reads in flight finish, until it is closed.
     */
    void retire() {
        appendLock.lock();
        try {
            retired = true;
        } finally {
            appendLock.unlock();
        }
    }

    private void close(boolean flush) {
        appendLock.lock();
        try {
            local.close(flush);
        } catch (IOException e) {
            throw new KafkaStorageException("Closing " + topicPartition + " failed", e);
        } finally {
            appendLock.unlock();
        }
    }

    private void ensureOpen() {
        if (local.isClosed() || retired) {
            throw new KafkaStorageException("The log of " + topicPartition + " in " + local.dir() + " is closed");
        }
    }

    @Override
    public String toString() {
        return "PartitionLog(" + topicPartition + ", start=" + logStartOffset + ", end=" + local.logEndOffset() + ")";
    }
}

package io.tributary.broker.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.record.internal.FileRecords.LogOffsetPosition;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Records;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The segment files of one partition folder (as Kafka's LocalLog): appends with final offsets, rolls, reads of
 * file slices, truncation, the delayed deletion of retired segments, the swap of a cleaned segment, flushes and the
 * recovery point. It knows offsets only as positions in files: the log start offset, validation and offset
 * assignment belong to {@link PartitionLog}, which serialises every change under its append lock.
 *
 * <p>Reads are lock-free: they look up the segment in the published {@link LogSegments#readTable} and slice files
 * up to the published (volatile) log end offset. Flushes run under their own lock so that an fsync never blocks
 * appends. Deleted segments keep their files (renamed {@code .deleted}) for {@code file.delete.delay.ms} so that
 * reads in flight finish.
 */
final class LocalLog {
    private static final Logger LOG = LoggerFactory.getLogger(LocalLog.class);

    private final TopicPartition topicPartition;
    /** The partition folder; renamed only under the append lock (a move between log dirs). */
    private volatile Path dir;
    private final Time time;
    private final Scheduler scheduler;
    private final FlushTimes flushTimes;
    private final LogSegments segments;
    /** Segments removed from the log whose files wait for their delayed deletion: a rename of the folder moves them too. */
    private final Set<LogSegment> awaitingDeletion = ConcurrentHashMap.newKeySet();
    private final Object flushLock = new Object();
    private volatile LogConfig config;
    private volatile long logEndOffset;
    private volatile long recoveryPoint;
    private volatile long lastFlushMs;
    private volatile boolean closed;
    /** Whether the last append failed (a full disk, say), so that a run of failures is logged once. Append lock. */
    private boolean appendsFailing;
    /** Told (on the scheduler) the base offset of each new segment; forgotten when the log is truncated. */
    private volatile LongConsumer rollListener;
    /** The base offsets of the rolls whose listener task has not finished yet. */
    private final Set<Long> rollsBeingTold = ConcurrentHashMap.newKeySet();
    private volatile Consumer<SwapStep> swapSteps = step -> { };

    LocalLog(TopicPartition topicPartition, Path dir, LogConfig config, Time time, Scheduler scheduler, FlushTimes flushTimes,
             LogLoader.LoadedLog loaded) {
        this.topicPartition = topicPartition;
        this.dir = dir;
        this.config = config;
        this.time = time;
        this.scheduler = scheduler;
        this.flushTimes = flushTimes;
        this.segments = new LogSegments(loaded.segments());
        this.logEndOffset = loaded.logEndOffset();
        this.recoveryPoint = loaded.recoveryPoint();
        this.lastFlushMs = time.milliseconds();
    }

    LogSegments segments() {
        return segments;
    }

    Path dir() {
        return dir;
    }

    LogConfig config() {
        return config;
    }

    long logEndOffset() {
        return logEndOffset;
    }

    long recoveryPoint() {
        return recoveryPoint;
    }

    boolean isClosed() {
        return closed;
    }

    /**
     * Appends batches with final offsets, rolling first if needed. {@code maxTimestamp} is the largest batch
     * timestamp of {@code records}, which the caller has computed already. Caller holds the append lock.
     *
     * @return true if a segment was rolled for the append
     */
    boolean append(MemoryRecords records, long firstOffset, long lastOffset, long maxTimestamp) {
        boolean rolled;
        try {
            LogSegment active = segments.active();
            LogSegment segment = maybeRoll(active, records.sizeInBytes(), firstOffset, lastOffset, maxTimestamp);
            rolled = segment != active;
            segment.append(lastOffset, records);
        } catch (IOException e) {
            if (!appendsFailing) {
                appendsFailing = true;
                LOG.error("Partition {}: appends to {} fail, produces and replication to it are refused (logged again "
                        + "once one succeeds): {}", topicPartition, dir, e.toString());
            }
            throw new KafkaStorageException("Append to " + topicPartition + " in " + dir + " failed", e);
        }
        if (appendsFailing) {
            appendsFailing = false;
            LOG.info("Partition {}: appends to {} succeed again", topicPartition, dir);
        }
        logEndOffset = lastOffset + 1;
        if (logEndOffset - recoveryPoint >= config.flushMessages()) {
            flush();
        }
        return rolled;
    }

    /**
     * Rolls when the active segment is not empty and would exceed segment.bytes, has waited {@link LogConfig#rollMs} less its jitter (see
     * {@link LogSegment#timeWaitedForRoll}) or has a full index, and whenever {@code lastOffset} does not fit its
     * 4-byte relative offsets.
     */
    private LogSegment maybeRoll(LogSegment active, int appendBytes, long firstOffset, long lastOffset,
                                 long maxTimestamp) throws IOException {
        LogConfig cfg = config;
        boolean full = active.size() > 0 && (active.size() > cfg.segmentBytes() - appendBytes
                || active.timeWaitedForRoll(time.milliseconds(), maxTimestamp) > cfg.rollMs() - rollJitterMs(active, cfg)
                || active.indexesFull());
        return full || !active.canHoldOffset(lastOffset) ? roll(firstOffset) : active;
    }

    /**
     * How much earlier than segment.ms this segment rolls: a share of segment.jitter.ms fixed per segment (from
     * its partition and base offset), so that partitions created together do not all roll at the same moment.
     */
    private long rollJitterMs(LogSegment segment, LogConfig cfg) {
        long bound = Math.min(cfg.segmentJitterMs(), cfg.rollMs());
        long mixed = (31L * topicPartition.hashCode() + segment.baseOffset()) * 0x9E3779B97F4A7C15L;
        return bound == 0 ? 0 : Math.floorMod(mixed, bound);
    }

    private LogSegment roll(long newBaseOffset) throws IOException {
        LogSegment old = segments.active();
        LogSegment segment = LogSegment.create(dir, newBaseOffset, config, time.milliseconds());
        if (old.size() == 0) {
            // An empty segment cannot hold the offsets (relative-offset overflow on a follower): replace it.
            segments.remove(old);
            old.deleteFiles();
        } else {
            retire(old);
        }
        segments.put(segment);
        segments.publish();
        LOG.debug("Partition {}: rolled segment {}", topicPartition, newBaseOffset);
        scheduler.schedule("flush-" + topicPartition, () -> flushUpTo(newBaseOffset), 0, 0);
        LongConsumer listener = rollListener;
        if (listener != null) {
            rollsBeingTold.add(newBaseOffset);
            scheduler.schedule("roll-listener-" + topicPartition, () -> {
                try {
                    if (rollListener == listener) {
                        listener.accept(newBaseOffset);
                    }
                } finally {
                    rollsBeingTold.remove(newBaseOffset);
                }
            }, 0, 0);
        }
        return segment;
    }

    /** Whether the roll listener has yet to be told of (or is being told of) the segment rolled at {@code baseOffset}. */
    boolean rollBeingTold(long baseOffset) {
        return rollsBeingTold.contains(baseOffset);
    }

    /** See {@link PartitionLog#onRoll}. */
    void onRoll(LongConsumer listener) {
        rollListener = listener;
    }

    /**
     * The slice from the batch holding {@code startOffset} up to (not including) the batch holding {@code limit},
     * or empty if no segment has a batch there (a segment deleted meanwhile).
     */
    Optional<Records> read(long startOffset, int maxBytes, long limit, boolean minOneBatch) {
        SegmentTable table = segments.readTable();
        for (int slot = table.floorSlot(startOffset); slot >= 0 && slot < table.size(); slot++) {
            LogSegment segment = table.segment(slot);
            int maxPosition = maxPosition(segment, table.nextBaseOffset(slot), limit);
            Optional<Records> slice = segment.read(startOffset, maxBytes, maxPosition, minOneBatch);
            if (slice.isPresent()) {
                return slice;
            }
        }
        return Optional.empty();
    }

    /**
     * Indexes an aborted transaction in the segment holding its ABORT marker, unless that segment has it already
     * (recovery replays markers that may have been indexed before the crash) or is gone. Caller holds the append lock.
     */
    void indexAbortedTxn(AbortedTxn txn) {
        Long base = segments.floorBaseOffset(txn.lastOffset());
        LogSegment segment = base == null ? null : segments.get(base);
        if (segment != null && segment.lastAbortMarkerOffset() < txn.lastOffset()) {
            segment.appendAbortedTxn(txn);
        }
    }

    /** The aborted transactions that end at or after {@code fetchOffset} and start before {@code upperBound}. */
    List<AbortedTxn> abortedTxns(long fetchOffset, long upperBound) {
        List<AbortedTxn> found = new ArrayList<>();
        SegmentTable table = segments.readTable();
        for (int slot = Math.max(0, table.floorSlot(fetchOffset)); slot < table.size(); slot++) {
            if (table.segment(slot).collectAbortedTxns(fetchOffset, upperBound, found)) {
                break;
            }
        }
        return found;
    }

    /** The file position in {@code segment} of the batch holding {@code limit}, or its size if it ends before. */
    private static int maxPosition(LogSegment segment, long nextBaseOffset, long limit) {
        if (limit >= nextBaseOffset) {
            return segment.size();
        }
        LogOffsetPosition position = segment.translateOffset(limit);
        return position == null ? segment.size() : position.position;
    }

    /** A segment that takes no more appends: its indexes are trimmed and reads may map it. */
    private void retire(LogSegment segment) {
        segment.onBecomeInactive();
        segment.seal(config.segmentMappings());
    }

    /**
     * Removes every batch from the one holding {@code offset} onwards; {@code offset} lies in [first base offset,
     * log end). Caller holds the append lock.
     *
     * @return the new log end offset
     */
    long truncateTo(long offset) throws IOException {
        rollListener = null;
        long floor = segments.floorBaseOffset(offset);
        deleteSegments(segments.after(floor));
        LogSegment active = segments.get(floor);
        active.truncateTo(offset);
        active.resizeIndexes(config.segmentIndexBytes());
        logEndOffset = active.loadTail();
        lowerRecoveryPoint(logEndOffset);
        return logEndOffset;
    }

    /** Deletes every segment and restarts, empty, at {@code offset}, outside every segment's range. */
    void restartAt(long offset) throws IOException {
        rollListener = null;
        List<LogSegment> all = new ArrayList<>(segments.all());
        // offset is outside every segment's range, so the new segment's files cannot collide with an old one's.
        segments.put(LogSegment.create(dir, offset, config, time.milliseconds()));
        segments.publish();
        deleteSegments(all);
        logEndOffset = offset;
        lowerRecoveryPoint(offset);
    }

    private void lowerRecoveryPoint(long offset) {
        synchronized (flushLock) {
            recoveryPoint = Math.min(recoveryPoint, offset);
        }
    }

    /** Removes segments from the map now and their files after file.delete.delay.ms. Caller holds the lock. */
    void deleteSegments(List<LogSegment> toDelete) throws IOException {
        for (LogSegment segment : toDelete) {
            segments.remove(segment);
        }
        segments.publish();
        for (LogSegment segment : toDelete) {
            segment.markDeleted();
            scheduleFileDeletion(segment);
        }
    }

    private void scheduleFileDeletion(LogSegment segment) {
        awaitingDeletion.add(segment);
        scheduler.schedule("delete-" + topicPartition + "-" + segment.baseOffset(), () -> {
            try {
                segment.deleteFiles();
            } catch (IOException e) {
                LOG.warn("Partition {}: cannot delete the files of segment {}", topicPartition,
                        segment.baseOffset(), e);
            } finally {
                awaitingDeletion.remove(segment);
            }
        }, config.fileDeleteDelayMs(), 0);
    }

    /**
     * Renames the partition folder to {@code target} (atomically, in the same log dir) and points every segment at its
     * new place; the open files and reads in flight are not disturbed, flushes wait. The rename is synced. Caller holds
     * the append lock.
     */
    void renameDir(Path target) throws IOException {
        synchronized (flushLock) {
            Files.move(dir, target, StandardCopyOption.ATOMIC_MOVE);
            dir = target;
            segments.all().forEach(segment -> segment.updateParentDir(target));
            awaitingDeletion.forEach(segment -> segment.updateParentDir(target));
        }
        Utils.flushDir(target.getParent());
    }

    /**
     * An earlier clean may have retired a segment at the same base offset whose files still wait for their
     * delayed deletion under the {@code .deleted} names; they go now (readers in flight keep their handles).
     */
    private void deleteRetiredFiles(long baseOffset) throws IOException {
        for (Path file : List.of(SegmentFiles.log(dir, baseOffset), SegmentFiles.offsetIndex(dir, baseOffset),
                SegmentFiles.timeIndex(dir, baseOffset), SegmentFiles.txnIndex(dir, baseOffset))) {
            Files.deleteIfExists(file.resolveSibling(file.getFileName() + SegmentFiles.DELETED_SUFFIX));
        }
    }

    /** See {@link PartitionLog#closedSegments}. */
    List<ClosedSegment> closedSegments() {
        List<LogSegment> all = List.copyOf(segments.all());
        List<ClosedSegment> closedSegments = new ArrayList<>();
        for (int i = 0; i + 1 < all.size(); i++) {
            LogSegment segment = all.get(i);
            closedSegments.add(new ClosedSegment(segment.baseOffset(), all.get(i + 1).baseOffset(), segment.records(),
                    segment.firstBatchTimestamp(), segment.maxTimestampSoFar().timestamp()));
        }
        return closedSegments;
    }

    /** The steps of a swap after its commit point, where a crash may stop it. */
    enum SwapStep { COMMITTED, OLD_SEGMENTS_RETIRED, RENAMED }

    /** Told each {@link SwapStep} a swap reaches; a test stops the swap there as a crash would. */
    void onSwapStep(Consumer<SwapStep> listener) {
        swapSteps = listener;
    }

    /** See {@link PartitionLog#swapInCleaned}. Caller holds the append lock. */
    boolean swapInCleaned(List<ClosedSegment> replaced, Path cleaned, List<AbortedTxn> abortedTxns) throws IOException {
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
        Long next = segments.nextBaseOffset(last.baseOffset());
        if (next == null || next != last.endOffset()) {
            Files.deleteIfExists(cleaned);
            return false;
        }
        long base = replaced.get(0).baseOffset();
        Path txnIndexSwap = SegmentFiles.txnIndexSwap(dir, base, last.endOffset());
        if (abortedTxns.isEmpty()) {
            Files.deleteIfExists(txnIndexSwap); // left by a swap that failed before its commit
        } else {
            TransactionIndex.write(txnIndexSwap, abortedTxns); // part of what the commit point below commits
        }
        Files.move(cleaned, SegmentFiles.swap(dir, base, last.endOffset()), StandardCopyOption.ATOMIC_MOVE);
        Utils.flushDir(dir); // the commit point must survive a power loss, not only a process crash
        swapSteps.accept(SwapStep.COMMITTED);
        for (LogSegment segment : old) {
            deleteRetiredFiles(segment.baseOffset());
            segment.markDeleted();
        }
        swapSteps.accept(SwapStep.OLD_SEGMENTS_RETIRED);
        SegmentFiles.finishSwap(dir, base, last.endOffset());
        swapSteps.accept(SwapStep.RENAMED);
        LogSegment segment = LogSegment.open(dir, base, config);
        segment.recover();
        retire(segment);
        segment.flush();
        segments.put(segment);
        for (LogSegment replacedSegment : old) {
            segments.remove(replacedSegment);
        }
        segments.publish();
        old.forEach(this::scheduleFileDeletion);
        return true;
    }

    /** fsyncs everything up to the log end offset and advances the recovery point. */
    void flush() {
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
            Long from = segments.floorBaseOffset(recoveryPoint);
            long started = time.nanoseconds();
            try {
                for (LogSegment segment : segments.between(from == null ? 0L : from, offset)) {
                    segment.flush();
                }
            } catch (IOException e) {
                throw new KafkaStorageException("Flushing " + topicPartition + " failed", e);
            }
            flushTimes.flushed(time.nanoseconds() - started);
            recoveryPoint = offset;
            lastFlushMs = time.milliseconds();
        }
    }

    /** Applies new settings: retention, flush and size limits at once, index sizes from the next roll. */
    void updateConfig(LogConfig newConfig) {
        this.config = newConfig;
        segments.active().updateIndexInterval(newConfig.indexIntervalBytes());
    }

    /** Flushes if asked, then closes every segment's files. Caller holds the append lock. */
    void close(boolean flush) throws IOException {
        if (closed) {
            return;
        }
        if (flush) {
            flush();
        }
        closed = true;
        for (LogSegment segment : segments.all()) {
            segment.close();
        }
    }
}

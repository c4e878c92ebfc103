package io.tributary.broker.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the segments of one partition folder at start-up and, after an unclean stop, recovers them.
 *
 * <ul>
 *   <li>After a clean shutdown nothing is scanned: the first and last entries of each index are checked and only
 *       the bytes after the last index entry of the active segment are read to find the log end offset.</li>
 *   <li>After an unclean stop every segment from the one holding the recovery point onwards is re-validated
 *       batch by batch and its indexes rebuilt; the log is cut at the first invalid byte and later segments are
 *       deleted. What was cut is logged.</li>
 *   <li>A segment with a missing or corrupt index file gets its indexes rebuilt either way.</li>
 * </ul>
 */
final class LogLoader {

    private static final Logger LOG = LoggerFactory.getLogger(LogLoader.class);

    /** The loaded state of a partition. {@code segments} is ordered by base offset and never empty. */
    record LoadedLog(TreeMap<Long, LogSegment> segments, long logEndOffset, long recoveryPoint) {
    }

    private final TopicPartition tp;
    private final Path dir;
    private final LogConfig config;
    private final long nowMs;

    LogLoader(TopicPartition tp, Path dir, LogConfig config, long nowMs) {
        this.tp = tp;
        this.dir = dir;
        this.config = config;
        this.nowMs = nowMs;
    }

    LoadedLog load(long recoveryPoint, boolean cleanShutdown) throws IOException {
        finishInterruptedCleans();
        removeLeftovers();
        TreeMap<Long, LogSegment> segments = new TreeMap<>();
        List<Long> needIndexRebuild = new ArrayList<>();
        List<Long> baseOffsets = segmentBaseOffsets();
        for (int i = 0; i < baseOffsets.size(); i++) {
            long baseOffset = baseOffsets.get(i);
            long nextBaseOffset = i + 1 < baseOffsets.size() ? baseOffsets.get(i + 1) : Long.MAX_VALUE;
            boolean indexesPresent = Files.exists(SegmentFiles.offsetIndex(dir, baseOffset))
                    && Files.exists(SegmentFiles.timeIndex(dir, baseOffset));
            LogSegment segment = LogSegment.open(dir, baseOffset, config);
            segments.put(baseOffset, segment);
            if (!indexesPresent || !indexesSane(segment, nextBaseOffset, cleanShutdown)) {
                needIndexRebuild.add(baseOffset);
            }
        }
        if (segments.isEmpty()) {
            segments.put(0L, LogSegment.create(dir, 0L, config, nowMs));
        }
        long firstToRecover = cleanShutdown ? Long.MAX_VALUE : firstSegmentToRecover(segments, recoveryPoint);
        for (long baseOffset : needIndexRebuild) {
            if (baseOffset < firstToRecover) {
                rebuildIndexes(segments.get(baseOffset));
            }
        }
        if (firstToRecover != Long.MAX_VALUE) {
            recover(segments, firstToRecover);
        }
        LogSegment active = segments.lastEntry().getValue();
        for (LogSegment inactive : segments.headMap(active.baseOffset()).values()) {
            inactive.seal(config.segmentMappings());
        }
        active.resizeIndexes(config.segmentIndexBytes());
        long logEndOffset = active.loadTail();
        return new LoadedLog(segments, logEndOffset, logEndOffset);
    }

    private static long firstSegmentToRecover(TreeMap<Long, LogSegment> segments, long recoveryPoint) {
        Long floor = segments.floorKey(recoveryPoint);
        return floor != null ? floor : segments.firstKey();
    }

    /**
     * After a clean shutdown only the first and last entries are checked, so that start-up reads almost nothing;
     * after an unclean stop every entry is.
     */
    private boolean indexesSane(LogSegment segment, long nextBaseOffset, boolean cleanShutdown) {
        try {
            if (cleanShutdown) {
                segment.offsetIndex().checkEnds(nextBaseOffset, segment.size());
                segment.timeIndex().checkEnds(nextBaseOffset, segment.size());
            } else {
                segment.offsetIndex().sanityCheck(segment.size());
                segment.timeIndex().sanityCheck(segment.size());
            }
            return true;
        } catch (CorruptIndexException e) {
            LOG.warn("Partition {}: rebuilding the indexes of segment {}: {}", tp, segment.baseOffset(),
                    e.getMessage());
            return false;
        }
    }

    private void rebuildIndexes(LogSegment segment) throws IOException {
        LogSegment.RecoveryResult result = segment.recover();
        logTruncation(segment, result);
        segment.onBecomeInactive();
    }

    /** Re-validates the segments from {@code firstBaseOffset} on; drops every segment after a truncated one. */
    private void recover(TreeMap<Long, LogSegment> segments, long firstBaseOffset) throws IOException {
        List<LogSegment> toRecover = new ArrayList<>(segments.tailMap(firstBaseOffset, true).values());
        for (int i = 0; i < toRecover.size(); i++) {
            LogSegment segment = toRecover.get(i);
            LogSegment.RecoveryResult result = segment.recover();
            boolean last = i == toRecover.size() - 1;
            if (result.truncatedBytes() > 0) {
                logTruncation(segment, result);
                for (LogSegment later : toRecover.subList(i + 1, toRecover.size())) {
                    LOG.warn("Partition {}: deleting segment {} ({} bytes) that follows the truncation at offset {}",
                            tp, later.baseOffset(), later.size(), result.nextOffset());
                    segments.remove(later.baseOffset());
                    later.deleteFiles();
                }
                return;
            }
            if (!last) {
                segment.onBecomeInactive();
            }
        }
    }

    private void logTruncation(LogSegment segment, LogSegment.RecoveryResult result) {
        if (result.truncatedBytes() > 0) {
            LOG.warn("Partition {}: truncated {} bytes of segment {} at offset {} (file position {}): {}", tp,
                    result.truncatedBytes(), segment.baseOffset(), result.nextOffset(), result.validBytes(),
                    result.reason());
        }
    }

    private List<Long> segmentBaseOffsets() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(SegmentFiles::baseOffsetOfLog)
                    .filter(OptionalLong::isPresent)
                    .map(OptionalLong::getAsLong)
                    .sorted()
                    .toList();
        }
    }

    /**
     * A crash during compaction leaves either a {@code .cleaned} file (the clean had not committed: the old
     * segments are intact, the file is dropped, with the cleaned {@code .txnindex.swap} if one was written) or a
     * {@code .swap} file (it had: the old segments it replaces are deleted, and it becomes the segment at their base
     * offset with its {@code .txnindex}; its other indexes are rebuilt).
     */
    private void finishInterruptedCleans() throws IOException {
        for (Path file : listing()) {
            if (file.getFileName().toString().endsWith(SegmentFiles.CLEANED_SUFFIX)) {
                Files.deleteIfExists(file);
                continue;
            }
            long[] range = SegmentFiles.swapRange(file);
            if (range == null) {
                continue;
            }
            for (long baseOffset : segmentBaseOffsets()) {
                if (baseOffset >= range[0] && baseOffset < range[1]) {
                    // The log file last: a crash in between leaves it, and so its indexes are deleted next time.
                    Files.deleteIfExists(SegmentFiles.offsetIndex(dir, baseOffset));
                    Files.deleteIfExists(SegmentFiles.timeIndex(dir, baseOffset));
                    Files.deleteIfExists(SegmentFiles.txnIndex(dir, baseOffset));
                    Files.deleteIfExists(SegmentFiles.log(dir, baseOffset));
                }
            }
            SegmentFiles.finishSwap(dir, range[0], range[1]);
            LOG.warn("Partition {}: finished an interrupted clean of the segments from offset {} to {}", tp, range[0],
                    range[1]);
        }
        for (Path file : listing()) {
            if (file.getFileName().toString().endsWith(SegmentFiles.TXN_INDEX_SWAP_SUFFIX)) {
                Files.deleteIfExists(file); // its clean never committed
            }
        }
    }

    private List<Path> listing() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        }
    }

    /** Deletes segment files that retention had renamed, and index files whose log file is gone. */
    private void removeLeftovers() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(SegmentFiles.DELETED_SUFFIX) || isOrphanIndex(name)) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    private boolean isOrphanIndex(String name) {
        for (String suffix : List.of(SegmentFiles.INDEX_SUFFIX, SegmentFiles.TIME_INDEX_SUFFIX, SegmentFiles.TXN_INDEX_SUFFIX)) {
            if (name.endsWith(suffix)) {
                String base = name.substring(0, name.length() - suffix.length());
                return !Files.exists(dir.resolve(base + SegmentFiles.LOG_SUFFIX));
            }
        }
        return false;
    }
}

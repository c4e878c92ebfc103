package io.tributary.broker.log.cleaner;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import io.tributary.broker.log.AbortedTxn;
import io.tributary.broker.log.ClosedSegment;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.PartitionLog;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.internals.BufferSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts the closed segments of one log below its last stable offset: finds the latest offset of every key
 * (aborted records not counted), then copies each group of consecutive segments (at most segment.bytes together)
 * into one cleaned file, keeping only what {@link CompactionFilter} keeps, fsyncs it and has the log swap it in for
 * the originals, with the aborted transactions the cleaned segment's {@code .txnindex} keeps. The active segment
 * is never touched. Not thread-safe: one cleaner per log at a time.
 */
final class Cleaner {
    private static final Logger log = LoggerFactory.getLogger(Cleaner.class);

    private final Time time;
    private final CleanerLogState state;

    Cleaner(Time time, CleanerLogState state) {
        this.time = time;
        this.state = state;
    }

    CleanResult clean(PartitionLog partitionLog) {
        LogConfig config = partitionLog.config();
        long now = time.milliseconds();
        List<ClosedSegment> closed = CleanableSegments.of(partitionLog.closedSegments(),
                state.lastStableOffset(partitionLog), config, now);
        if (closed.isEmpty()) {
            return new CleanResult(partitionLog.logStartOffset(), 0, 0, Long.MAX_VALUE, true);
        }
        List<AbortedTxn> aborted = partitionLog.abortedTxns(closed.get(0).baseOffset(),
                closed.get(closed.size() - 1).endOffset());
        LatestOffsets latest = LatestOffsets.of(closed, aborted);
        CleanedTransactions transactions = new CleanedTransactions(aborted);
        CompactionFilter filter = new CompactionFilter(latest, transactions,
                new ProducerLastBatches(state.lastRecords(partitionLog)), now, config.deleteRetentionMs());
        long read = 0;
        long written = 0;
        boolean swapped = true;
        for (List<ClosedSegment> group : groups(closed, config.segmentBytes())) {
            Path cleaned = partitionLog.cleanedFile(group.get(0).baseOffset(), group.get(group.size() - 1).endOffset());
            try {
                written += writeCleaned(group, filter, cleaned, config.maxMessageBytes());
            } catch (IOException e) {
                deleteQuietly(cleaned);
                throw new KafkaStorageException("Cleaning " + partitionLog.topicPartition() + " failed", e);
            }
            read += group.stream().mapToLong(s -> s.records().sizeInBytes()).sum();
            swapped &= partitionLog.swapInCleaned(group, cleaned, transactions.takeIndexEntries());
        }
        long end = closed.get(closed.size() - 1).endOffset();
        log.info("cleaned {} up to offset {}: {} keys, {} bytes to {}", partitionLog.topicPartition(), end, latest.size(),
                read, written);
        return new CleanResult(end, read, written, filter.earliestRetainedHorizonMs(), swapped);
    }

    /** Consecutive segments that fit one segment together: at most segment.bytes and 2^31 offsets apart. */
    static List<List<ClosedSegment>> groups(List<ClosedSegment> closed, int segmentBytes) {
        List<List<ClosedSegment>> groups = new ArrayList<>();
        List<ClosedSegment> current = new ArrayList<>();
        long size = 0;
        for (ClosedSegment segment : closed) {
            boolean fits = size + segment.records().sizeInBytes() <= segmentBytes
                    && !current.isEmpty() && segment.endOffset() - 1 - current.get(0).baseOffset() <= Integer.MAX_VALUE;
            if (!current.isEmpty() && !fits) {
                groups.add(current);
                current = new ArrayList<>();
                size = 0;
            }
            current.add(segment);
            size += segment.records().sizeInBytes();
        }
        groups.add(current);
        return groups;
    }

    /** Writes what the filter keeps of the segments' batches to {@code target} and fsyncs it; returns its size. */
    static long writeCleaned(List<ClosedSegment> group, CompactionFilter filter, Path target, int maxMessageBytes)
            throws IOException {
        Files.deleteIfExists(target);
        try (FileRecords out = FileRecords.open(target.toFile(), false, 0, false)) {
            for (ClosedSegment segment : group) {
                for (FileChannelRecordBatch batch : segment.records().batches()) {
                    ByteBuffer original = ByteBuffer.allocate(batch.sizeInBytes());
                    batch.writeTo(original);
                    original.flip();
                    ByteBuffer kept = MemoryRecords.readableRecords(original).filterTo(filter,
                            ByteBuffer.allocate(original.capacity()), BufferSupplier.NO_CACHING,
                            Math.max(maxMessageBytes, original.capacity())).outputBuffer();
                    kept.flip();
                    if (kept.hasRemaining()) {
                        out.append(MemoryRecords.readableRecords(kept));
                    }
                }
            }
            out.flush();
            return out.sizeInBytes();
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.warn("could not delete {}", file, e);
        }
    }
}

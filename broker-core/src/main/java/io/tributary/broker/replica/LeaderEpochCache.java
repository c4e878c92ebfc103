package io.tributary.broker.replica;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;
import io.tributary.broker.log.FetchDataInfo;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.log.remote.LeaderEpochCheckpoint;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which leader epoch wrote which offsets of one partition (KIP-101): epoch → first offset of that
 * epoch. A follower asks its leader where its own latest epoch ends there (OffsetForLeaderEpoch)
 * and truncates to that point, never to its high watermark.
 *
 * <p>File {@code <partition dir>/leader-epoch-checkpoint} (wherever a move between log dirs has put the folder), Kafka's
 * text layout: a version line
 * ({@code 0}), an entry count line, then one {@code <epoch> <start offset>} line per epoch, oldest
 * first. Written atomically (temporary file, fsync, rename) on every change; epochs change rarely.
 * A missing file is rebuilt from the batches' partition leader epochs; entries at or beyond the log
 * end (a crash cut the log) are dropped on load. Thread-safe.
 *
 * <p>The first file a partition gets is not synced: if a crash loses it, the file is missing or
 * unreadable and is rebuilt from the batches, which is what it said. Later writes must be synced, as
 * a crash could otherwise leave an older, readable file behind. So creating a topic of 50 partitions
 * costs no epoch-file syncs, which on a busy disk can take a second each.
 */
public final class LeaderEpochCache {
    static final String FILE_NAME = "leader-epoch-checkpoint";
    private static final Logger log = LoggerFactory.getLogger(LeaderEpochCache.class);
    private static final int READ_CHUNK_BYTES = 1024 * 1024;

    private final PartitionLog partitionLog;
    private final TreeMap<Integer, Long> startOffsets = new TreeMap<>();
    /** Whether a file may be on disk that a load would trust: then every write is synced. */
    private boolean fileMayBeOnDisk;

    /** The end of a leader epoch: the epoch found (the latest at or below the one asked) and its end offset; -1, -1 if none. */
    public record EpochEnd(int epoch, long endOffset) {
        public static final EpochEnd UNDEFINED = new EpochEnd(-1, -1);
    }

    private LeaderEpochCache(PartitionLog partitionLog) {
        this.partitionLog = partitionLog;
        this.fileMayBeOnDisk = Files.exists(file());
    }

    private Path file() {
        return partitionLog.dir().resolve(FILE_NAME);
    }

    /** Loads the cache of {@code partitionLog}, rebuilding it from the log if the file is missing or unreadable. */
    public static LeaderEpochCache load(PartitionLog partitionLog) {
        LeaderEpochCache cache = new LeaderEpochCache(partitionLog);
        if (!cache.read()) {
            cache.rebuild(partitionLog);
        }
        cache.truncateFromEnd(partitionLog.logEndOffset());
        return cache;
    }

    /**
     * The cache of {@code copy}, a copy of this log's records in another folder (a move between log dirs): the same
     * epochs, the leader's own epoch with no records yet included, written to its folder (synced) now.
     */
    synchronized LeaderEpochCache copyTo(PartitionLog copy) {
        LeaderEpochCache cache = new LeaderEpochCache(copy);
        cache.startOffsets.putAll(startOffsets);
        cache.fileMayBeOnDisk = true; // a crash right after the move must find it
        cache.write();
        return cache;
    }

    private boolean read() {
        Path file = file();
        if (!Files.exists(file)) {
            return false;
        }
        try {
            startOffsets.putAll(LeaderEpochCheckpoint.decode(Files.readString(file, StandardCharsets.UTF_8)));
            return true;
        } catch (IOException | RuntimeException e) {
            log.warn("unreadable {}, rebuilding it from the log: {}", file(), e.toString());
            startOffsets.clear();
            return false;
        }
    }

    private void rebuild(PartitionLog partitionLog) {
        long offset = partitionLog.localLogStartOffset();
        long end = partitionLog.logEndOffset();
        while (offset < end) {
            FetchDataInfo chunk = partitionLog.read(offset, READ_CHUNK_BYTES, end, true);
            long before = offset;
            for (RecordBatch batch : chunk.records().batches()) {
                if (batch.partitionLeaderEpoch() > latestEpoch()) {
                    startOffsets.put(batch.partitionLeaderEpoch(), batch.baseOffset());
                }
                offset = batch.nextOffset();
            }
            if (offset == before) {
                break;
            }
        }
        if (!startOffsets.isEmpty() || fileMayBeOnDisk) {
            write(); // a new, empty log needs no file: a missing one rebuilds to the same nothing
        }
    }

    /** The latest epoch, or -1 if none is known. */
    public synchronized int latestEpoch() {
        return startOffsets.isEmpty() ? -1 : startOffsets.lastKey();
    }

    /** Records that {@code epoch} starts at {@code startOffset}, if it is newer than every epoch known. */
    public synchronized void assign(int epoch, long startOffset) {
        if (epoch < 0 || epoch <= latestEpoch()) {
            return;
        }
        startOffsets.put(epoch, startOffset);
        write();
    }

    /**
     * Where {@code requestedEpoch} ends in this log, as Kafka's leader epoch cache answers: the latest epoch ends at
     * {@code logEndOffset}; an older one ends where the first epoch above it starts, reported as the latest known epoch
     * at or below it or, if this log knows none that old (retention, DeleteRecords or a restart at the leader's log start
     * dropped them), as the requested epoch itself: what this log holds starts there, and a follower or a consumer
     * (KIP-320) asking must keep what it has up to that point, not take it for a truncation. {@link EpochEnd#UNDEFINED}
     * for an undefined epoch, or one newer than every epoch known.
     */
    public synchronized EpochEnd endOffsetFor(int requestedEpoch, long logEndOffset) {
        if (requestedEpoch == RecordBatch.NO_PARTITION_LEADER_EPOCH) {
            return EpochEnd.UNDEFINED;
        }
        if (requestedEpoch == latestEpoch()) {
            return new EpochEnd(requestedEpoch, logEndOffset);
        }
        Map.Entry<Integer, Long> higher = startOffsets.higherEntry(requestedEpoch);
        if (higher == null) {
            return EpochEnd.UNDEFINED;
        }
        Integer floor = startOffsets.floorKey(requestedEpoch);
        return new EpochEnd(floor == null ? requestedEpoch : floor, higher.getValue());
    }

    /** Forgets the epochs that start at or after {@code offset} (the log was truncated there). */
    public synchronized void truncateFromEnd(long offset) {
        boolean changed = startOffsets.values().removeIf(start -> start >= offset);
        if (changed) {
            write();
        }
    }

    /** Forgets every epoch (the log was emptied). */
    public synchronized void clear() {
        truncateFromEnd(Long.MIN_VALUE);
    }

    synchronized Map<Integer, Long> entries() {
        return new TreeMap<>(startOffsets);
    }

    private void write() {
        Path file = file();
        Path temporary = file.resolveSibling(FILE_NAME + ".tmp");
        try {
            Files.writeString(temporary, LeaderEpochCheckpoint.encode(startOffsets), StandardCharsets.UTF_8);
            if (fileMayBeOnDisk) {
                try (var channel = java.nio.channels.FileChannel.open(temporary, java.nio.file.StandardOpenOption.WRITE)) {
                    channel.force(true);
                }
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            fileMayBeOnDisk = true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}

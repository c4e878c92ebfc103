package io.tributary.hadoop.input;

import io.tributary.hadoop.tiered.AbortedTransaction;
import io.tributary.hadoop.tiered.ManifestSegment;
import io.tributary.hadoop.tiered.ManifestStore;
import io.tributary.hadoop.tiered.PartitionManifest;
import io.tributary.hadoop.tiered.SegmentFile;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cuts the tiered parts of a {@link LoadPlan} into {@link TieredSplit}s: the ranges of the segment copies the
 * partition's newest manifest lists over the part, packed in offset order into splits of at most
 * {@link SplitLimits#maxOffsets} offsets (a larger copy cut into pieces), each preferring the hosts that hold most of
 * its copies' blocks. For read_committed, each split carries the aborted transactions that overlap it: from the
 * copies' {@code .txnindex} files and the manifest's list of those whose markers lie beyond the tiered part. Offsets
 * the manifest no longer covers (remote retention ran since planning) are read from a copy that does not exist,
 * which the reader reports as lost, as the brokers' readers do.
 */
final class TieredSplitPlanner {
    /** The folder of offsets no copy holds any more. */
    static final String NO_COPY = "no-copy";
    private static final int MAX_HOSTS = 3;

    private final ManifestStore store;
    private final FileSystem fs;
    private final SplitLimits limits;
    private final boolean readCommitted;

    TieredSplitPlanner(ManifestStore store, FileSystem fs, SplitLimits limits, boolean readCommitted) {
        this.store = store;
        this.fs = fs;
        this.limits = limits;
        this.readCommitted = readCommitted;
    }

    /** A range of one copy, what it is about in bytes, and where the copy's blocks lie (bytes per host). */
    private record Piece(TieredSplit.CopyRange copy, long bytes, Map<String, Long> hostBytes) {
    }

    List<TieredSplit> split(LoadPlan plan) throws IOException {
        List<TieredSplit> splits = new ArrayList<>();
        for (LoadPlan.Partition p : plan.partitions()) {
            OffsetRange tiered = p.tieredRange();
            if (tiered.isEmpty()) {
                continue;
            }
            PartitionManifest manifest = store.read(plan.topic(), tiered.partition());
            List<AbortedTransaction> aborted = readCommitted ? aborted(manifest) : List.of();
            long step = limits.maxOffsets(p.avgRecordBytes());
            List<Piece> pack = new ArrayList<>();
            long packed = 0;
            for (Piece piece : pieces(plan.topic(), manifest, tiered, step)) {
                if (packed + piece.copy().range().span() > step && !pack.isEmpty()) {
                    splits.add(split(plan.topic(), pack, aborted));
                    pack = new ArrayList<>();
                    packed = 0;
                }
                pack.add(piece);
                packed += piece.copy().range().span();
            }
            if (!pack.isEmpty()) {
                splits.add(split(plan.topic(), pack, aborted));
            }
        }
        return splits;
    }

    /** The part's offsets as ranges of copies, none longer than {@code step}; a gap is a range of {@link #NO_COPY}. */
    private List<Piece> pieces(String topic, PartitionManifest manifest, OffsetRange tiered, long step) throws IOException {
        List<Piece> pieces = new ArrayList<>();
        long covered = tiered.start();
        for (ManifestSegment segment : manifest.segments()) {
            long from = Math.max(segment.startOffset(), tiered.start());
            long to = Math.min(segment.endOffset(), tiered.end());
            if (from >= to) {
                continue;
            }
            if (from > covered) {
                pieces.add(missing(tiered.partition(), covered, from));
            }
            Map<String, Long> hosts = hostBytes(store.layout().file(topic, tiered.partition(), segment, SegmentFile.LOG));
            for (long start = from; start < to; start += step) {
                OffsetRange range = new OffsetRange(tiered.partition(), start, Math.min(to, start + step));
                long bytes = segment.sizeInBytes() * range.span() / Math.max(1, segment.endOffset() - segment.baseOffset());
                pieces.add(new Piece(new TieredSplit.CopyRange(segment.location(), segment.baseOffset(), range), bytes, hosts));
            }
            covered = to;
        }
        if (covered < tiered.end()) {
            pieces.add(missing(tiered.partition(), covered, tiered.end()));
        }
        return pieces;
    }

    private static Piece missing(int partition, long start, long end) {
        return new Piece(new TieredSplit.CopyRange(NO_COPY, start, new OffsetRange(partition, start, end)), 0, Map.of());
    }

    private static TieredSplit split(String topic, List<Piece> pieces, List<AbortedTransaction> aborted) {
        Map<String, Long> hostBytes = new HashMap<>();
        pieces.forEach(piece -> piece.hostBytes().forEach((host, bytes) -> hostBytes.merge(host, bytes, Long::sum)));
        List<String> hosts = hostBytes.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
            .thenComparing(Map.Entry.comparingByKey())).limit(MAX_HOSTS).map(Map.Entry::getKey).toList();
        OffsetRange range = new OffsetRange(pieces.get(0).copy().range().partition(), pieces.get(0).copy().range().start(),
            pieces.get(pieces.size() - 1).copy().range().end());
        return new TieredSplit(topic, pieces.stream().map(Piece::copy).toList(), hosts,
            pieces.stream().mapToLong(Piece::bytes).sum(), overlapping(aborted, range));
    }

    /** Every aborted transaction the manifest's copies index, and those whose markers lie beyond them. */
    private List<AbortedTransaction> aborted(PartitionManifest manifest) throws IOException {
        List<AbortedTransaction> aborted = new ArrayList<>(manifest.abortedAcrossEnd());
        for (ManifestSegment segment : manifest.segments()) {
            if (segment.txnIndex()) {
                Path index = store.layout().file(manifest.topic(), manifest.partition(), segment, SegmentFile.TXN_INDEX);
                try (FSDataInputStream in = fs.open(index)) {
                    aborted.addAll(AbortedTransaction.readIndex(ByteBuffer.wrap(in.readAllBytes())));
                }
            }
        }
        return aborted;
    }

    private static List<AbortedTransaction> overlapping(List<AbortedTransaction> aborted, OffsetRange range) {
        return aborted.stream().filter(t -> t.firstOffset() < range.end() && t.lastOffset() >= range.start()).distinct().toList();
    }

    /** The bytes of the file each host holds. */
    private Map<String, Long> hostBytes(Path file) throws IOException {
        FileStatus status = fs.getFileStatus(file);
        Map<String, Long> bytes = new HashMap<>();
        for (BlockLocation block : fs.getFileBlockLocations(status, 0, status.getLen())) {
            for (String host : block.getHosts()) {
                bytes.merge(host, block.getLength(), Long::sum);
            }
        }
        return bytes;
    }
}

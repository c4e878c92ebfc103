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
 * Cuts the tiered parts of a {@link LoadPlan} into {@link TieredSplit}s: one per segment copy the partition's newest
 * manifest lists over the part (pieces of at most {@link SplitLimits#maxOffsets} offsets of a larger one), each
 * preferring the hosts that hold most of the copy's blocks. For read_committed, each split carries the aborted
 * transactions that overlap it: from the copies' {@code .txnindex} files and the manifest's list of those whose
 * markers lie beyond the tiered part. An offset the manifest no longer covers (remote retention ran since planning)
 * gets a split of a copy that does not exist, which its reader reports as lost, as the brokers' readers do.
 */
final class TieredSplitPlanner {
    /** The folder of a split whose offsets no copy holds any more. */
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

    List<TieredSplit> split(LoadPlan plan) throws IOException {
        List<TieredSplit> splits = new ArrayList<>();
        for (LoadPlan.Partition p : plan.partitions()) {
            OffsetRange tiered = p.tieredRange();
            if (tiered.isEmpty()) {
                continue;
            }
            PartitionManifest manifest = store.read(plan.topic(), tiered.partition());
            List<AbortedTransaction> aborted = readCommitted ? aborted(manifest) : List.of();
            long covered = tiered.start();
            for (ManifestSegment segment : manifest.segments()) {
                long from = Math.max(segment.startOffset(), tiered.start());
                long to = Math.min(segment.endOffset(), tiered.end());
                if (from >= to) {
                    continue;
                }
                if (from > covered) {
                    splits.add(missing(plan.topic(), new OffsetRange(tiered.partition(), covered, from)));
                }
                List<String> hosts = hosts(store.layout().file(plan.topic(), tiered.partition(), segment, SegmentFile.LOG));
                long step = limits.maxOffsets(p.avgRecordBytes());
                for (long start = from; start < to; start += step) {
                    OffsetRange range = new OffsetRange(tiered.partition(), start, Math.min(to, start + step));
                    long bytes = segment.sizeInBytes() * range.span() / Math.max(1, segment.endOffset() - segment.baseOffset());
                    splits.add(new TieredSplit(plan.topic(), range, segment.location(), segment.baseOffset(), hosts, bytes,
                        overlapping(aborted, range)));
                }
                covered = to;
            }
            if (covered < tiered.end()) {
                splits.add(missing(plan.topic(), new OffsetRange(tiered.partition(), covered, tiered.end())));
            }
        }
        return splits;
    }

    private static TieredSplit missing(String topic, OffsetRange range) {
        return new TieredSplit(topic, range, NO_COPY, range.start(), List.of(), 0, List.of());
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

    /** The hosts that hold most of the file's bytes, most first. */
    private List<String> hosts(Path file) throws IOException {
        FileStatus status = fs.getFileStatus(file);
        Map<String, Long> bytes = new HashMap<>();
        for (BlockLocation block : fs.getFileBlockLocations(status, 0, status.getLen())) {
            for (String host : block.getHosts()) {
                bytes.merge(host, block.getLength(), Long::sum);
            }
        }
        return bytes.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
            .thenComparing(Map.Entry.comparingByKey())).limit(MAX_HOSTS).map(Map.Entry::getKey).toList();
    }
}

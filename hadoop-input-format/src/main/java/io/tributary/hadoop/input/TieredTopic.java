package io.tributary.hadoop.input;

import io.tributary.hadoop.dataset.LostRange;
import io.tributary.hadoop.dataset.MissingPolicy;
import io.tributary.hadoop.tiered.ManifestStore;
import io.tributary.hadoop.tiered.PartitionManifest;
import io.tributary.hadoop.tiered.TieredLayout;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What tiered storage holds of one topic, as the partitions' newest manifests say at planning: where each tiered
 * part ends, and a plan of those parts alone for when the brokers cannot be reached. The partitions are the
 * {@code <topic>-<n>} folders of the layout.
 */
public final class TieredTopic {
    private final String topic;
    private final Map<Integer, PartitionManifest> manifests;

    private TieredTopic(String topic, Map<Integer, PartitionManifest> manifests) {
        this.topic = topic;
        this.manifests = manifests;
    }

    /** The manifests of {@code topic} below {@code uri} (the brokers' {@code remote.log.storage.hdfs.uri}). */
    public static TieredTopic read(Configuration conf, String uri, String topic) throws IOException {
        Path root = new Path(uri);
        FileSystem fs = root.getFileSystem(conf);
        ManifestStore store = new ManifestStore(fs, new TieredLayout(fs.makeQualified(root)));
        Map<Integer, PartitionManifest> manifests = new TreeMap<>();
        FileStatus[] listing;
        try {
            listing = fs.listStatus(root);
        } catch (FileNotFoundException nothingTiered) {
            listing = new FileStatus[0];
        }
        for (FileStatus status : listing) {
            String name = status.getPath().getName();
            String suffix = name.startsWith(topic + "-") ? name.substring(topic.length() + 1) : "";
            if (status.isDirectory() && !suffix.isEmpty() && suffix.chars().allMatch(Character::isDigit)) {
                int partition = Integer.parseInt(suffix);
                manifests.put(partition, store.read(topic, partition));
            }
        }
        return new TieredTopic(topic, manifests);
    }

    /** Per partition that has any, the offset after the last one tiered storage holds. */
    public Map<Integer, Long> endOffsets() {
        Map<Integer, Long> ends = new TreeMap<>();
        manifests.forEach((partition, manifest) -> {
            if (manifest.endOffset() >= 0) {
                ends.put(partition, manifest.endOffset());
            }
        });
        return ends;
    }

    /**
     * The plan of the tiered parts alone: from each partition's start to where tiered storage ends. Only start
     * positions tiered storage can answer work here (the ledger, earliest, explicit offsets).
     *
     * @throws LostRangeException if a start lies below what tiered storage still holds and {@code onMissing} is FAIL
     */
    public LoadPlan planWithoutBrokers(StartPosition start, RangePlanner.LedgerLookup ledger, MissingPolicy onMissing)
            throws IOException {
        Map<Integer, Long> starts = start.resolve(new StartPosition.PartitionOffsets() {
            @Override
            public Map<Integer, Long> earliest() {
                Map<Integer, Long> earliest = new TreeMap<>();
                manifests.forEach((p, m) -> earliest.put(p, Math.max(0, m.startOffset())));
                return earliest;
            }

            @Override
            public Map<Integer, Long> latest() {
                return endOffsets();
            }

            @Override
            public Map<Integer, Long> committed(String groupId) throws IOException {
                throw new IOException("the start position group:" + groupId + " needs the brokers, which are unreachable");
            }

            @Override
            public Map<Integer, Long> forTimestamp(long timestampMs) throws IOException {
                throw new IOException("a start position by timestamp needs the brokers, which are unreachable");
            }

            @Override
            public Map<Integer, Long> ledger() throws IOException {
                return ledger.resumeOffsets(Optional.empty()); // no broker to ask the topic's id
            }
        });
        List<LoadPlan.Partition> partitions = new ArrayList<>();
        starts.forEach((partition, from) -> {
            PartitionManifest manifest = manifests.get(partition);
            long end = manifest == null ? from : Math.max(from, manifest.endOffset());
            partitions.add(new LoadPlan.Partition(new OffsetRange(partition, from, end), "", 0, end, end));
        });
        for (LoadPlan.Partition p : partitions) {
            long first = manifests.get(p.range().partition()) == null ? p.range().start()
                : manifests.get(p.range().partition()).startOffset();
            if (p.range().start() < first && onMissing == MissingPolicy.FAIL) {
                throw new LostRangeException(new LostRange(topic, p.range().partition(), p.range().start(),
                    Math.min(first, p.range().end())));
            }
        }
        return new LoadPlan(topic, partitions, true);
    }
}

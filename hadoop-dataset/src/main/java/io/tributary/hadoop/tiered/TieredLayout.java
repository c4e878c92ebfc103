package io.tributary.hadoop.tiered;

import org.apache.hadoop.fs.Path;

import java.util.Locale;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Where tiered logs keep their remote part, below the broker's {@code remote.log.storage.hdfs.uri}:
 * <pre>
 * &lt;root&gt;/&lt;topic&gt;-&lt;partition&gt;/                         one folder per partition
 *     manifest/&lt;20-digit version&gt;                   the {@link PartitionManifest} versions ({@link ManifestStore})
 *     &lt;20-digit base offset&gt;-&lt;id&gt;/                    one folder per segment copy, its files named as the
 *         00000000000000001000.log, .index, ...      broker's local ones ({@link SegmentFile})
 * </pre>
 * A copy gets a folder of its own, which no other copy ever writes: a leader that lost its leadership while copying
 * can never overwrite a copy another one listed. The manifest decides which folders count; one it does not list is
 * a copy that a crash or a fenced leader left, and the next leader deletes it. This layout and the manifest's text
 * are the contract between the broker (remote-storage-hdfs) and the readers of tiered segments (the loader).
 */
public final class TieredLayout {
    private static final String MANIFEST_DIR = "manifest";

    private final Path root;

    public TieredLayout(Path root) {
        this.root = root;
    }

    public Path partitionDir(String topic, int partition) {
        return new Path(root, topic + "-" + partition);
    }

    public Path manifestDir(String topic, int partition) {
        return new Path(partitionDir(topic, partition), MANIFEST_DIR);
    }

    /** The folder of the copy at {@code location}. */
    public Path copyDir(String topic, int partition, String location) {
        return new Path(partitionDir(topic, partition), location);
    }

    /** One file of a listed copy. */
    public Path file(String topic, int partition, ManifestSegment segment, SegmentFile file) {
        return new Path(copyDir(topic, partition, segment.location()), file.fileName(segment));
    }

    /** A new copy folder's name for a segment at {@code baseOffset}: its base offset and a random id. */
    public static String newLocation(long baseOffset) {
        return SegmentFile.offsetName(baseOffset) + "-" + UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT);
    }

    /** The base offset in a copy folder's name; empty for any other name (the manifest folder). */
    public static OptionalLong baseOffsetOf(String location) {
        if (location.length() < 22 || location.charAt(20) != '-' || !location.substring(0, 20).chars().allMatch(Character::isDigit)) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Long.parseLong(location.substring(0, 20)));
    }
}

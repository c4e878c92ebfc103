package io.tributary.hadoop.tiered;

import io.tributary.hadoop.dataset.DurableFiles;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The {@link PartitionManifest} versions of the partitions under one {@link TieredLayout}, as the offset ledger keeps
 * its own: immutable numbered files {@code manifest/<20-digit version>}, each the whole manifest, created only if
 * absent ({@link DurableFiles#createOnce}: complete or not there at all, on HDFS and on the local filesystem). So a
 * commit is a compare-and-set on any Hadoop FileSystem: version {@code n + 1} is created by whoever comes first after
 * reading version {@code n}. A reader takes the newest listed version and then opens {@code n + 1, n + 2, ...} until
 * one is absent, so it never depends on a listing being atomic. Writers delete the versions more than
 * {@value #KEPT_VERSIONS} behind, lowest first. Thread-safe.
 */
public final class ManifestStore {
    /** Versions kept behind the newest; a reader that far behind lists again. */
    static final int KEPT_VERSIONS = 10;
    private static final int MAX_ATTEMPTS = 100;

    private final FileSystem fs;
    private final TieredLayout layout;

    public ManifestStore(FileSystem fs, TieredLayout layout) {
        this.fs = fs;
        this.layout = layout;
    }

    public TieredLayout layout() {
        return layout;
    }

    Path version(String topic, int partition, long version) {
        return new Path(layout.manifestDir(topic, partition), SegmentFile.offsetName(version));
    }

    /** The newest manifest of a partition; {@link PartitionManifest#empty} (version 0) if none was committed. */
    public PartitionManifest read(String topic, int partition) throws IOException {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            OptionalLong listed = newestListed(topic, partition);
            if (listed.isEmpty()) {
                return PartitionManifest.empty(topic, partition);
            }
            Optional<PartitionManifest> newest = read(topic, partition, listed.getAsLong());
            if (newest.isEmpty()) {
                continue; // pruned since the listing
            }
            for (Optional<PartitionManifest> next; (next = read(topic, partition, newest.get().version() + 1)).isPresent(); ) {
                newest = next;
            }
            return newest.get();
        }
        throw new IOException("the manifest of " + topic + "-" + partition + " changed under " + MAX_ATTEMPTS + " reads in a row");
    }

    private Optional<PartitionManifest> read(String topic, int partition, long version) throws IOException {
        Path file = version(topic, partition, version);
        Optional<byte[]> bytes = DurableFiles.readIfPresent(fs, file);
        if (bytes.isEmpty()) {
            return Optional.empty();
        }
        try {
            PartitionManifest manifest = PartitionManifest.parse(new String(bytes.get(), StandardCharsets.UTF_8), version);
            if (!manifest.topic().equals(topic) || manifest.partition() != partition) {
                throw new IllegalArgumentException("it is the manifest of " + manifest.topic() + "-" + manifest.partition());
            }
            return Optional.of(manifest);
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt manifest " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Compare-and-set: creates version {@code expected.version() + 1} with {@code next} unless it exists.
     *
     * @return {@code next} as the version created, or empty if another writer created that version first
     */
    public Optional<PartitionManifest> commit(PartitionManifest expected, PartitionManifest next) throws IOException {
        String topic = expected.topic();
        int partition = expected.partition();
        long created = expected.version() + 1;
        Path file = version(topic, partition, created);
        if (!DurableFiles.createOnce(fs, file, next.encode().getBytes(StandardCharsets.UTF_8))) {
            return Optional.empty();
        }
        if (!stillInTheChain(topic, partition, expected.version())) {
            // So far behind that pruning had freed the name: this version is an orphan below the newest.
            fs.delete(file, false);
            return Optional.empty();
        }
        if (created % (KEPT_VERSIONS / 2) == 0) {
            prune(topic, partition, created - KEPT_VERSIONS);
        }
        return Optional.of(next.withVersion(created));
    }

    /** Whether {@code previous} is still there, so no name above it was ever pruned (pruning deletes lowest first). */
    private boolean stillInTheChain(String topic, int partition, long previous) throws IOException {
        if (previous > 0) {
            return fs.exists(version(topic, partition, previous));
        }
        return newestListed(topic, partition).orElse(0) <= KEPT_VERSIONS + 1;
    }

    private void prune(String topic, int partition, long oldestKept) throws IOException {
        for (long version : versions(topic, partition).keySet()) {
            if (version >= oldestKept) {
                break;
            }
            fs.delete(version(topic, partition, version), false);
        }
    }

    private OptionalLong newestListed(String topic, int partition) throws IOException {
        TreeMap<Long, Path> versions = versions(topic, partition);
        return versions.isEmpty() ? OptionalLong.empty() : OptionalLong.of(versions.lastKey());
    }

    private TreeMap<Long, Path> versions(String topic, int partition) throws IOException {
        TreeMap<Long, Path> versions = new TreeMap<>();
        FileStatus[] listing;
        try {
            listing = fs.listStatus(layout.manifestDir(topic, partition));
        } catch (FileNotFoundException neverWritten) {
            return versions;
        }
        for (FileStatus status : listing) {
            String name = status.getPath().getName();
            if (name.length() == 20 && name.chars().allMatch(Character::isDigit)) {
                versions.put(Long.parseLong(name), status.getPath());
            }
        }
        return versions;
    }
}

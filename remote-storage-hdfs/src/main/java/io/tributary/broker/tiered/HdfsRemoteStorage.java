package io.tributary.broker.tiered;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.tributary.broker.log.ClosedSegmentFiles;
import io.tributary.broker.log.remote.RemoteFile;
import io.tributary.broker.log.remote.RemoteLogMetadata;
import io.tributary.broker.log.remote.RemoteSegment;
import io.tributary.broker.log.remote.RemoteStorage;
import io.tributary.hadoop.dataset.DurableFiles;
import io.tributary.hadoop.tiered.ManifestStore;
import io.tributary.hadoop.tiered.PartitionManifest;
import io.tributary.hadoop.tiered.SegmentFile;
import io.tributary.hadoop.tiered.TieredLayout;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.common.TopicPartition;

/**
 * The broker's {@link RemoteStorage} on any Hadoop FileSystem, in the layout of {@link TieredLayout}: each segment copy
 * in a folder of its own, its files written and synced ({@code hsync}) before anything lists them; the metadata as
 * {@link PartitionManifest} versions in a {@link ManifestStore}, each commit a compare-and-set. Reads are positioned
 * reads of open streams that {@link OpenFiles} keeps (copies never change). Thread-safe.
 */
public final class HdfsRemoteStorage implements RemoteStorage {
    private final FileSystem fs;
    private final TieredLayout layout;
    private final ManifestStore manifests;
    private final OpenFiles openFiles;

    HdfsRemoteStorage(FileSystem fs, Path root) {
        this.fs = fs;
        this.layout = new TieredLayout(fs.makeQualified(root));
        this.manifests = new ManifestStore(fs, layout);
        this.openFiles = new OpenFiles(fs);
    }

    /**
     * The storage below {@code uri}, on a FileSystem instance of its own. Hadoop's settings come from the
     * {@code *-site.xml} files on this module's class path (HADOOP_CONF_DIR); its FileSystem implementations are found
     * with this module's class loader, which the broker may have given it apart from its own.
     */
    static HdfsRemoteStorage open(String uri) throws IOException {
        ClassLoader own = HdfsRemoteStorage.class.getClassLoader();
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(own);
        try {
            Configuration conf = new Configuration();
            conf.setClassLoader(own);
            URI root = URI.create(uri);
            return new HdfsRemoteStorage(FileSystem.newInstance(root, conf), new Path(root));
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    @Override
    public RemoteLogMetadata metadata(TopicPartition tp) throws IOException {
        return ManifestMapping.toMetadata(manifests.read(tp.topic(), tp.partition()));
    }

    @Override
    public String copy(TopicPartition tp, ClosedSegmentFiles segment, byte[] leaderEpochCheckpoint,
                       Optional<byte[]> producerSnapshot) throws IOException {
        String location = TieredLayout.newLocation(segment.baseOffset());
        Path dir = layout.copyDir(tp.topic(), tp.partition(), location);
        if (!fs.mkdirs(dir)) {
            throw new IOException("cannot create " + dir);
        }
        long base = segment.baseOffset();
        long end = segment.endOffset();
        copyFile(segment.log(), new Path(dir, SegmentFile.LOG.fileName(base, end)));
        copyFile(segment.offsetIndex(), new Path(dir, SegmentFile.OFFSET_INDEX.fileName(base, end)));
        copyFile(segment.timeIndex(), new Path(dir, SegmentFile.TIME_INDEX.fileName(base, end)));
        if (segment.txnIndex().isPresent()) {
            copyFile(segment.txnIndex().get(), new Path(dir, SegmentFile.TXN_INDEX.fileName(base, end)));
        }
        if (producerSnapshot.isPresent()) {
            DurableFiles.write(fs, new Path(dir, SegmentFile.PRODUCER_SNAPSHOT.fileName(base, end)), producerSnapshot.get(),
                    false);
        }
        DurableFiles.write(fs, new Path(dir, SegmentFile.LEADER_EPOCH_CHECKPOINT.fileName(base, end)), leaderEpochCheckpoint,
                false);
        DurableFiles.syncDirectory(fs, dir);
        return location;
    }

    private void copyFile(java.nio.file.Path local, Path remote) throws IOException {
        FSDataOutputStream out = fs.create(remote, false);
        try (InputStream in = Files.newInputStream(local)) {
            in.transferTo(out);
        } catch (IOException e) {
            out.close();
            throw e;
        }
        DurableFiles.syncAndClose(fs, remote, out);
    }

    @Override
    public RemoteLogMetadata commit(TopicPartition tp, RemoteLogMetadata expected, RemoteLogMetadata next) throws IOException {
        Optional<PartitionManifest> committed = manifests.commit(ManifestMapping.toManifest(tp, expected),
                ManifestMapping.toManifest(tp, next));
        return committed.map(ManifestMapping::toMetadata).orElse(null);
    }

    @Override
    public List<String> locations(TopicPartition tp) throws IOException {
        List<String> locations = new ArrayList<>();
        FileStatus[] listing;
        try {
            listing = fs.listStatus(layout.partitionDir(tp.topic(), tp.partition()));
        } catch (FileNotFoundException nothingCopied) {
            return locations;
        }
        for (FileStatus status : listing) {
            String name = status.getPath().getName();
            if (status.isDirectory() && TieredLayout.baseOffsetOf(name).isPresent()) {
                locations.add(name);
            }
        }
        return locations;
    }

    @Override
    public void delete(TopicPartition tp, String location) throws IOException {
        Path dir = layout.copyDir(tp.topic(), tp.partition(), location);
        openFiles.closeUnder(dir);
        fs.delete(dir, true);
    }

    @Override
    public ByteBuffer read(TopicPartition tp, RemoteSegment segment, RemoteFile file, long position, int length)
            throws IOException {
        Path path = layout.file(tp.topic(), tp.partition(), ManifestMapping.toManifest(segment), segmentFile(file));
        // A follower restarting above the copy reads these once; a damaged one that is put back is read anew.
        boolean once = file == RemoteFile.PRODUCER_SNAPSHOT || file == RemoteFile.LEADER_EPOCH_CHECKPOINT;
        return once ? openFiles.readOnce(path, position, length) : openFiles.read(path, position, length);
    }

    private static SegmentFile segmentFile(RemoteFile file) {
        return switch (file) {
            case LOG -> SegmentFile.LOG;
            case OFFSET_INDEX -> SegmentFile.OFFSET_INDEX;
            case TIME_INDEX -> SegmentFile.TIME_INDEX;
            case TXN_INDEX -> SegmentFile.TXN_INDEX;
            case PRODUCER_SNAPSHOT -> SegmentFile.PRODUCER_SNAPSHOT;
            case LEADER_EPOCH_CHECKPOINT -> SegmentFile.LEADER_EPOCH_CHECKPOINT;
        };
    }

    @Override
    public void close() throws IOException {
        openFiles.close();
        fs.close();
    }
}

package io.tributary.broker.log;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.KafkaStorageException;

/**
 * One directory of {@code log.dirs}: an exclusive {@code .lock}, the recovery-point and log-start-offset checkpoints, the clean-shutdown
 * marker and the partition folders {@code <topic>-<partition>}. Not thread-safe: the {@link LogManager}
 * serializes calls.
 */
final class LogDir implements Closeable {

    static final String LOCK_FILE = ".lock";
    static final String CLEAN_SHUTDOWN_MARKER = ".kafka_cleanshutdown";
    static final String RECOVERY_POINT_CHECKPOINT = "recovery-point-offset-checkpoint";
    static final String LOG_START_OFFSET_CHECKPOINT = "log-start-offset-checkpoint";

    private final Path path;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final OffsetCheckpointFile recoveryPoints;
    private final OffsetCheckpointFile logStartOffsets;

    private LogDir(Path path, FileChannel lockChannel, FileLock lock) {
        this.path = path;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.recoveryPoints = new OffsetCheckpointFile(path.resolve(RECOVERY_POINT_CHECKPOINT));
        this.logStartOffsets = new OffsetCheckpointFile(path.resolve(LOG_START_OFFSET_CHECKPOINT));
    }

    /** Creates the directory if needed and locks it against a second broker. */
    static LogDir open(Path path) throws IOException {
        Files.createDirectories(path);
        FileChannel channel = FileChannel.open(path.resolve(LOCK_FILE), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            channel.close();
            throw new KafkaStorageException("Log dir " + path + " is in use by another broker");
        }
        return new LogDir(path, channel, lock);
    }

    Path path() {
        return path;
    }

    /** True if the last shutdown was clean. Removes the marker: from now on a crash is an unclean stop. */
    boolean consumeCleanShutdownMarker() throws IOException {
        return Files.deleteIfExists(path.resolve(CLEAN_SHUTDOWN_MARKER));
    }

    /** Written last on a clean shutdown, after every log in this dir was flushed and closed. */
    void writeCleanShutdownMarker() throws IOException {
        try (FileChannel channel = FileChannel.open(path.resolve(CLEAN_SHUTDOWN_MARKER), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }

    Map<TopicPartition, Long> readRecoveryPoints() throws IOException {
        return recoveryPoints.read();
    }

    void writeRecoveryPoints(Map<TopicPartition, Long> offsets) throws IOException {
        recoveryPoints.write(offsets);
    }

    Map<TopicPartition, Long> readLogStartOffsets() throws IOException {
        return logStartOffsets.read();
    }

    void writeLogStartOffsets(Map<TopicPartition, Long> offsets) throws IOException {
        logStartOffsets.write(offsets);
    }

    Path partitionDir(TopicPartition tp) {
        return path.resolve(PartitionFolderNames.folderName(tp));
    }

    /**
     * Whether the dir can take data now: a folder this process may write to. One that was removed, unmounted or made
     * read-only while the broker runs is offline.
     */
    boolean isOnline() {
        return Files.isDirectory(path) && Files.isWritable(path);
    }

    /**
     * The partition folders in this dir, the folders of the copies moves to this dir are filling ({@link
     * PartitionFolderNames#futureName}), and the folders left over from deletions.
     */
    record Contents(Map<TopicPartition, Path> partitions, Map<TopicPartition, Path> futures, List<Path> deleted) {
    }

    Contents list() throws IOException {
        Map<TopicPartition, Path> partitions = new HashMap<>();
        Map<TopicPartition, Path> futures = new HashMap<>();
        List<Path> deleted = new ArrayList<>();
        try (Stream<Path> children = Files.list(path)) {
            for (Path child : children.filter(Files::isDirectory).toList()) {
                String name = child.getFileName().toString();
                if (name.endsWith(PartitionFolderNames.DELETE_SUFFIX)) {
                    deleted.add(child);
                } else if (name.endsWith(PartitionFolderNames.FUTURE_SUFFIX)) {
                    PartitionFolderNames.parseFutureName(name).ifPresent(tp -> futures.put(tp, child));
                } else {
                    PartitionFolderNames.parseFolderName(name).ifPresent(tp -> partitions.put(tp, child));
                }
            }
        }
        return new Contents(partitions, futures, deleted);
    }

    @Override
    public void close() throws IOException {
        lock.release();
        lockChannel.close();
    }
}

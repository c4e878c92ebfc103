package io.tributary.broker.replica;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.tributary.broker.log.OffsetCheckpointFile;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The high watermark of every replica, checkpointed per log dir in {@code replication-offset-checkpoint}
 * (Kafka's checkpoint format), so that a restarted broker does not begin at high watermark 0: as a
 * leader whose followers have not fetched yet, it would otherwise show consumers nothing. Read once
 * at start; written periodically and at shutdown. A checkpoint may lag the true high watermark,
 * which only ever grows again from it. An unreadable file counts as empty. Thread-safe.
 */
public final class HighWatermarkCheckpoints {
    static final String FILE_NAME = "replication-offset-checkpoint";
    private static final Logger log = LoggerFactory.getLogger(HighWatermarkCheckpoints.class);

    private final Map<Path, OffsetCheckpointFile> files;
    private final Map<TopicPartition, Long> loaded;

    private HighWatermarkCheckpoints(Map<Path, OffsetCheckpointFile> files, Map<TopicPartition, Long> loaded) {
        this.files = files;
        this.loaded = loaded;
    }

    /** Reads the checkpoints of {@code logDirs}. */
    public static HighWatermarkCheckpoints load(List<Path> logDirs) {
        Map<Path, OffsetCheckpointFile> files = new LinkedHashMap<>();
        Map<TopicPartition, Long> loaded = new HashMap<>();
        for (Path dir : logDirs) {
            Path file = dir.resolve(FILE_NAME);
            OffsetCheckpointFile checkpoint = new OffsetCheckpointFile(file);
            files.put(normalized(dir), checkpoint);
            try {
                loaded.putAll(checkpoint.read());
            } catch (IOException e) {
                log.warn("ignoring unreadable {}: {}", file, e.getMessage());
            }
        }
        return new HighWatermarkCheckpoints(files, Map.copyOf(loaded));
    }

    private static Path normalized(Path dir) {
        return dir.toAbsolutePath().normalize();
    }

    /** The high watermark checkpointed for {@code partition} when this broker started, or 0. */
    long highWatermark(TopicPartition partition) {
        return loaded.getOrDefault(partition, 0L);
    }

    /** Writes the high watermark of each replica to the checkpoint of the log dir holding it. */
    synchronized void write(Collection<Partition> replicas) {
        Map<Path, Map<TopicPartition, Long>> byDir = new HashMap<>();
        files.keySet().forEach(dir -> byDir.put(dir, new HashMap<>()));
        for (Partition replica : replicas) {
            Map<TopicPartition, Long> offsets = byDir.get(normalized(replica.log().dir().getParent()));
            if (offsets != null) {
                offsets.put(replica.topicPartition(), replica.highWatermark());
            }
        }
        byDir.forEach((dir, offsets) -> {
            try {
                files.get(dir).write(offsets);
            } catch (IOException e) {
                log.warn("could not write the high watermark checkpoint of {}: {}", dir, e.getMessage());
            }
        });
    }
}

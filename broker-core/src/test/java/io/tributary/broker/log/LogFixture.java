package io.tributary.broker.log;

import io.tributary.broker.testing.FakeTime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;

/** A partition log in a temp folder on a fake clock and scheduler, with crash simulation by copying files. */
final class LogFixture {

    static final TopicPartition TP = new TopicPartition("events", 3);

    final FakeTime time = new FakeTime();
    final FakeScheduler scheduler = new FakeScheduler(time);
    final Path root;
    LogConfig config;

    LogFixture(Path root, Map<String, String> topicOverrides) {
        this.root = root;
        this.config = LogConfig.defaults().withTopicOverrides(
                withDefault(withDefault(topicOverrides, LogConfig.SEGMENT_INDEX_BYTES, "4096"),
                        LogConfig.FILE_DELETE_DELAY_MS, "1000"));
    }

    private static Map<String, String> withDefault(Map<String, String> map, String key, String value) {
        if (map.containsKey(key)) {
            return map;
        }
        var copy = new java.util.HashMap<>(map);
        copy.put(key, value);
        return copy;
    }

    Path partitionDir() {
        return root.resolve("events-3");
    }

    PartitionLog open() throws IOException {
        return PartitionLog.open(TP, partitionDir(), config, time, scheduler, new FlushTimes(), 0L, 0L, true);
    }

    /**
     * Copies the partition folder as a crash would leave it (the log stays open: nothing is trimmed or
     * flushed) into {@code crashed}.
     */
    Path snapshotAsCrashed(String crashed) {
        Path target = root.resolve(crashed).resolve("events-3");
        copyRecursively(partitionDir(), target);
        return target;
    }

    /** Opens a log folder after an unclean stop with the given recovery point. */
    PartitionLog recover(Path dir, long recoveryPoint) throws IOException {
        return PartitionLog.open(TP, dir, config, time, scheduler, new FlushTimes(), recoveryPoint, 0L, false);
    }

    static void copyRecursively(Path from, Path to) {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.sorted(Comparator.naturalOrder()).toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

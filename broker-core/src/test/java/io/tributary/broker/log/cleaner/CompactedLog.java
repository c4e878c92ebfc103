package io.tributary.broker.log.cleaner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import io.tributary.broker.log.FetchDataInfo;
import io.tributary.broker.log.IdempotentAppender;
import io.tributary.broker.log.ProducerStateManager;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.testing.FakeTime;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Utils;

/**
 * A compacted partition log in a temp folder on a fake clock, with what was appended at each offset, for
 * checking a cleaned log against the original. {@link #crashCopy} copies the folder as a crash would
 * leave it, to be opened without a clean shutdown.
 */
final class CompactedLog implements AutoCloseable {
    static final TopicPartition TP = new TopicPartition("compacted", 0);
    static final long DELETE_RETENTION_MS = 60_000;

    final FakeTime time = new FakeTime();
    final IdempotentAppender appender = new IdempotentAppender(time, 24L * 3600 * 1000);
    /** As on a broker whose high watermark is the log end: the last stable offset is the oldest open transaction's. */
    final CleanerLogState state = new CleanerLogState() {
        @Override
        public long lastStableOffset(PartitionLog partitionLog) {
            long unstable = appender.firstUnstableOffset(partitionLog);
            return unstable < 0 ? partitionLog.logEndOffset() : unstable;
        }

        @Override
        public Map<Long, ProducerStateManager.LastRecord> lastRecords(PartitionLog partitionLog) {
            return appender.lastRecords(partitionLog);
        }
    };
    final Path root;
    private final LogConfig config;
    private LogManager logs;
    PartitionLog log;
    /** Key and value (null for a tombstone) appended at each offset. */
    final Map<Long, String[]> appended = new LinkedHashMap<>();

    CompactedLog(Path root, Map<String, String> overrides) {
        this.root = root;
        Map<String, String> topic = new java.util.HashMap<>(Map.of(
                LogConfig.CLEANUP_POLICY, LogConfig.CLEANUP_POLICY_COMPACT,
                LogConfig.SEGMENT_BYTES, "2048",
                LogConfig.SEGMENT_INDEX_BYTES, "4096",
                LogConfig.DELETE_RETENTION_MS, Long.toString(DELETE_RETENTION_MS)));
        topic.putAll(overrides);
        this.config = LogConfig.defaults().withTopicOverrides(topic);
        open(root);
    }

    private void open(Path dir) {
        logs = LogManager.open(List.of(dir), LogConfig.defaults(), time);
        log = logs.getOrCreate(TP, config);
    }

    /** Appends one record per key/value pair (a null value is a tombstone), one batch each. */
    void append(String key, String value) {
        MemoryRecords records = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(time.milliseconds(),
                key.getBytes(StandardCharsets.UTF_8), value == null ? null : value.getBytes(StandardCharsets.UTF_8)));
        long offset = log.appendAsLeader(records, 0).firstOffset();
        appended.put(offset, new String[]{key, value});
    }

    /** Every record now in the log, in order: offset, key, value. */
    List<Stored> readAll() {
        List<Stored> stored = new ArrayList<>();
        long position = log.logStartOffset();
        long end = log.logEndOffset();
        while (position < end) {
            FetchDataInfo chunk = log.read(position, 64 * 1024, end, true);
            long next = position;
            for (RecordBatch batch : chunk.records().batches()) {
                for (Record record : batch) {
                    stored.add(new Stored(record.offset(), string(record.key()), record.hasValue() ? string(record.value()) : null));
                }
                next = batch.nextOffset();
            }
            if (next == position) {
                break;
            }
            position = next;
        }
        return stored;
    }

    private static String string(ByteBuffer buffer) {
        return new String(Utils.toArray(buffer), StandardCharsets.UTF_8);
    }

    /** One record as read back. */
    record Stored(long offset, String key, String value) {
    }

    /** Key → latest value after replaying {@code records} in order; tombstones remove the key. */
    static Map<String, String> replay(List<String[]> records) {
        Map<String, String> state = new LinkedHashMap<>();
        for (String[] record : records) {
            if (record[1] == null) {
                state.remove(record[0]);
            } else {
                state.put(record[0], record[1]);
            }
        }
        return state;
    }

    Map<String, String> replayAppended() {
        return replay(new ArrayList<>(appended.values()));
    }

    Map<String, String> replayStored() {
        return replay(readAll().stream().map(s -> new String[]{s.key(), s.value()}).toList());
    }

    /** Copies the partition folder, as it is now with the log still open, to a new root, and opens it there. */
    void crashCopyAndReopen(String name) {
        Path target = root.resolveSibling(root.getFileName() + "-" + name);
        copyRecursively(root, target);
        logs.close();
        try {
            Files.deleteIfExists(target.resolve(".kafka_cleanshutdown"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        open(target);
    }

    Path partitionDir() {
        return log.dir();
    }

    private static void copyRecursively(Path from, Path to) {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.sorted(Comparator.naturalOrder()).toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else if (!file.getFileName().toString().equals(".lock")) {
                    Files.copy(file, target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        logs.close();
    }
}

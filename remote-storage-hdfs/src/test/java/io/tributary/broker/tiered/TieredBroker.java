package io.tributary.broker.tiered;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import io.tributary.broker.log.IdempotentAppender;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.log.remote.LeaderView;
import io.tributary.broker.log.remote.RemoteLogConfig;
import io.tributary.broker.log.remote.RemoteLogManager;
import io.tributary.broker.log.remote.RemoteStorage;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;

/**
 * What a broker's tiered storage works with, without the rest of the broker: one tiered partition log in a log
 * manager of its own (two log dirs, {@code <dir>/0} holding the log and {@code <dir>/1} empty, so that the log can
 * move), its remote log tasks (every 50 ms) over a given storage, and a leader view whose last stable offset is the
 * log end (every transaction in these tests is decided). Records are appended with final offsets, as a follower
 * appends them, so two brokers can hold the same records in segments cut elsewhere.
 */
final class TieredBroker implements LeaderView, AutoCloseable {
    static final TopicPartition TP = new TopicPartition("events", 0);
    /** A batch of one 100-byte record. */
    static final int BATCH_BYTES = batchAt(0).sizeInBytes();

    final LogManager logs;
    final PartitionLog log;
    final RemoteLogManager remote;
    final IdempotentAppender appender = new IdempotentAppender();

    TieredBroker(Path dir, RemoteStorage storage, int segmentBytes, Map<String, String> overrides) {
        List<Path> logDirs = List.of(dir.resolve("0"), dir.resolve("1"));
        LogConfig defaults = LogConfig.fromBroker(Map.of(LogConfig.REMOTE_LOG_STORAGE_SYSTEM_ENABLE, "true",
                LogConfig.LOG_DIRS, logDirs.get(0) + "," + logDirs.get(1), LogConfig.LOG_RETENTION_CHECK_INTERVAL_MS, "50"));
        Map<String, String> topic = new HashMap<>(Map.of(LogConfig.REMOTE_STORAGE_ENABLE, "true",
                LogConfig.SEGMENT_BYTES, String.valueOf(segmentBytes), LogConfig.SEGMENT_INDEX_BYTES, "4096"));
        topic.putAll(overrides);
        logs = LogManager.open(logDirs, defaults, Time.SYSTEM);
        log = logs.getOrCreate(TP, defaults.withTopicOverrides(topic));
        remote = new RemoteLogManager(storage, new RemoteLogConfig("file:///unused", "", 50, 1, 1, 500), logs, this, Time.SYSTEM);
        remote.start();
    }

    @Override
    public long lastStableOffset(TopicPartition tp) {
        return log.logEndOffset();
    }

    @Override
    public NavigableMap<Integer, Long> leaderEpochs(TopicPartition tp) {
        return new TreeMap<>(Map.of(0, 0L));
    }

    /** Appends {@code batches} batches of one record each. */
    void append(int batches) {
        for (int i = 0; i < batches; i++) {
            appender.appendAsFollower(log, batchAt(log.logEndOffset()));
        }
    }

    /** Appends a batch of two records of producer {@code producerId} at {@code epoch}, from {@code sequence} on. */
    void appendOfProducer(long producerId, short epoch, int sequence, boolean transactional) {
        SimpleRecord[] records = {new SimpleRecord(("p" + sequence).getBytes(StandardCharsets.UTF_8)),
            new SimpleRecord(("p" + (sequence + 1)).getBytes(StandardCharsets.UTF_8))};
        long offset = log.logEndOffset();
        appender.appendAsFollower(log, transactional
                ? MemoryRecords.withTransactionalRecords(offset, Compression.NONE, producerId, epoch, sequence, 0, records)
                : MemoryRecords.withIdempotentRecords(offset, Compression.NONE, producerId, epoch, sequence, 0, records));
    }

    /** Appends producer {@code producerId}'s ABORT marker at {@code epoch} (coordinator epoch 1). */
    void appendAbortMarker(long producerId, short epoch) {
        appender.appendAsFollower(log, MemoryRecords.withEndTransactionMarker(log.logEndOffset(), System.currentTimeMillis(),
                0, producerId, epoch, new EndTransactionMarker(ControlRecordType.ABORT, 1)));
    }

    /** One batch of one record with value "x" * 100, at {@code offset}. */
    static MemoryRecords batchAt(long offset) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(512), RecordBatch.MAGIC_VALUE_V2,
                Compression.NONE, TimestampType.CREATE_TIME, offset);
        byte[] value = new byte[100];
        Arrays.fill(value, (byte) 'x');
        builder.append(new SimpleRecord(System.currentTimeMillis(), ("k" + offset).getBytes(StandardCharsets.UTF_8), value));
        return builder.build();
    }

    @Override
    public void close() throws Exception {
        remote.close();
        logs.close();
    }
}

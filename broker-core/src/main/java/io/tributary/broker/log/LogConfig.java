package io.tributary.broker.log;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidString;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.CompressionType;

/**
 * Effective settings of one partition log: broker defaults ({@code log.*} keys) overlaid with topic overrides.
 *
 * <p>Every key is declared exactly once, as a {@link ConfigDef} schema with type, default, validator and doc;
 * {@link #brokerConfigDef()} and {@link #topicConfigDef()} are the source for the generated configuration docs.
 * Immutable and thread-safe: a config change produces a new instance.
 */
public final class LogConfig {

    // Broker keys (server.properties).
    public static final String LOG_DIRS = "log.dirs";
    public static final String LOG_SEGMENT_BYTES = "log.segment.bytes";
    public static final String LOG_ROLL_MS = "log.roll.ms";
    public static final String LOG_ROLL_HOURS = "log.roll.hours";
    public static final String LOG_INDEX_INTERVAL_BYTES = "log.index.interval.bytes";
    public static final String LOG_INDEX_SIZE_MAX_BYTES = "log.index.size.max.bytes";
    public static final String LOG_FLUSH_INTERVAL_MESSAGES = "log.flush.interval.messages";
    public static final String LOG_FLUSH_INTERVAL_MS = "log.flush.interval.ms";
    public static final String LOG_FLUSH_SCHEDULER_INTERVAL_MS = "log.flush.scheduler.interval.ms";
    public static final String LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS = "log.flush.offset.checkpoint.interval.ms";
    public static final String LOG_RETENTION_MS = "log.retention.ms";
    public static final String LOG_RETENTION_MINUTES = "log.retention.minutes";
    public static final String LOG_RETENTION_HOURS = "log.retention.hours";
    public static final String LOG_RETENTION_BYTES = "log.retention.bytes";
    public static final String LOG_RETENTION_CHECK_INTERVAL_MS = "log.retention.check.interval.ms";
    public static final String LOG_SEGMENT_DELETE_DELAY_MS = "log.segment.delete.delay.ms";
    public static final String LOG_CLEANUP_POLICY = "log.cleanup.policy";
    public static final String LOG_MESSAGE_TIMESTAMP_TYPE = "log.message.timestamp.type";
    public static final String MESSAGE_MAX_BYTES = "message.max.bytes";
    public static final String NUM_RECOVERY_THREADS_PER_DATA_DIR = "num.recovery.threads.per.data.dir";
    public static final String LOG_CLEANER_ENABLE = "log.cleaner.enable";
    public static final String LOG_READ_MMAP_ENABLE = "log.read.mmap.enable";
    public static final String LOG_CLEANER_THREADS = "log.cleaner.threads";
    public static final String LOG_CLEANER_BACKOFF_MS = "log.cleaner.backoff.ms";
    public static final String LOG_CLEANER_DELETE_RETENTION_MS = "log.cleaner.delete.retention.ms";
    public static final String LOG_CLEANER_MIN_CLEANABLE_RATIO = "log.cleaner.min.cleanable.ratio";
    public static final String LOG_ROLL_JITTER_MS = "log.roll.jitter.ms";
    public static final String LOG_ROLL_JITTER_HOURS = "log.roll.jitter.hours";
    public static final String LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS = "log.message.timestamp.before.max.ms";
    public static final String LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS = "log.message.timestamp.after.max.ms";
    public static final String LOG_CLEANER_MIN_COMPACTION_LAG_MS = "log.cleaner.min.compaction.lag.ms";
    public static final String LOG_CLEANER_MAX_COMPACTION_LAG_MS = "log.cleaner.max.compaction.lag.ms";
    public static final String LOG_PREALLOCATE = "log.preallocate";
    public static final String LOG_LOCAL_RETENTION_MS = "log.local.retention.ms";
    public static final String LOG_LOCAL_RETENTION_BYTES = "log.local.retention.bytes";
    public static final String LOG_REMOTE_COPY_LAG_MS = "log.remote.copy.lag.ms";
    public static final String LOG_REMOTE_COPY_LAG_BYTES = "log.remote.copy.lag.bytes";
    public static final String REMOTE_LOG_STORAGE_SYSTEM_ENABLE = "remote.log.storage.system.enable";

    // Topic keys (per-topic overrides).
    public static final String SEGMENT_BYTES = "segment.bytes";
    public static final String SEGMENT_MS = "segment.ms";
    public static final String SEGMENT_INDEX_BYTES = "segment.index.bytes";
    public static final String INDEX_INTERVAL_BYTES = "index.interval.bytes";
    public static final String FLUSH_MESSAGES = "flush.messages";
    public static final String FLUSH_MS = "flush.ms";
    public static final String RETENTION_MS = "retention.ms";
    public static final String RETENTION_BYTES = "retention.bytes";
    public static final String MAX_MESSAGE_BYTES = "max.message.bytes";
    public static final String CLEANUP_POLICY = "cleanup.policy";
    public static final String MESSAGE_TIMESTAMP_TYPE = "message.timestamp.type";
    public static final String FILE_DELETE_DELAY_MS = "file.delete.delay.ms";
    public static final String DELETE_RETENTION_MS = "delete.retention.ms";
    public static final String MIN_CLEANABLE_DIRTY_RATIO = "min.cleanable.dirty.ratio";
    public static final String SEGMENT_JITTER_MS = TopicConfig.SEGMENT_JITTER_MS_CONFIG;
    public static final String MESSAGE_TIMESTAMP_BEFORE_MAX_MS = TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG;
    public static final String MESSAGE_TIMESTAMP_AFTER_MAX_MS = TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG;
    public static final String MIN_COMPACTION_LAG_MS = TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG;
    public static final String MAX_COMPACTION_LAG_MS = TopicConfig.MAX_COMPACTION_LAG_MS_CONFIG;
    public static final String PREALLOCATE = TopicConfig.PREALLOCATE_CONFIG;
    public static final String LEADER_REPLICATION_THROTTLED_REPLICAS = "leader.replication.throttled.replicas";
    public static final String FOLLOWER_REPLICATION_THROTTLED_REPLICAS = "follower.replication.throttled.replicas";
    public static final String REMOTE_STORAGE_ENABLE = TopicConfig.REMOTE_LOG_STORAGE_ENABLE_CONFIG;
    public static final String LOCAL_RETENTION_MS = TopicConfig.LOCAL_LOG_RETENTION_MS_CONFIG;
    public static final String LOCAL_RETENTION_BYTES = TopicConfig.LOCAL_LOG_RETENTION_BYTES_CONFIG;
    public static final String REMOTE_LOG_COPY_DISABLE = TopicConfig.REMOTE_LOG_COPY_DISABLE_CONFIG;
    public static final String REMOTE_COPY_LAG_MS = TopicConfig.REMOTE_COPY_LAG_MS_CONFIG;
    public static final String REMOTE_COPY_LAG_BYTES = TopicConfig.REMOTE_COPY_LAG_BYTES_CONFIG;
    public static final String REMOTE_LOG_DELETE_ON_DISABLE = TopicConfig.REMOTE_LOG_DELETE_ON_DISABLE_CONFIG;
    public static final String ERRORS_DEADLETTERQUEUE_GROUP_ENABLE = TopicConfig.ERRORS_DEADLETTERQUEUE_GROUP_ENABLE_CONFIG;
    // The same key at broker level (the default) and topic level (an override).
    public static final String MIN_IN_SYNC_REPLICAS = "min.insync.replicas";
    public static final String UNCLEAN_LEADER_ELECTION_ENABLE = TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG;
    public static final String MAX_DECOMPRESSED_MESSAGE_BYTES = TopicConfig.MAX_DECOMPRESSED_MESSAGE_BYTES_CONFIG;
    public static final String COMPRESSION_TYPE = TopicConfig.COMPRESSION_TYPE_CONFIG;
    public static final String COMPRESSION_GZIP_LEVEL = TopicConfig.COMPRESSION_GZIP_LEVEL_CONFIG;
    public static final String COMPRESSION_LZ4_LEVEL = TopicConfig.COMPRESSION_LZ4_LEVEL_CONFIG;
    public static final String COMPRESSION_ZSTD_LEVEL = TopicConfig.COMPRESSION_ZSTD_LEVEL_CONFIG;

    public static final String CLEANUP_POLICY_DELETE = "delete";
    public static final String CLEANUP_POLICY_COMPACT = "compact";

    /** The smallest segment that can hold a batch header; Kafka uses the same floor. */
    static final int MIN_SEGMENT_BYTES = 14;
    private static final int DEFAULT_SEGMENT_BYTES = 1024 * 1024 * 1024;
    private static final long DEFAULT_SEGMENT_MS = 7L * 24 * 60 * 60 * 1000;
    private static final int DEFAULT_INDEX_INTERVAL_BYTES = 4096;
    private static final int DEFAULT_SEGMENT_INDEX_BYTES = 10 * 1024 * 1024;
    private static final long DEFAULT_RETENTION_MS = 7L * 24 * 60 * 60 * 1000;
    private static final int DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024 + 12;
    private static final long DEFAULT_FILE_DELETE_DELAY_MS = 60_000L;
    private static final long DEFAULT_DELETE_RETENTION_MS = 24L * 60 * 60 * 1000;
    private static final double DEFAULT_MIN_CLEANABLE_RATIO = 0.5;
    private static final long DEFAULT_TIMESTAMP_AFTER_MAX_MS = 60L * 60 * 1000;
    private static final int DEFAULT_MAX_DECOMPRESSED_MESSAGE_BYTES = Integer.MAX_VALUE - 8;
    /** Local retention -2: the same as the log's whole retention (Kafka's value). */
    private static final long DEFAULT_LOCAL_RETENTION = -2L;
    /** Broker-side codec names: the producer's codecs, "uncompressed", and "producer" for "keep the producer's". */
    static final String COMPRESSION_PRODUCER = "producer";
    static final String COMPRESSION_UNCOMPRESSED = "uncompressed";
    private static final String[] COMPRESSION_TYPES = {COMPRESSION_UNCOMPRESSED, CompressionType.ZSTD.name,
            CompressionType.LZ4.name, CompressionType.SNAPPY.name, CompressionType.GZIP.name, COMPRESSION_PRODUCER};
    private static final String NO_EFFECT = " Accepted for compatibility and has no effect.";
    private static final List<String> TIMESTAMP_TYPES =
            List.of(TimestampType.CREATE_TIME.name, TimestampType.LOG_APPEND_TIME.name);

    private static final ConfigDef BROKER_DEF = new ConfigDef()
            .define(LOG_DIRS, Type.LIST, "/tmp/tributary-logs", Importance.HIGH,
                    "Directories in which partition logs are stored, comma-separated. Partitions are spread over them.")
            .define(LOG_SEGMENT_BYTES, Type.INT, DEFAULT_SEGMENT_BYTES, Range.atLeast(MIN_SEGMENT_BYTES),
                    Importance.HIGH, "Maximum size of a single log segment file before a new one is rolled.")
            .define(LOG_ROLL_MS, Type.LONG, null, Importance.HIGH,
                    "Maximum age of the active segment before a new one is rolled, in ms. Takes precedence over "
                            + LOG_ROLL_HOURS + " when set.")
            .define(LOG_ROLL_HOURS, Type.INT, 168, Range.atLeast(1), Importance.HIGH,
                    "Maximum age of the active segment before a new one is rolled, in hours.")
            .define(LOG_INDEX_INTERVAL_BYTES, Type.INT, DEFAULT_INDEX_INTERVAL_BYTES, Range.atLeast(0),
                    Importance.MEDIUM, "Bytes appended between two entries of the sparse offset index.")
            .define(LOG_INDEX_SIZE_MAX_BYTES, Type.INT, DEFAULT_SEGMENT_INDEX_BYTES, Range.atLeast(12),
                    Importance.MEDIUM, "Size to which offset and time index files are preallocated; "
                            + "a segment whose index is full is rolled.")
            .define(LOG_FLUSH_INTERVAL_MESSAGES, Type.LONG, Long.MAX_VALUE, Range.atLeast(1), Importance.HIGH,
                    "Messages appended to a partition before it is fsynced. By default flushing is left to the OS.")
            .define(LOG_FLUSH_INTERVAL_MS, Type.LONG, null, Importance.HIGH,
                    "Maximum time data may stay unflushed, in ms. When unset, "
                            + LOG_FLUSH_SCHEDULER_INTERVAL_MS + " is used.")
            .define(LOG_FLUSH_SCHEDULER_INTERVAL_MS, Type.LONG, Long.MAX_VALUE, Range.atLeast(1), Importance.HIGH,
                    "How often the background flusher checks whether a log needs to be flushed, in ms.")
            .define(LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS, Type.INT, 60_000, Range.atLeast(0), Importance.HIGH,
                    "How often the recovery-point checkpoint of each log dir is written, in ms.")
            .define(LOG_READ_MMAP_ENABLE, Type.BOOLEAN, true, Importance.LOW,
                    "Read inactive segments through read-only memory mappings instead of positioned reads, so that "
                            + "a read costs no system call and the same however many segments a log has. At most "
                            + "half of the kernel's vm.max_map_count segments are mapped; the rest are read "
                            + "through their files.")
            .define(LOG_RETENTION_MS, Type.LONG, null, Importance.HIGH,
                    "How long a segment is kept after its newest record, in ms; -1 keeps segments forever. "
                            + "Takes precedence over " + LOG_RETENTION_MINUTES + " and " + LOG_RETENTION_HOURS + ".")
            .define(LOG_RETENTION_MINUTES, Type.INT, null, Importance.HIGH,
                    "How long a segment is kept, in minutes. Takes precedence over " + LOG_RETENTION_HOURS + ".")
            .define(LOG_RETENTION_HOURS, Type.INT, 168, Importance.HIGH, "How long a segment is kept, in hours.")
            .define(LOG_RETENTION_BYTES, Type.LONG, -1L, Importance.HIGH,
                    "Maximum size of a partition log before its oldest segments are deleted; -1 means no limit.")
            .define(LOG_RETENTION_CHECK_INTERVAL_MS, Type.LONG, 300_000L, Range.atLeast(1), Importance.MEDIUM,
                    "How often logs are checked for segments to delete, in ms.")
            .define(LOG_SEGMENT_DELETE_DELAY_MS, Type.LONG, DEFAULT_FILE_DELETE_DELAY_MS, Range.atLeast(0),
                    Importance.HIGH, "How long a deleted segment's files stay on disk (renamed to .deleted) "
                            + "so that reads in flight can finish, in ms.")
            .define(LOG_CLEANUP_POLICY, Type.LIST, CLEANUP_POLICY_DELETE,
                    ConfigDef.ValidList.in(CLEANUP_POLICY_DELETE, CLEANUP_POLICY_COMPACT), Importance.MEDIUM,
                    "Default cleanup policy: 'delete' removes old segments by retention time and size.")
            .define(LOG_MESSAGE_TIMESTAMP_TYPE, Type.STRING, TimestampType.CREATE_TIME.name,
                    ValidString.in(TIMESTAMP_TYPES.toArray(String[]::new)), Importance.MEDIUM,
                    "Whether record timestamps are the producer's (CreateTime) or the broker's (LogAppendTime).")
            .define(MESSAGE_MAX_BYTES, Type.INT, DEFAULT_MAX_MESSAGE_BYTES, Range.atLeast(0), Importance.HIGH,
                    "Largest record batch the broker accepts, in bytes.")
            .define(NUM_RECOVERY_THREADS_PER_DATA_DIR, Type.INT, 2, Range.atLeast(1), Importance.HIGH,
                    "Threads per log dir that load (and if needed recover) partition logs at start-up.")
            .define(LOG_CLEANER_ENABLE, Type.BOOLEAN, true, Importance.MEDIUM,
                    "Run the log cleaner, which compacts topics whose cleanup.policy contains 'compact'.")
            .define(LOG_CLEANER_THREADS, Type.INT, 1, Range.atLeast(0), Importance.MEDIUM,
                    "Threads that compact logs; each cleans one log at a time.")
            .define(LOG_CLEANER_BACKOFF_MS, Type.LONG, 15_000L, Range.atLeast(0), Importance.MEDIUM,
                    "How long a cleaner thread sleeps when no log needs cleaning, in ms.")
            .define(LOG_CLEANER_DELETE_RETENTION_MS, Type.LONG, DEFAULT_DELETE_RETENTION_MS, Range.atLeast(0),
                    Importance.MEDIUM, "How long a tombstone (a record with a null value) stays in a compacted log "
                            + "after the cleaner first saw it, in ms.")
            .define(LOG_CLEANER_MIN_CLEANABLE_RATIO, Type.DOUBLE, DEFAULT_MIN_CLEANABLE_RATIO, Range.between(0, 1),
                    Importance.MEDIUM, "Share of a compacted log's closed segments that must be dirty (written "
                            + "since the last clean) before the log is cleaned again.")
            .define(MIN_IN_SYNC_REPLICAS, Type.INT, 1, Range.atLeast(1), Importance.HIGH,
                    "With acks=-1, a produce fails with NOT_ENOUGH_REPLICAS when the partition's ISR is smaller "
                            + "than this. A topic may override it.")
            .define(LOG_ROLL_JITTER_MS, Type.LONG, null, Importance.HIGH,
                    "Largest random amount subtracted from a segment's roll time, in ms, so that the segments of "
                            + "many partitions do not roll at the same moment. Takes precedence over "
                            + LOG_ROLL_JITTER_HOURS + ".")
            .define(LOG_ROLL_JITTER_HOURS, Type.INT, 0, Range.atLeast(0), Importance.HIGH,
                    "Largest random amount subtracted from a segment's roll time, in hours.")
            .define(LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS, Type.LONG, Long.MAX_VALUE, Range.atLeast(0),
                    Importance.MEDIUM, "How far in the past a CreateTime record timestamp may lie, in ms, before "
                            + "the produce is refused with INVALID_TIMESTAMP.")
            .define(LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS, Type.LONG, DEFAULT_TIMESTAMP_AFTER_MAX_MS, Range.atLeast(0),
                    Importance.MEDIUM, "How far in the future a CreateTime record timestamp may lie, in ms, before "
                            + "the produce is refused with INVALID_TIMESTAMP.")
            .define(MAX_DECOMPRESSED_MESSAGE_BYTES, Type.INT, DEFAULT_MAX_DECOMPRESSED_MESSAGE_BYTES,
                    Range.between(1, DEFAULT_MAX_DECOMPRESSED_MESSAGE_BYTES), Importance.MEDIUM,
                    "Largest record accepted once its batch is decompressed, in bytes; a larger one is refused "
                            + "with RECORD_TOO_LARGE.")
            .define(LOG_CLEANER_MIN_COMPACTION_LAG_MS, Type.LONG, 0L, Range.atLeast(0), Importance.MEDIUM,
                    "How long a record stays uncompacted after it was written, in ms.")
            .define(LOG_CLEANER_MAX_COMPACTION_LAG_MS, Type.LONG, Long.MAX_VALUE, Range.atLeast(1), Importance.MEDIUM,
                    "How long a record may stay uncompacted, in ms: a log with dirty records older than this is "
                            + "cleaned whatever its dirty ratio.")
            .define(COMPRESSION_TYPE, Type.STRING, COMPRESSION_PRODUCER, ValidString.in(COMPRESSION_TYPES),
                    Importance.HIGH, "Codec the broker stores batches in: 'producer' keeps the producer's, "
                            + "'uncompressed' or a codec name re-compresses batches that arrive otherwise.")
            .define(COMPRESSION_GZIP_LEVEL, Type.INT, CompressionType.GZIP.defaultLevel(),
                    CompressionType.GZIP.levelValidator(), Importance.MEDIUM,
                    "Level of gzip when the broker compresses (compression.type=gzip).")
            .define(COMPRESSION_LZ4_LEVEL, Type.INT, CompressionType.LZ4.defaultLevel(),
                    CompressionType.LZ4.levelValidator(), Importance.MEDIUM,
                    "Level of lz4 when the broker compresses (compression.type=lz4).")
            .define(COMPRESSION_ZSTD_LEVEL, Type.INT, CompressionType.ZSTD.defaultLevel(),
                    CompressionType.ZSTD.levelValidator(), Importance.MEDIUM,
                    "Level of zstd when the broker compresses (compression.type=zstd).")
            .define(LOG_PREALLOCATE, Type.BOOLEAN, false, Importance.MEDIUM,
                    "Accepted for compatibility and has no effect: segment files grow as records arrive.")
            .define(REMOTE_LOG_STORAGE_SYSTEM_ENABLE, Type.BOOLEAN, false, Importance.MEDIUM,
                    "Tiered storage (KIP-405) on this broker: topics with remote.storage.enable=true copy their closed "
                            + "segments to the remote storage at remote.log.storage.hdfs.uri and serve reads below the local "
                            + "log start from there. Needs the remote-storage-hdfs module (see remote.log.storage.manager.class.path).")
            .define(LOG_LOCAL_RETENTION_MS, Type.LONG, DEFAULT_LOCAL_RETENTION, Range.atLeast(-2), Importance.MEDIUM,
                    "Retention of the local part of a tiered log, in ms: a segment already copied to remote storage "
                            + "is deleted locally once its newest record is this old; -2 means retention.ms.")
            .define(LOG_LOCAL_RETENTION_BYTES, Type.LONG, DEFAULT_LOCAL_RETENTION, Range.atLeast(-2), Importance.MEDIUM,
                    "Retention size of the local part of a tiered log: segments already copied to remote storage are "
                            + "deleted locally, oldest first, while the local log is larger; -2 means retention.bytes.")
            .define(LOG_REMOTE_COPY_LAG_MS, Type.LONG, 0L, Range.atLeast(-1), Importance.LOW,
                    "How long a closed segment waits before it is copied to remote storage, in ms." + NO_EFFECT)
            .define(LOG_REMOTE_COPY_LAG_BYTES, Type.LONG, -1L, Range.atLeast(-1), Importance.LOW,
                    "How many closed bytes wait before they are copied to remote storage." + NO_EFFECT);

    private static final ConfigDef TOPIC_DEF = new ConfigDef()
            .define(SEGMENT_BYTES, Type.INT, DEFAULT_SEGMENT_BYTES, Range.atLeast(MIN_SEGMENT_BYTES),
                    Importance.MEDIUM, "Segment file size of this topic (overrides " + LOG_SEGMENT_BYTES + ").")
            .define(SEGMENT_MS, Type.LONG, DEFAULT_SEGMENT_MS, Range.atLeast(1), Importance.MEDIUM,
                    "Maximum age of the active segment of this topic, in ms (overrides " + LOG_ROLL_MS + ").")
            .define(SEGMENT_INDEX_BYTES, Type.INT, DEFAULT_SEGMENT_INDEX_BYTES, Range.atLeast(12), Importance.MEDIUM,
                    "Preallocated index size of this topic (overrides " + LOG_INDEX_SIZE_MAX_BYTES + ").")
            .define(INDEX_INTERVAL_BYTES, Type.INT, DEFAULT_INDEX_INTERVAL_BYTES, Range.atLeast(0),
                    Importance.MEDIUM, "Offset index interval of this topic (overrides " + LOG_INDEX_INTERVAL_BYTES + ").")
            .define(FLUSH_MESSAGES, Type.LONG, Long.MAX_VALUE, Range.atLeast(1), Importance.MEDIUM,
                    "Messages between fsyncs for this topic (overrides " + LOG_FLUSH_INTERVAL_MESSAGES + ").")
            .define(FLUSH_MS, Type.LONG, Long.MAX_VALUE, Range.atLeast(0), Importance.MEDIUM,
                    "Maximum unflushed time for this topic, in ms (overrides " + LOG_FLUSH_INTERVAL_MS + ").")
            .define(RETENTION_MS, Type.LONG, DEFAULT_RETENTION_MS, Range.atLeast(-1), Importance.MEDIUM,
                    "Retention time of this topic, in ms; -1 keeps forever (overrides " + LOG_RETENTION_MS + ").")
            .define(RETENTION_BYTES, Type.LONG, -1L, Importance.MEDIUM,
                    "Retention size of each partition of this topic; -1 means no limit (overrides "
                            + LOG_RETENTION_BYTES + ").")
            .define(MAX_MESSAGE_BYTES, Type.INT, DEFAULT_MAX_MESSAGE_BYTES, Range.atLeast(0), Importance.MEDIUM,
                    "Largest record batch accepted for this topic (overrides " + MESSAGE_MAX_BYTES + ").")
            .define(CLEANUP_POLICY, Type.LIST, CLEANUP_POLICY_DELETE,
                    ConfigDef.ValidList.in(CLEANUP_POLICY_DELETE, CLEANUP_POLICY_COMPACT), Importance.MEDIUM,
                    "Cleanup policy of this topic (overrides " + LOG_CLEANUP_POLICY + ").")
            .define(MESSAGE_TIMESTAMP_TYPE, Type.STRING, TimestampType.CREATE_TIME.name,
                    ValidString.in(TIMESTAMP_TYPES.toArray(String[]::new)), Importance.MEDIUM,
                    "Timestamp type of this topic (overrides " + LOG_MESSAGE_TIMESTAMP_TYPE + ").")
            .define(FILE_DELETE_DELAY_MS, Type.LONG, DEFAULT_FILE_DELETE_DELAY_MS, Range.atLeast(0),
                    Importance.MEDIUM, "Delay before deleted segment files are removed from disk (overrides "
                            + LOG_SEGMENT_DELETE_DELAY_MS + ").")
            .define(DELETE_RETENTION_MS, Type.LONG, DEFAULT_DELETE_RETENTION_MS, Range.atLeast(0), Importance.MEDIUM,
                    "How long tombstones of this compacted topic are kept (overrides "
                            + LOG_CLEANER_DELETE_RETENTION_MS + ").")
            .define(MIN_CLEANABLE_DIRTY_RATIO, Type.DOUBLE, DEFAULT_MIN_CLEANABLE_RATIO, Range.between(0, 1),
                    Importance.MEDIUM, "Dirty share that triggers cleaning of this compacted topic (overrides "
                            + LOG_CLEANER_MIN_CLEANABLE_RATIO + ").")
            .define(MIN_IN_SYNC_REPLICAS, Type.INT, 1, Range.atLeast(1), Importance.MEDIUM,
                    "With acks=-1, a produce to this topic fails with NOT_ENOUGH_REPLICAS when the partition's ISR "
                            + "is smaller than this (overrides the broker's " + MIN_IN_SYNC_REPLICAS + ").")
            .define(SEGMENT_JITTER_MS, Type.LONG, 0L, Range.atLeast(0), Importance.MEDIUM,
                    "Largest random amount subtracted from this topic's segment roll time, in ms (overrides "
                            + LOG_ROLL_JITTER_MS + ").")
            .define(MESSAGE_TIMESTAMP_BEFORE_MAX_MS, Type.LONG, Long.MAX_VALUE, Range.atLeast(0), Importance.MEDIUM,
                    "How far in the past a CreateTime timestamp of this topic may lie, in ms (overrides "
                            + LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS + ").")
            .define(MESSAGE_TIMESTAMP_AFTER_MAX_MS, Type.LONG, DEFAULT_TIMESTAMP_AFTER_MAX_MS, Range.atLeast(0),
                    Importance.MEDIUM, "How far in the future a CreateTime timestamp of this topic may lie, in ms "
                            + "(overrides " + LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS + ").")
            .define(MAX_DECOMPRESSED_MESSAGE_BYTES, Type.INT, DEFAULT_MAX_DECOMPRESSED_MESSAGE_BYTES,
                    Range.between(1, DEFAULT_MAX_DECOMPRESSED_MESSAGE_BYTES), Importance.MEDIUM,
                    "Largest decompressed record accepted for this topic (overrides the broker's key of that name).")
            .define(MIN_COMPACTION_LAG_MS, Type.LONG, 0L, Range.atLeast(0), Importance.MEDIUM,
                    "How long a record of this compacted topic stays uncompacted, in ms (overrides "
                            + LOG_CLEANER_MIN_COMPACTION_LAG_MS + ").")
            .define(MAX_COMPACTION_LAG_MS, Type.LONG, Long.MAX_VALUE, Range.atLeast(1), Importance.MEDIUM,
                    "How long a record of this compacted topic may stay uncompacted, in ms (overrides "
                            + LOG_CLEANER_MAX_COMPACTION_LAG_MS + ").")
            .define(COMPRESSION_TYPE, Type.STRING, COMPRESSION_PRODUCER, ValidString.in(COMPRESSION_TYPES),
                    Importance.MEDIUM, "Codec this topic's batches are stored in (overrides the broker's key of that name).")
            .define(COMPRESSION_GZIP_LEVEL, Type.INT, CompressionType.GZIP.defaultLevel(),
                    CompressionType.GZIP.levelValidator(), Importance.MEDIUM, "Level of gzip for this topic.")
            .define(COMPRESSION_LZ4_LEVEL, Type.INT, CompressionType.LZ4.defaultLevel(),
                    CompressionType.LZ4.levelValidator(), Importance.MEDIUM, "Level of lz4 for this topic.")
            .define(COMPRESSION_ZSTD_LEVEL, Type.INT, CompressionType.ZSTD.defaultLevel(),
                    CompressionType.ZSTD.levelValidator(), Importance.MEDIUM, "Level of zstd for this topic.")
            .define(UNCLEAN_LEADER_ELECTION_ENABLE, Type.BOOLEAN, false, Importance.MEDIUM,
                    "Whether a replica outside the ISR may lead this topic's partitions when no ISR member is alive "
                            + "(overrides the broker's key of that name).")
            .define(PREALLOCATE, Type.BOOLEAN, false, Importance.LOW,
                    "Accepted for compatibility and has no effect (overrides " + LOG_PREALLOCATE + ").")
            .define(LEADER_REPLICATION_THROTTLED_REPLICAS, Type.LIST, "", Importance.LOW,
                    "Replicas whose leader-side replication is throttled, as partition:broker pairs or '*': broker, leading "
                            + "the partition, sends followers outside the ISR at most leader.replication.throttled.rate.")
            .define(FOLLOWER_REPLICATION_THROTTLED_REPLICAS, Type.LIST, "", Importance.LOW,
                    "Replicas whose follower-side replication is throttled, as partition:broker pairs or '*': broker, "
                            + "following the partition outside the ISR, fetches at most follower.replication.throttled.rate.")
            .define(REMOTE_STORAGE_ENABLE, Type.BOOLEAN, false, Importance.MEDIUM,
                    "Tiered storage for this topic: the leader copies closed segments to remote storage, local "
                            + "retention (local.retention.ms/bytes) deletes copied segments from the brokers' disks and "
                            + "retention.ms/bytes apply to the whole log. Needs remote.log.storage.system.enable=true; "
                            + "not for compacted topics; cannot be turned off again.")
            .define(LOCAL_RETENTION_MS, Type.LONG, DEFAULT_LOCAL_RETENTION, Range.atLeast(-2), Importance.MEDIUM,
                    "Retention of the local part of this tiered log, in ms; -2 means retention.ms (overrides "
                            + LOG_LOCAL_RETENTION_MS + ").")
            .define(LOCAL_RETENTION_BYTES, Type.LONG, DEFAULT_LOCAL_RETENTION, Range.atLeast(-2), Importance.MEDIUM,
                    "Retention size of the local part of each partition of this tiered topic; -2 means retention.bytes "
                            + "(overrides " + LOG_LOCAL_RETENTION_BYTES + ").")
            .define(REMOTE_LOG_COPY_DISABLE, Type.BOOLEAN, false, Importance.LOW,
                    "Stops copying this tiered topic's segments to remote storage; what is there stays readable.")
            .define(REMOTE_COPY_LAG_MS, Type.LONG, 0L, Range.atLeast(-1), Importance.LOW,
                    "How long a closed segment of this topic waits before it is copied, in ms." + NO_EFFECT)
            .define(REMOTE_COPY_LAG_BYTES, Type.LONG, -1L, Range.atLeast(-1), Importance.LOW,
                    "How many closed bytes of this topic wait before they are copied." + NO_EFFECT)
            .define(REMOTE_LOG_DELETE_ON_DISABLE, Type.BOOLEAN, false, Importance.LOW,
                    "Deletes the remote copy when tiering is turned off; this broker refuses turning it off." + NO_EFFECT)
            .define(ERRORS_DEADLETTERQUEUE_GROUP_ENABLE, Type.BOOLEAN, false, Importance.LOW,
                    "Accepted for compatibility and has no effect: it concerns Kafka Streams groups (KIP-1034), "
                            + "which this broker does not run.");

    /** Topic keys whose broker default is one broker key's value as it is. */
    private static final Map<String, String> DIRECT_SYNONYMS = Map.ofEntries(
            Map.entry(SEGMENT_BYTES, LOG_SEGMENT_BYTES),
            Map.entry(SEGMENT_INDEX_BYTES, LOG_INDEX_SIZE_MAX_BYTES),
            Map.entry(INDEX_INTERVAL_BYTES, LOG_INDEX_INTERVAL_BYTES),
            Map.entry(FLUSH_MESSAGES, LOG_FLUSH_INTERVAL_MESSAGES),
            Map.entry(RETENTION_BYTES, LOG_RETENTION_BYTES),
            Map.entry(MAX_MESSAGE_BYTES, MESSAGE_MAX_BYTES),
            Map.entry(MAX_DECOMPRESSED_MESSAGE_BYTES, MAX_DECOMPRESSED_MESSAGE_BYTES),
            Map.entry(CLEANUP_POLICY, LOG_CLEANUP_POLICY),
            Map.entry(MESSAGE_TIMESTAMP_TYPE, LOG_MESSAGE_TIMESTAMP_TYPE),
            Map.entry(MESSAGE_TIMESTAMP_BEFORE_MAX_MS, LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS),
            Map.entry(MESSAGE_TIMESTAMP_AFTER_MAX_MS, LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS),
            Map.entry(FILE_DELETE_DELAY_MS, LOG_SEGMENT_DELETE_DELAY_MS),
            Map.entry(DELETE_RETENTION_MS, LOG_CLEANER_DELETE_RETENTION_MS),
            Map.entry(MIN_COMPACTION_LAG_MS, LOG_CLEANER_MIN_COMPACTION_LAG_MS),
            Map.entry(MAX_COMPACTION_LAG_MS, LOG_CLEANER_MAX_COMPACTION_LAG_MS),
            Map.entry(MIN_CLEANABLE_DIRTY_RATIO, LOG_CLEANER_MIN_CLEANABLE_RATIO),
            Map.entry(MIN_IN_SYNC_REPLICAS, MIN_IN_SYNC_REPLICAS),
            Map.entry(COMPRESSION_TYPE, COMPRESSION_TYPE),
            Map.entry(COMPRESSION_GZIP_LEVEL, COMPRESSION_GZIP_LEVEL),
            Map.entry(COMPRESSION_LZ4_LEVEL, COMPRESSION_LZ4_LEVEL),
            Map.entry(COMPRESSION_ZSTD_LEVEL, COMPRESSION_ZSTD_LEVEL),
            Map.entry(PREALLOCATE, LOG_PREALLOCATE),
            Map.entry(LOCAL_RETENTION_MS, LOG_LOCAL_RETENTION_MS),
            Map.entry(LOCAL_RETENTION_BYTES, LOG_LOCAL_RETENTION_BYTES),
            Map.entry(REMOTE_COPY_LAG_MS, LOG_REMOTE_COPY_LAG_MS),
            Map.entry(REMOTE_COPY_LAG_BYTES, LOG_REMOTE_COPY_LAG_BYTES));

    /**
     * Topic keys whose broker default comes from the first of several broker keys that is set, or a unit
     * conversion, or a key declared outside the log keys.
     */
    private static final Map<String, List<String>> COMPUTED_SYNONYMS = Map.of(
            SEGMENT_MS, List.of(LOG_ROLL_MS, LOG_ROLL_HOURS),
            SEGMENT_JITTER_MS, List.of(LOG_ROLL_JITTER_MS, LOG_ROLL_JITTER_HOURS),
            FLUSH_MS, List.of(LOG_FLUSH_INTERVAL_MS, LOG_FLUSH_SCHEDULER_INTERVAL_MS),
            RETENTION_MS, List.of(LOG_RETENTION_MS, LOG_RETENTION_MINUTES, LOG_RETENTION_HOURS),
            // Declared by BrokerConfig (the controller reads it there), not among the log keys.
            UNCLEAN_LEADER_ELECTION_ENABLE, List.of(UNCLEAN_LEADER_ELECTION_ENABLE));

    private final Map<String, Object> topicValues;
    private final BrokerSettings broker;
    private final Optional<Compression> storedCompression;

    /** Settings that exist only per broker, not per topic (directories, scheduler intervals, threads). */
    record BrokerSettings(List<Path> logDirs, long flushSchedulerIntervalMs, int flushCheckpointIntervalMs,
                          long retentionCheckIntervalMs, int recoveryThreadsPerDataDir, int cleanerThreads,
                          long cleanerBackoffMs, boolean readMmap, boolean remoteStorageSystemEnable) {
    }

    private LogConfig(Map<String, Object> topicValues, BrokerSettings broker) {
        this.topicValues = Map.copyOf(topicValues);
        this.broker = broker;
        this.storedCompression = storedCompression(this.topicValues);
    }

    /** Schema of the broker-level {@code log.*} keys. Returns a fresh copy the caller may extend. */
    public static ConfigDef brokerConfigDef() {
        return new ConfigDef(BROKER_DEF);
    }

    /** Schema of the per-topic override keys. Returns a fresh copy the caller may extend. */
    public static ConfigDef topicConfigDef() {
        return new ConfigDef(TOPIC_DEF);
    }

    /**
     * Each topic key's broker-level synonyms (server.properties keys that set its default), most specific first;
     * keys with no broker default are absent. The same table as Kafka's.
     */
    public static Map<String, List<String>> brokerSynonyms() {
        Map<String, List<String>> synonyms = new HashMap<>(COMPUTED_SYNONYMS);
        DIRECT_SYNONYMS.forEach((topicKey, brokerKey) -> synonyms.put(topicKey, List.of(brokerKey)));
        return synonyms;
    }

    /** Kafka's defaults for every key. */
    public static LogConfig defaults() {
        return fromBroker(Map.of());
    }

    /**
     * Broker defaults from server properties. Keys that are not log keys are ignored.
     *
     * @throws ConfigException if a log key has an invalid value
     */
    public static LogConfig fromBroker(Map<String, ?> brokerProps) {
        Map<String, Object> b = BROKER_DEF.parse(brokerProps);
        Map<String, Object> topic = new HashMap<>();
        DIRECT_SYNONYMS.forEach((topicKey, brokerKey) -> topic.put(topicKey, b.get(brokerKey)));
        topic.put(SEGMENT_MS, rollMs(b));
        topic.put(SEGMENT_JITTER_MS, rollJitterMs(b));
        topic.put(FLUSH_MS, b.get(LOG_FLUSH_INTERVAL_MS) != null
                ? b.get(LOG_FLUSH_INTERVAL_MS) : b.get(LOG_FLUSH_SCHEDULER_INTERVAL_MS));
        topic.put(RETENTION_MS, retentionMs(b));
        Object unclean = brokerProps.get(UNCLEAN_LEADER_ELECTION_ENABLE); // declared and validated by BrokerConfig
        if (unclean != null) {
            topic.put(UNCLEAN_LEADER_ELECTION_ENABLE, ConfigDef.parseType(UNCLEAN_LEADER_ELECTION_ENABLE, unclean, Type.BOOLEAN));
        }
        // Topic keys with no broker-level default (Kafka has none either) take the topic schema's default.
        TOPIC_DEF.parse(Map.of()).forEach(topic::putIfAbsent);
        @SuppressWarnings("unchecked")
        List<String> dirs = (List<String>) b.get(LOG_DIRS);
        BrokerSettings broker = new BrokerSettings(
                dirs.stream().map(Path::of).toList(),
                (Long) b.get(LOG_FLUSH_SCHEDULER_INTERVAL_MS),
                (Integer) b.get(LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS),
                (Long) b.get(LOG_RETENTION_CHECK_INTERVAL_MS),
                (Integer) b.get(NUM_RECOVERY_THREADS_PER_DATA_DIR),
                (Boolean) b.get(LOG_CLEANER_ENABLE) ? (Integer) b.get(LOG_CLEANER_THREADS) : 0,
                (Long) b.get(LOG_CLEANER_BACKOFF_MS),
                (Boolean) b.get(LOG_READ_MMAP_ENABLE),
                (Boolean) b.get(REMOTE_LOG_STORAGE_SYSTEM_ENABLE));
        return new LogConfig(topic, broker);
    }

    private static long rollJitterMs(Map<String, Object> b) {
        Long ms = (Long) b.get(LOG_ROLL_JITTER_MS);
        return ms != null ? ms : 60L * 60 * 1000 * (Integer) b.get(LOG_ROLL_JITTER_HOURS);
    }

    private static long rollMs(Map<String, Object> b) {
        Long ms = (Long) b.get(LOG_ROLL_MS);
        return ms != null ? ms : 60L * 60 * 1000 * (Integer) b.get(LOG_ROLL_HOURS);
    }

    private static long retentionMs(Map<String, Object> b) {
        Long ms = (Long) b.get(LOG_RETENTION_MS);
        if (ms != null) {
            return ms < 0 ? -1 : ms;
        }
        Integer minutes = (Integer) b.get(LOG_RETENTION_MINUTES);
        if (minutes != null) {
            return minutes < 0 ? -1 : 60_000L * minutes;
        }
        int hours = (Integer) b.get(LOG_RETENTION_HOURS);
        return hours < 0 ? -1 : 3_600_000L * hours;
    }

    /**
     * These settings with the given topic overrides applied. Only the keys present are changed.
     *
     * @throws ConfigException on an unknown key or an invalid value
     */
    public LogConfig withTopicOverrides(Map<String, String> topicOverrides) {
        for (String key : topicOverrides.keySet()) {
            if (!TOPIC_DEF.names().contains(key)) {
                throw new ConfigException("Unknown topic config " + key);
            }
        }
        Map<String, Object> parsed = TOPIC_DEF.parse(topicOverrides);
        Map<String, Object> merged = new HashMap<>(topicValues);
        topicOverrides.keySet().forEach(key -> merged.put(key, parsed.get(key)));
        if ((Long) merged.get(MIN_COMPACTION_LAG_MS) > (Long) merged.get(MAX_COMPACTION_LAG_MS)) {
            throw new ConfigException("conflict topic configs: " + MIN_COMPACTION_LAG_MS + " " + merged.get(MIN_COMPACTION_LAG_MS)
                    + " is larger than " + MAX_COMPACTION_LAG_MS + " " + merged.get(MAX_COMPACTION_LAG_MS));
        }
        LogConfig config = new LogConfig(merged, broker);
        config.checkTieredStorage();
        return config;
    }

    /** Kafka's rules for a tiered topic: the broker has remote storage, no compaction, local retention within the whole. */
    private void checkTieredStorage() {
        if (!remoteStorageEnable()) {
            return;
        }
        if (!broker.remoteStorageSystemEnable()) {
            throw new ConfigException(REMOTE_STORAGE_ENABLE, true, "tiered storage is disabled on this broker ("
                    + REMOTE_LOG_STORAGE_SYSTEM_ENABLE + "=false): the topic cannot be configured with remote log storage");
        }
        if (compactionEnabled()) {
            throw new ConfigException(REMOTE_STORAGE_ENABLE, true, "remote log storage is unsupported for compacted topics");
        }
        long local = (Long) topicValues.get(LOCAL_RETENTION_MS);
        if (local >= 0 && retentionMs() >= 0 && local > retentionMs() || local == -1 && retentionMs() >= 0) {
            throw new ConfigException(LOCAL_RETENTION_MS, local, "the local retention cannot be longer than "
                    + RETENTION_MS + " (" + retentionMs() + ")");
        }
        long localBytes = (Long) topicValues.get(LOCAL_RETENTION_BYTES);
        if (localBytes >= 0 && retentionBytes() >= 0 && localBytes > retentionBytes()
                || localBytes == -1 && retentionBytes() >= 0) {
            throw new ConfigException(LOCAL_RETENTION_BYTES, localBytes, "the local retention size cannot be larger than "
                    + RETENTION_BYTES + " (" + retentionBytes() + ")");
        }
    }

    public int segmentBytes() {
        return (Integer) topicValues.get(SEGMENT_BYTES);
    }

    public long segmentMs() {
        return (Long) topicValues.get(SEGMENT_MS);
    }

    /**
     * The age at which the active segment rolls: segment.ms, or max.compaction.lag.ms if smaller on a compacted
     * topic, since the cleaner never touches the active segment (as Kafka's maxSegmentMs).
     */
    public long rollMs() {
        return compactionEnabled() ? Math.min(segmentMs(), maxCompactionLagMs()) : segmentMs();
    }

    /** The largest random amount by which a segment rolls before segment.ms, in ms (0: none). */
    public long segmentJitterMs() {
        return (Long) topicValues.get(SEGMENT_JITTER_MS);
    }

    public long timestampBeforeMaxMs() {
        return (Long) topicValues.get(MESSAGE_TIMESTAMP_BEFORE_MAX_MS);
    }

    public long timestampAfterMaxMs() {
        return (Long) topicValues.get(MESSAGE_TIMESTAMP_AFTER_MAX_MS);
    }

    /** The largest record accepted once decompressed, in bytes. */
    public int maxDecompressedMessageBytes() {
        return (Integer) topicValues.get(MAX_DECOMPRESSED_MESSAGE_BYTES);
    }

    /** Whether a replica outside the ISR may lead when no ISR member is alive: the topic's setting, else the broker's. */
    public boolean uncleanLeaderElectionEnable() {
        return (Boolean) topicValues.get(UNCLEAN_LEADER_ELECTION_ENABLE);
    }

    /** leader.replication.throttled.replicas: {@code partition:broker} pairs, or {@code *}. */
    @SuppressWarnings("unchecked")
    public List<String> leaderReplicationThrottledReplicas() {
        return (List<String>) topicValues.get(LEADER_REPLICATION_THROTTLED_REPLICAS);
    }

    /** follower.replication.throttled.replicas: {@code partition:broker} pairs, or {@code *}. */
    @SuppressWarnings("unchecked")
    public List<String> followerReplicationThrottledReplicas() {
        return (List<String>) topicValues.get(FOLLOWER_REPLICATION_THROTTLED_REPLICAS);
    }

    /** How long a record stays out of the cleaner's reach after it was written, in ms. */
    public long minCompactionLagMs() {
        return (Long) topicValues.get(MIN_COMPACTION_LAG_MS);
    }

    /** How long a record may stay uncompacted before the log is cleaned whatever its dirty ratio, in ms. */
    public long maxCompactionLagMs() {
        return (Long) topicValues.get(MAX_COMPACTION_LAG_MS);
    }

    /**
     * The codec (with its level) batches are stored in, or empty when the producer's codec is kept
     * (compression.type=producer).
     */
    public Optional<Compression> storedCompression() {
        return storedCompression;
    }

    private static Optional<Compression> storedCompression(Map<String, Object> topicValues) {
        String type = (String) topicValues.get(COMPRESSION_TYPE);
        return switch (type) {
            case COMPRESSION_PRODUCER -> Optional.empty();
            case COMPRESSION_UNCOMPRESSED -> Optional.of(Compression.NONE);
            default -> Optional.of(switch (CompressionType.forName(type)) {
                case GZIP -> Compression.gzip().level((Integer) topicValues.get(COMPRESSION_GZIP_LEVEL)).build();
                case LZ4 -> Compression.lz4().level((Integer) topicValues.get(COMPRESSION_LZ4_LEVEL)).build();
                case ZSTD -> Compression.zstd().level((Integer) topicValues.get(COMPRESSION_ZSTD_LEVEL)).build();
                default -> Compression.of(type).build();
            });
        };
    }

    public int indexIntervalBytes() {
        return (Integer) topicValues.get(INDEX_INTERVAL_BYTES);
    }

    public int segmentIndexBytes() {
        return (Integer) topicValues.get(SEGMENT_INDEX_BYTES);
    }

    public long flushMessages() {
        return (Long) topicValues.get(FLUSH_MESSAGES);
    }

    public long flushMs() {
        return (Long) topicValues.get(FLUSH_MS);
    }

    /** Retention time in ms, or -1 for no time limit. */
    public long retentionMs() {
        return (Long) topicValues.get(RETENTION_MS);
    }

    /** Retention size in bytes, or a negative value for no size limit. */
    public long retentionBytes() {
        return (Long) topicValues.get(RETENTION_BYTES);
    }

    /** Whether this topic is tiered (remote.storage.enable): its closed segments are copied to remote storage. */
    public boolean remoteStorageEnable() {
        return (Boolean) topicValues.get(REMOTE_STORAGE_ENABLE);
    }

    /** Whether copying to remote storage is stopped (remote.log.copy.disable). */
    public boolean remoteLogCopyDisable() {
        return (Boolean) topicValues.get(REMOTE_LOG_COPY_DISABLE);
    }

    /** The retention of the local part of a tiered log, in ms (-1: no time limit); -2 resolves to retention.ms. */
    public long localRetentionMs() {
        long local = (Long) topicValues.get(LOCAL_RETENTION_MS);
        return local == DEFAULT_LOCAL_RETENTION ? retentionMs() : local;
    }

    /** The retention size of the local part of a tiered log (negative: no limit); -2 resolves to retention.bytes. */
    public long localRetentionBytes() {
        long local = (Long) topicValues.get(LOCAL_RETENTION_BYTES);
        return local == DEFAULT_LOCAL_RETENTION ? retentionBytes() : local;
    }

    public int maxMessageBytes() {
        return (Integer) topicValues.get(MAX_MESSAGE_BYTES);
    }

    public long fileDeleteDelayMs() {
        return (Long) topicValues.get(FILE_DELETE_DELAY_MS);
    }

    public TimestampType timestampType() {
        return TimestampType.forName((String) topicValues.get(MESSAGE_TIMESTAMP_TYPE));
    }

    /** True when old segments are deleted by time and size ('delete' in cleanup.policy). */
    public boolean deleteRetentionEnabled() {
        @SuppressWarnings("unchecked")
        List<String> policies = (List<String>) topicValues.get(CLEANUP_POLICY);
        return policies.contains(CLEANUP_POLICY_DELETE);
    }

    public List<Path> logDirs() {
        return broker.logDirs();
    }

    public long flushSchedulerIntervalMs() {
        return broker.flushSchedulerIntervalMs();
    }

    public int flushCheckpointIntervalMs() {
        return broker.flushCheckpointIntervalMs();
    }

    public long retentionCheckIntervalMs() {
        return broker.retentionCheckIntervalMs();
    }

    /** The mappings inactive segments are read through ({@link SegmentMappings#OFF} when turned off). */
    SegmentMappings segmentMappings() {
        return broker.readMmap() ? SegmentMappings.PROCESS : SegmentMappings.OFF;
    }

    public int recoveryThreadsPerDataDir() {
        return broker.recoveryThreadsPerDataDir();
    }

    /** True when the cleaner compacts this log ('compact' in cleanup.policy). */
    public boolean compactionEnabled() {
        @SuppressWarnings("unchecked")
        List<String> policies = (List<String>) topicValues.get(CLEANUP_POLICY);
        return policies.contains(CLEANUP_POLICY_COMPACT);
    }

    /** How long the cleaner keeps a tombstone after it first saw it, in ms. */
    public long deleteRetentionMs() {
        return (Long) topicValues.get(DELETE_RETENTION_MS);
    }

    /** The dirty share of the closed segments at which the log is cleaned. */
    public double minCleanableDirtyRatio() {
        return (Double) topicValues.get(MIN_CLEANABLE_DIRTY_RATIO);
    }

    /** The smallest ISR with which an acks=-1 produce is accepted. */
    public int minInSyncReplicas() {
        return (Integer) topicValues.get(MIN_IN_SYNC_REPLICAS);
    }

    /** Cleaner threads to run; 0 when log.cleaner.enable is false. */
    public int cleanerThreads() {
        return broker.cleanerThreads();
    }

    public long cleanerBackoffMs() {
        return broker.cleanerBackoffMs();
    }

    /** Whether this broker runs tiered storage (remote.log.storage.system.enable). */
    public boolean remoteStorageSystemEnable() {
        return broker.remoteStorageSystemEnable();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LogConfig other && topicValues.equals(other.topicValues) && broker.equals(other.broker);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topicValues, broker);
    }

    @Override
    public String toString() {
        return "LogConfig" + topicValues;
    }
}

package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What a leader demands of producer records beyond well-formedness, and what it stores them as (topic configs). */
class LeaderAppendRulesTest {
    private static final long PRODUCER_ID = 4711;
    private static final short EPOCH = 3;
    private static final int SEQUENCE = 42;

    @TempDir
    Path root;

    private LogFixture fixture(Map<String, String> overrides) {
        return new LogFixture(root, overrides);
    }

    /** One batch from an idempotent producer; a null key where {@code keys[i]} is null. */
    private static MemoryRecords batch(Compression compression, long timestamp, String... keys) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(4096), RecordBatch.MAGIC_VALUE_V2,
                compression, TimestampType.CREATE_TIME, 0L, RecordBatch.NO_TIMESTAMP, PRODUCER_ID, EPOCH, SEQUENCE,
                false, RecordBatch.NO_PARTITION_LEADER_EPOCH);
        for (int i = 0; i < keys.length; i++) {
            byte[] key = keys[i] == null ? null : keys[i].getBytes(StandardCharsets.UTF_8);
            Header[] headers = {new RecordHeader("h", ("header-" + i).getBytes(StandardCharsets.UTF_8))};
            builder.append(new SimpleRecord(timestamp + i, key, ("value-" + i).getBytes(StandardCharsets.UTF_8), headers));
        }
        return builder.build();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = CompressionType.class, names = {"NONE", "GZIP", "ZSTD"})
    void aCompactedTopicRefusesAKeylessRecordAndAppendsNothing(CompressionType codec) throws Exception {
        LogFixture fixture = fixture(Map.of(LogConfig.CLEANUP_POLICY, "compact"));
        PartitionLog log = fixture.open();
        long now = fixture.time.milliseconds();
        assertThatThrownBy(() -> log.appendAsLeader(batch(Compression.of(codec).build(), now, "a", null, "c"), 0))
                .isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("Compacted topic cannot accept message without key")
                .hasMessageContaining("record 1");
        assertThat(log.logEndOffset()).isZero();
        log.appendAsLeader(batch(Compression.of(codec).build(), now, "a", "b"), 0);
        assertThat(log.logEndOffset()).isEqualTo(2);
    }

    @Test
    void aTopicThatDeletesAcceptsKeylessRecords() throws Exception {
        LogFixture fixture = fixture(Map.of());
        PartitionLog log = fixture.open();
        log.appendAsLeader(batch(Compression.NONE, fixture.time.milliseconds(), null, null), 0);
        assertThat(log.logEndOffset()).isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = CompressionType.class, names = {"NONE", "LZ4"})
    void aCreateTimeStampMoreThanAnHourAheadIsRefusedByDefault(CompressionType codec) throws Exception {
        LogFixture fixture = fixture(Map.of());
        PartitionLog log = fixture.open();
        long hourAhead = fixture.time.milliseconds() + 3_600_000L;
        Compression compression = Compression.of(codec).build();
        // The second record's timestamp is hourAhead + 1: one millisecond too far.
        assertThatThrownBy(() -> log.appendAsLeader(batch(compression, hourAhead, "a", "b"), 0))
                .isInstanceOf(InvalidTimestampException.class)
                .hasMessageContaining("Timestamp " + (hourAhead + 1) + " of record 1");
        assertThat(log.logEndOffset()).isZero();
        log.appendAsLeader(batch(compression, hourAhead, "a"), 0);
        assertThat(log.logEndOffset()).isEqualTo(1);
    }

    @Test
    void aTimestampFurtherBackThanTheTopicAllowsIsRefused() throws Exception {
        LogFixture fixture = fixture(Map.of(LogConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS, "1000"));
        PartitionLog log = fixture.open();
        long now = fixture.time.milliseconds();
        assertThatThrownBy(() -> log.appendAsLeader(batch(Compression.NONE, now - 1001, "a"), 0))
                .isInstanceOf(InvalidTimestampException.class);
        log.appendAsLeader(batch(Compression.NONE, now - 1000, "a"), 0);
        assertThat(log.logEndOffset()).isEqualTo(1);
    }

    @Test
    void logAppendTimeTopicsTakeAnyProducerTimestamp() throws Exception {
        LogFixture fixture = fixture(Map.of(LogConfig.MESSAGE_TIMESTAMP_TYPE, "LogAppendTime",
                LogConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS, "0"));
        PartitionLog log = fixture.open();
        log.appendAsLeader(batch(Compression.NONE, Long.MAX_VALUE / 2, "a"), 0);
        assertThat(log.logEndOffset()).isEqualTo(1);
    }

    @Test
    void aRecordLargerDecompressedThanAllowedIsRefused() throws Exception {
        LogFixture fixture = fixture(Map.of(LogConfig.MAX_DECOMPRESSED_MESSAGE_BYTES, "40"));
        PartitionLog log = fixture.open();
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(4096), Compression.gzip().build(),
                TimestampType.CREATE_TIME, 0L);
        builder.append(fixture.time.milliseconds(), "k".getBytes(StandardCharsets.UTF_8), new byte[200]);
        assertThatThrownBy(() -> log.appendAsLeader(builder.build(), 0))
                .isInstanceOf(RecordTooLargeException.class)
                .hasMessageContaining("more than the 40 a record may take here");
        assertThat(log.logEndOffset()).isZero();
    }

    @ParameterizedTest(name = "compression.type={0}")
    @EnumSource(value = CompressionType.class, names = {"NONE", "GZIP", "SNAPPY", "LZ4", "ZSTD"})
    void aTopicCodecReCompressesWhatArrivesOtherwiseAndKeepsRecordsAndProducerFields(CompressionType stored)
            throws Exception {
        String name = stored == CompressionType.NONE ? "uncompressed" : stored.name;
        Compression sent = stored == CompressionType.GZIP ? Compression.zstd().build() : Compression.gzip().build();
        LogFixture fixture = fixture(Map.of(LogConfig.COMPRESSION_TYPE, name));
        PartitionLog log = fixture.open();
        long now = fixture.time.milliseconds();
        log.appendAsLeader(batch(Compression.NONE, now, "x"), 0);
        log.appendAsLeader(batch(sent, now, "a", "b", "c"), 5);

        List<RecordBatch> batches = TestRecords.storedBatches(log);
        assertThat(batches).extracting(RecordBatch::compressionType).containsOnly(stored);
        RecordBatch rewritten = batches.get(1);
        assertThat(rewritten.baseOffset()).isEqualTo(1);
        assertThat(rewritten.lastOffset()).isEqualTo(3);
        assertThat(rewritten.partitionLeaderEpoch()).isEqualTo(5);
        assertThat(rewritten.producerId()).isEqualTo(PRODUCER_ID);
        assertThat(rewritten.producerEpoch()).isEqualTo(EPOCH);
        assertThat(rewritten.baseSequence()).isEqualTo(SEQUENCE);
        rewritten.ensureValid();
        List<String> seen = new ArrayList<>();
        for (Record record : rewritten) {
            seen.add(text(record.key()) + "=" + text(record.value()) + "@" + (record.timestamp() - now)
                    + "/" + new String(record.headers()[0].value(), StandardCharsets.UTF_8));
        }
        assertThat(seen).containsExactly("a=value-0@0/header-0", "b=value-1@1/header-1", "c=value-2@2/header-2");
    }

    @Test
    void producerKeepsTheProducersCodec() throws Exception {
        LogFixture fixture = fixture(Map.of());
        PartitionLog log = fixture.open();
        log.appendAsLeader(batch(Compression.lz4().build(), fixture.time.milliseconds(), "a", "b"), 0);
        assertThat(TestRecords.storedBatches(log)).extracting(RecordBatch::compressionType)
                .containsExactly(CompressionType.LZ4);
    }

    @Test
    void aBatchThatGrowsPastMaxMessageBytesWhenDecompressedIsRefused() throws Exception {
        LogFixture fixture = fixture(Map.of(LogConfig.COMPRESSION_TYPE, "uncompressed",
                LogConfig.MAX_MESSAGE_BYTES, "1000"));
        PartitionLog log = fixture.open();
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(8192), Compression.gzip().build(),
                TimestampType.CREATE_TIME, 0L);
        for (int i = 0; i < 10; i++) {
            builder.append(fixture.time.milliseconds(), "k".getBytes(StandardCharsets.UTF_8), new byte[500]);
        }
        MemoryRecords compressed = builder.build();
        assertThat(compressed.sizeInBytes()).isLessThan(1000);
        assertThatThrownBy(() -> log.appendAsLeader(compressed, 0))
                .isInstanceOf(RecordTooLargeException.class)
                .hasMessageContaining("once re-compressed to none");
        assertThat(log.logEndOffset()).isZero();
    }

    @Test
    void segmentJitterRollsEachSegmentAtItsOwnTimeWithinTheJitterBeforeSegmentMs() throws Exception {
        LogFixture fixture = fixture(Map.of(LogConfig.SEGMENT_MS, "1000", LogConfig.SEGMENT_JITTER_MS, "800"));
        PartitionLog log = fixture.open();
        List<Long> rolledAfter = new ArrayList<>();
        long segmentStart = fixture.time.milliseconds();
        for (int step = 0; step < 20_000 && rolledAfter.size() < 8; step++) {
            int before = log.numberOfSegments();
            log.appendAsLeader(batch(Compression.NONE, fixture.time.milliseconds(), "k"), 0);
            if (log.numberOfSegments() > before) {
                rolledAfter.add(fixture.time.milliseconds() - segmentStart);
                segmentStart = fixture.time.milliseconds();
            }
            fixture.time.sleep(1);
        }
        assertThat(rolledAfter).hasSize(8);
        // Rolled when it had waited more than segment.ms minus its jitter: after 200 to 1001 ms.
        assertThat(rolledAfter).allSatisfy(waited -> assertThat(waited).isBetween(201L, 1001L));
        assertThat(rolledAfter.stream().distinct().count()).as("segments roll at different ages").isGreaterThan(1);
    }

    @Test
    void aRecordWithoutATimestampIsNotCheckedAgainstTheWindow() throws Exception {
        LogFixture fixture = fixture(Map.of(LogConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS, "1000"));
        PartitionLog log = fixture.open();
        log.appendAsLeader(batch(Compression.NONE, RecordBatch.NO_TIMESTAMP, "a"), 0);
        assertThat(log.logEndOffset()).isEqualTo(1);
    }

    @Test
    void aProducerBatchThatClaimsLogAppendTimeIsRefused() throws Exception {
        LogFixture fixture = fixture(Map.of());
        PartitionLog log = fixture.open();
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(1024), Compression.NONE,
                TimestampType.LOG_APPEND_TIME, 0L);
        builder.append(fixture.time.milliseconds(), "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> log.appendAsLeader(builder.build(), 0)).isInstanceOf(InvalidTimestampException.class);
        assertThat(log.logEndOffset()).isZero();
    }

    @Test
    void aHugeRecordIsRefusedBeforeItIsDecompressedForAnUncompressedTopic() throws Exception {
        LogFixture fixture = fixture(Map.of(LogConfig.COMPRESSION_TYPE, "uncompressed", LogConfig.MAX_MESSAGE_BYTES, "100000"));
        PartitionLog log = fixture.open();
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(1 << 20), Compression.zstd().build(),
                TimestampType.CREATE_TIME, 0L);
        builder.append(fixture.time.milliseconds(), "k".getBytes(StandardCharsets.UTF_8), new byte[50_000_000]);
        MemoryRecords zeros = builder.build();
        assertThat(zeros.sizeInBytes()).isLessThan(100_000);
        assertThatThrownBy(() -> log.appendAsLeader(zeros, 0)).isInstanceOf(RecordTooLargeException.class)
                .hasMessageContaining("more than the 100000 a record may take here");
    }

    @Test
    void manySmallRecordsThatGrowTooLargeStopTheRewriteEarly() throws Exception {
        LogFixture fixture = fixture(Map.of(LogConfig.COMPRESSION_TYPE, "uncompressed", LogConfig.MAX_MESSAGE_BYTES, "100000"));
        PartitionLog log = fixture.open();
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(1 << 20), Compression.zstd().build(),
                TimestampType.CREATE_TIME, 0L);
        for (int i = 0; i < 20_000; i++) {
            builder.append(fixture.time.milliseconds(), "k".getBytes(StandardCharsets.UTF_8), new byte[10_000]);
        }
        MemoryRecords zeros = builder.build();
        assertThatThrownBy(() -> log.appendAsLeader(zeros, 0)).isInstanceOf(RecordTooLargeException.class)
                .hasMessageContaining("once re-compressed to none");
    }

    @Test
    void aCompactedTopicRollsItsActiveSegmentByMaxCompactionLag() throws Exception {
        LogFixture fixture = fixture(Map.of(LogConfig.CLEANUP_POLICY, "compact", LogConfig.MAX_COMPACTION_LAG_MS, "1000"));
        PartitionLog log = fixture.open();
        log.appendAsLeader(batch(Compression.NONE, fixture.time.milliseconds(), "a"), 0);
        fixture.time.sleep(1001);
        log.appendAsLeader(batch(Compression.NONE, fixture.time.milliseconds(), "a"), 0);
        assertThat(log.numberOfSegments()).as("rolled after max.compaction.lag.ms, long before segment.ms").isEqualTo(2);
    }

    @Test
    void aMinCompactionLagAboveTheMaxIsRefused() {
        assertThatThrownBy(() -> LogConfig.defaults().withTopicOverrides(Map.of(LogConfig.MIN_COMPACTION_LAG_MS, "2000",
                LogConfig.MAX_COMPACTION_LAG_MS, "1000")))
                .isInstanceOf(org.apache.kafka.common.config.ConfigException.class)
                .hasMessageContaining("min.compaction.lag.ms");
    }

    private static String text(ByteBuffer buffer) {
        return StandardCharsets.UTF_8.decode(buffer.duplicate()).toString();
    }
}

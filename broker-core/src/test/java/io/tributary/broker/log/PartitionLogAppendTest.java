package io.tributary.broker.log;

import static io.tributary.broker.log.TestRecords.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class PartitionLogAppendTest {

    @TempDir
    Path root;

    private PartitionLog open(Map<String, String> overrides) throws Exception {
        return new LogFixture(root, overrides).open();
    }

    private static List<Long> range(long from, long toExclusive) {
        return LongStream.range(from, toExclusive).boxed().toList();
    }

    @ParameterizedTest(name = "{0} records per batch")
    @ValueSource(ints = {1, 2, 100})
    void assignsConsecutiveOffsetsAcrossBatches(int perBatch) throws Exception {
        PartitionLog log = open(Map.of());
        LogAppendInfo first = log.appendAsLeader(batch(perBatch, 10, 1000), 0);
        LogAppendInfo second = log.appendAsLeader(batch(perBatch, 10, 2000), 0);
        assertThat(first.firstOffset()).isZero();
        assertThat(first.lastOffset()).isEqualTo(perBatch - 1);
        assertThat(first.recordCount()).isEqualTo(perBatch);
        assertThat(second.firstOffset()).isEqualTo(perBatch);
        assertThat(log.logEndOffset()).isEqualTo(2L * perBatch);
        assertThat(TestRecords.offsets(log.read(0, Integer.MAX_VALUE, Long.MAX_VALUE, false).records()))
                .isEqualTo(range(0, 2L * perBatch));
    }

    /** Kafka takes them (CreateTime allows NO_TIMESTAMP); they leave the time index empty, as in Kafka. */
    @Test
    void recordsWithoutTimestampsAreAppendedPastTheIndexInterval() throws Exception {
        PartitionLog log = open(Map.of(LogConfig.INDEX_INTERVAL_BYTES, "100"));
        for (int i = 0; i < 5; i++) {
            log.appendAsLeader(MemoryRecords.withRecords(Compression.NONE,
                    new SimpleRecord(RecordBatch.NO_TIMESTAMP, null, TestRecords.value(i, 100))), 0);
        }
        assertThat(log.logEndOffset()).isEqualTo(5);
        assertThat(TestRecords.offsets(log.read(0, 10_000, Long.MAX_VALUE, false).records())).isEqualTo(range(0, 5));
        assertThat(log.offsetForTimestamp(0)).isEmpty();
    }

    @Test
    void keepsTheBytesAsSentWithTheLeaderEpochStampedAndTheCrcValid() throws Exception {
        PartitionLog log = open(Map.of());
        MemoryRecords sent = batch(3, 20, 1234);
        LogAppendInfo info = log.appendAsLeader(sent, 7);
        assertThat(info.maxTimestamp()).isEqualTo(1236);
        assertThat(info.logAppendTime()).isEqualTo(-1);
        assertThat(info.validBytes()).isEqualTo(sent.sizeInBytes());
        RecordBatch stored = TestRecords.storedBatches(log).get(0);
        assertThat(stored.partitionLeaderEpoch()).isEqualTo(7);
        assertThat(stored.isValid()).isTrue();
        assertThat(stored.timestampType()).isEqualTo(TimestampType.CREATE_TIME);
        assertThat(TestRecords.records(log.read(0, 10_000, Long.MAX_VALUE, false).records()))
                .extracting(TestRecords.Read::value)
                .containsExactly(new String(TestRecords.value(0, 20)), new String(TestRecords.value(1, 20)),
                        new String(TestRecords.value(2, 20)));
    }

    @Test
    void stampsTheBrokerTimeWhenTheTopicUsesLogAppendTime() throws Exception {
        LogFixture fixture = new LogFixture(root, Map.of(LogConfig.MESSAGE_TIMESTAMP_TYPE, "LogAppendTime"));
        PartitionLog log = fixture.open();
        LogAppendInfo info = log.appendAsLeader(batch(2, 10, 5), 0);
        assertThat(info.logAppendTime()).isEqualTo(fixture.time.milliseconds());
        RecordBatch stored = TestRecords.storedBatches(log).get(0);
        assertThat(stored.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
        assertThat(stored.maxTimestamp()).isEqualTo(fixture.time.milliseconds());
        assertThat(stored.isValid()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(value = CompressionType.class, names = {"GZIP", "SNAPPY", "LZ4", "ZSTD"})
    void storesCompressedBatchesUnchangedAndReadsThemBack(CompressionType type) throws Exception {
        PartitionLog log = open(Map.of());
        log.appendAsLeader(batch(Compression.of(type).build(), 50, 30, 100, 0), 0);
        log.appendAsLeader(batch(Compression.of(type).build(), 1, 30, 200, 50), 0);
        assertThat(TestRecords.storedBatches(log)).allSatisfy(b -> assertThat(b.compressionType()).isEqualTo(type));
        List<TestRecords.Read> read = TestRecords.records(log.read(0, 100_000, Long.MAX_VALUE, false).records());
        assertThat(read).extracting(TestRecords.Read::offset).isEqualTo(range(0, 51));
        assertThat(read.get(50).value()).isEqualTo(new String(TestRecords.value(50, 30)));
        assertThat(log.read(50, 100_000, Long.MAX_VALUE, false).records().batches().iterator().next().baseOffset())
                .isEqualTo(50);
    }

    @Test
    void emptyRecordsAppendNothing() throws Exception {
        PartitionLog log = open(Map.of());
        assertThat(log.appendAsLeader(MemoryRecords.EMPTY, 0)).isEqualTo(LogAppendInfo.NOTHING_APPENDED);
        assertThat(log.logEndOffset()).isZero();
        assertThat(log.size()).isZero();
    }

    @Test
    void rejectsABatchWithoutRecords() throws Exception {
        PartitionLog log = open(Map.of());
        ByteBuffer buffer = ByteBuffer.allocate(DefaultRecordBatch.RECORD_BATCH_OVERHEAD);
        DefaultRecordBatch.writeEmptyHeader(buffer, RecordBatch.MAGIC_VALUE_V2, -1L, (short) -1, -1, 0L, 0L, 0,
                TimestampType.CREATE_TIME, 1L, false, false);
        buffer.flip();
        assertThatThrownBy(() -> log.appendAsLeader(MemoryRecords.readableRecords(buffer), 0))
                .isInstanceOf(InvalidRecordException.class).hasMessageContaining("no records");
        assertNothingAppended(log);
    }

    @Test
    void rejectsACorruptBatchAndAppendsNothingOfTheRequest() throws Exception {
        PartitionLog log = open(Map.of());
        MemoryRecords good = batch(3, 10, 1);
        MemoryRecords bad = batch(3, 10, 1);
        ByteBuffer both = ByteBuffer.allocate(good.sizeInBytes() + bad.sizeInBytes());
        both.put(good.buffer().duplicate()).put(bad.buffer().duplicate()).flip();
        both.put(good.sizeInBytes() + bad.sizeInBytes() - 3, (byte) 0x5A); // inside the CRC-covered records
        assertThatThrownBy(() -> log.appendAsLeader(MemoryRecords.readableRecords(both), 0))
                .isInstanceOf(CorruptRecordException.class);
        assertNothingAppended(log);
    }

    @Test
    void rejectsTrailingBytesThatAreNotABatch() throws Exception {
        PartitionLog log = open(Map.of());
        MemoryRecords good = batch(3, 10, 1);
        ByteBuffer withTail = ByteBuffer.allocate(good.sizeInBytes() + 20);
        withTail.put(good.buffer().duplicate()).put(new byte[20]).flip();
        assertThatThrownBy(() -> log.appendAsLeader(MemoryRecords.readableRecords(withTail), 0))
                .isInstanceOf(CorruptRecordException.class);
        assertNothingAppended(log);
    }

    @Test
    void rejectsOldMagic() throws Exception {
        PartitionLog log = open(Map.of());
        MemoryRecords v1 = MemoryRecords.withRecords(RecordBatch.MAGIC_VALUE_V1, Compression.NONE,
                new SimpleRecord(1L, "a".getBytes(), "b".getBytes()));
        assertThatThrownBy(() -> log.appendAsLeader(v1, 0))
                .isInstanceOf(InvalidRecordException.class).hasMessageContaining("magic 1");
        assertNothingAppended(log);
    }

    @ParameterizedTest(name = "limit = batch size {0}")
    @ValueSource(ints = {-1, 0})
    void enforcesMaxMessageBytesInclusively(int delta) throws Exception {
        MemoryRecords records = batch(5, 100, 1);
        PartitionLog log = open(Map.of(LogConfig.MAX_MESSAGE_BYTES, String.valueOf(records.sizeInBytes() + delta)));
        if (delta < 0) {
            assertThatThrownBy(() -> log.appendAsLeader(records, 0)).isInstanceOf(RecordTooLargeException.class);
            assertNothingAppended(log);
        } else {
            assertThat(log.appendAsLeader(records, 0).recordCount()).isEqualTo(5);
        }
    }

    @Test
    void rejectsControlBatchesFromClients() throws Exception {
        PartitionLog log = open(Map.of());
        MemoryRecords marker = MemoryRecords.withEndTransactionMarker(0L, 1L, (short) 0,
                new org.apache.kafka.common.record.internal.EndTransactionMarker(
                        org.apache.kafka.common.record.internal.ControlRecordType.COMMIT, 0));
        assertThatThrownBy(() -> log.appendAsLeader(marker, 0)).isInstanceOf(InvalidRecordException.class);
        assertNothingAppended(log);
    }

    @Test
    void followerAppendKeepsTheLeadersOffsetsAndAllowsGaps() throws Exception {
        PartitionLog log = open(Map.of());
        log.appendAsFollower(TestRecords.batchAt(0, 3, 1));
        LogAppendInfo info = log.appendAsFollower(TestRecords.batchAt(10, 2, 1));
        assertThat(info.firstOffset()).isEqualTo(10);
        assertThat(info.lastOffset()).isEqualTo(11);
        assertThat(log.logEndOffset()).isEqualTo(12);
        assertThat(TestRecords.offsets(log.read(0, 10_000, Long.MAX_VALUE, false).records()))
                .containsExactly(0L, 1L, 2L, 10L, 11L);
        assertThat(TestRecords.offsets(log.read(5, 10_000, Long.MAX_VALUE, false).records()))
                .containsExactly(10L, 11L);
    }

    @Test
    void followerAppendBelowTheLogEndIsRejected() throws Exception {
        PartitionLog log = open(Map.of());
        log.appendAsFollower(TestRecords.batchAt(0, 3, 1));
        assertThatThrownBy(() -> log.appendAsFollower(TestRecords.batchAt(2, 3, 1)))
                .isInstanceOf(InvalidRecordException.class).hasMessageContaining("below the log end offset 3");
        assertThat(log.logEndOffset()).isEqualTo(3);
    }

    /**
     * What the leader's cleaner leaves, as a follower fetching below the cleaned part receives it: batches whose
     * records skip offsets (compressed or not), and a batch emptied of its records but kept for its producer's
     * state. Kafka's followers take them as they come (only the CRC and the offsets' order are checked).
     */
    @ParameterizedTest
    @EnumSource(value = CompressionType.class, names = {"NONE", "LZ4"})
    void followerAppendTakesBatchesTheLeadersCleanerThinnedOrEmptied(CompressionType type) throws Exception {
        PartitionLog log = open(Map.of());
        MemoryRecordsBuilder thinned = MemoryRecords.builder(ByteBuffer.allocate(1024), Compression.of(type).build(),
                TimestampType.CREATE_TIME, 0L);
        thinned.appendWithOffset(0, new SimpleRecord(1L, "k0".getBytes(), "v0".getBytes()));
        thinned.appendWithOffset(4, new SimpleRecord(1L, "k4".getBytes(), "v4".getBytes()));
        ByteBuffer emptied = ByteBuffer.allocate(DefaultRecordBatch.RECORD_BATCH_OVERHEAD);
        DefaultRecordBatch.writeEmptyHeader(emptied, RecordBatch.MAGIC_VALUE_V2, 7L, (short) 0, 5, 5L, 9L, 0,
                TimestampType.CREATE_TIME, 1L, false, false);
        emptied.flip();

        log.appendAsFollower(thinned.build());
        log.appendAsFollower(MemoryRecords.readableRecords(emptied));

        assertThat(log.logEndOffset()).isEqualTo(10);
        assertThat(TestRecords.offsets(log.read(0, 10_000, Long.MAX_VALUE, false).records())).containsExactly(0L, 4L);
    }

    private static void assertNothingAppended(PartitionLog log) {
        assertThat(log.logEndOffset()).isZero();
        assertThat(log.size()).isZero();
    }
}

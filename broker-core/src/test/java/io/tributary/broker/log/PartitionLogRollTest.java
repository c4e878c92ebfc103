package io.tributary.broker.log;

import static io.tributary.broker.log.TestRecords.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PartitionLogRollTest {

    private static final int BATCH_BYTES = batch(4, 50, 0).sizeInBytes();

    @TempDir
    Path root;

    /** Appends {@code count} identical 4-record batches. */
    private static void appendBatches(PartitionLog log, int count) {
        for (int i = 0; i < count; i++) {
            log.appendAsLeader(batch(4, 50, i), 0);
        }
    }

    private static List<Long> baseOffsets(PartitionLog log) {
        return log.segments().stream().map(LogSegment::baseOffset).toList();
    }

    @ParameterizedTest(name = "segment.bytes = 3 batches {0} bytes")
    @CsvSource({"-1, 2", "0, 3", "1, 3"})
    void rollsWhenTheNextBatchWouldExceedSegmentBytes(int delta, int batchesInFirstSegment) throws Exception {
        int segmentBytes = 3 * BATCH_BYTES + delta;
        PartitionLog log = new LogFixture(root, Map.of(LogConfig.SEGMENT_BYTES, String.valueOf(segmentBytes))).open();
        appendBatches(log, 4);
        assertThat(baseOffsets(log)).containsExactly(0L, 4L * batchesInFirstSegment);
        assertThat(log.segments().get(0).size()).isEqualTo(batchesInFirstSegment * BATCH_BYTES)
                .isLessThanOrEqualTo(segmentBytes);
    }

    @Test
    void aBatchLargerThanSegmentBytesStillGoesIntoAnEmptySegment() throws Exception {
        PartitionLog log = new LogFixture(root, Map.of(LogConfig.SEGMENT_BYTES, "100")).open();
        appendBatches(log, 2);
        assertThat(baseOffsets(log)).containsExactly(0L, 4L);
        assertThat(log.segments()).allSatisfy(s -> assertThat(s.size()).isEqualTo(BATCH_BYTES));
    }

    /** Appends one 4-record batch stamped by the fixture's clock, as a producer on the same clock would. */
    private static void appendBatchNow(PartitionLog log, LogFixture fixture) {
        log.appendAsLeader(batch(4, 50, fixture.time.milliseconds()), 0);
    }

    private LogFixture oneMinuteSegments() {
        return new LogFixture(root, Map.of(LogConfig.SEGMENT_MS, "60000"));
    }

    @Test
    void rollsAfterSegmentMsOnTheInjectedClock() throws Exception {
        LogFixture fixture = oneMinuteSegments();
        PartitionLog log = fixture.open();
        fixture.time.sleep(120_000); // an empty active segment is never rolled, however old
        appendBatchNow(log, fixture);
        fixture.time.sleep(60_000);
        appendBatchNow(log, fixture);
        assertThat(log.numberOfSegments()).as("exactly segment.ms is not yet too old").isEqualTo(1);
        fixture.time.sleep(1);
        appendBatchNow(log, fixture);
        assertThat(log.numberOfSegments()).isEqualTo(2);
        fixture.time.sleep(60_001);
        appendBatchNow(log, fixture);
        assertThat(baseOffsets(log)).containsExactly(0L, 8L, 12L);
    }

    @ParameterizedTest(name = "restarted {0} ms before segment.ms is reached")
    @ValueSource(longs = {1, 30_000, 59_999})
    void theAgeOfTheActiveSegmentSurvivesARestart(long restartBeforeDue) throws Exception {
        LogFixture fixture = oneMinuteSegments();
        PartitionLog log = fixture.open();
        appendBatchNow(log, fixture);
        fixture.time.sleep(60_000 - restartBeforeDue);
        log.close();
        PartitionLog reopened = fixture.open();
        appendBatchNow(reopened, fixture);
        assertThat(reopened.numberOfSegments()).as("not due yet").isEqualTo(1);
        fixture.time.sleep(restartBeforeDue + 1);
        appendBatchNow(reopened, fixture);
        assertThat(baseOffsets(reopened)).containsExactly(0L, 8L);
    }

    @Test
    void theAgeSurvivesAnUncleanStopToo() throws Exception {
        LogFixture fixture = oneMinuteSegments();
        appendBatchNow(fixture.open(), fixture);
        Path crashed = fixture.snapshotAsCrashed("crashed");
        fixture.time.sleep(60_004);
        PartitionLog recovered = fixture.recover(crashed, 0);
        appendBatchNow(recovered, fixture);
        assertThat(baseOffsets(recovered)).containsExactly(0L, 4L);
    }

    @Test
    void oldCreateTimeDataReplayedIntoANewTopicDoesNotRollEveryBatch() throws Exception {
        LogFixture fixture = oneMinuteSegments();
        PartitionLog log = fixture.open();
        long yearsAgo = fixture.time.milliseconds() - 3 * 365 * 86_400_000L;
        for (int i = 0; i < 5; i++) {
            log.appendAsLeader(batch(4, 50, yearsAgo + i * 1_000L), 0);
        }
        assertThat(log.numberOfSegments()).isEqualTo(1);
        log.appendAsLeader(batch(4, 50, yearsAgo + 60_004), 0);
        assertThat(baseOffsets(log)).as("60 s of record time after the first batch").containsExactly(0L, 20L);
    }

    @Test
    void aSegmentWithoutTimestampsAgesFromItsFilesLastModification() throws Exception {
        LogFixture fixture = oneMinuteSegments();
        PartitionLog log = fixture.open();
        log.appendAsLeader(batch(1, 50, RecordBatch.NO_TIMESTAMP), 0);
        log.close();
        Path segment = SegmentFiles.log(fixture.partitionDir(), 0);
        Files.setLastModifiedTime(segment, FileTime.fromMillis(fixture.time.milliseconds() - 59_000));
        PartitionLog reopened = fixture.open();
        reopened.appendAsLeader(batch(1, 50, RecordBatch.NO_TIMESTAMP), 0);
        assertThat(reopened.numberOfSegments()).isEqualTo(1);
        fixture.time.sleep(1_001);
        reopened.appendAsLeader(batch(1, 50, RecordBatch.NO_TIMESTAMP), 0);
        assertThat(baseOffsets(reopened)).containsExactly(0L, 2L);
    }

    @Test
    void brokerRollHoursBecomeSegmentMs() {
        assertThat(LogConfig.fromBroker(Map.of(LogConfig.LOG_ROLL_HOURS, "2")).segmentMs()).isEqualTo(7_200_000L);
        assertThat(LogConfig.fromBroker(Map.of(LogConfig.LOG_ROLL_HOURS, "2", LogConfig.LOG_ROLL_MS, "5"))
                .segmentMs()).isEqualTo(5L);
    }

    @Test
    void rollsWhenTheTimeIndexIsFullAndTrimsTheOldIndexes() throws Exception {
        // 48-byte indexes: 6 offset entries, 4 time entries of which the last is kept for the roll.
        LogFixture fixture = new LogFixture(root,
                Map.of(LogConfig.SEGMENT_INDEX_BYTES, "48", LogConfig.INDEX_INTERVAL_BYTES, "0"));
        PartitionLog log = fixture.open();
        appendBatches(log, 5);
        assertThat(baseOffsets(log)).containsExactly(0L, 16L);
        LogSegment old = log.segments().get(0);
        assertThat(old.offsetIndex().entries()).isEqualTo(3);
        assertThat(Files.size(old.offsetIndex().file())).isEqualTo(24);
        assertThat(old.timeIndex().entries()).isEqualTo(3);
        assertThat(Files.size(old.timeIndex().file())).isEqualTo(36);
        assertThat(Files.size(log.segments().get(1).offsetIndex().file())).isEqualTo(48);
    }

    @Test
    void anAppendOfManyBatchesThatFillsTheIndexSucceedsAndTheNextOneRolls() throws Exception {
        PartitionLog log = new LogFixture(root,
                Map.of(LogConfig.SEGMENT_INDEX_BYTES, "24", LogConfig.INDEX_INTERVAL_BYTES, "0")).open();
        ByteBuffer fiveBatches = ByteBuffer.allocate(5 * 200);
        for (int i = 0; i < 5; i++) {
            fiveBatches.put(TestRecords.batchAt(2L * i, 2, 1).buffer());
        }
        log.appendAsFollower(MemoryRecords.readableRecords(fiveBatches.flip()));
        assertThat(log.numberOfSegments()).isEqualTo(1);
        assertThat(log.segments().get(0).offsetIndex().isFull()
                || log.segments().get(0).timeIndex().isFull()).isTrue();
        for (long offset = 0; offset < 10; offset++) {
            assertThat(TestRecords.offsets(log.read(offset, 10_000, Long.MAX_VALUE, false).records()))
                    .startsWith(offset / 2 * 2);
        }
        log.appendAsFollower(TestRecords.batchAt(10, 2, 1));
        assertThat(baseOffsets(log)).containsExactly(0L, 10L);
    }

    @Test
    void theSmallestIndexesStillTakeOneBatchPerSegment() throws Exception {
        PartitionLog log = new LogFixture(root, Map.of(LogConfig.SEGMENT_INDEX_BYTES, "12")).open();
        appendBatches(log, 3);
        assertThat(baseOffsets(log)).containsExactly(0L, 4L, 8L);
        assertThat(TestRecords.offsets(log.read(0, 10_000, Long.MAX_VALUE, false).records()))
                .containsExactly(0L, 1L, 2L, 3L);
        assertThat(log.logEndOffset()).isEqualTo(12);
    }

    @ParameterizedTest(name = "last offset = base + MAX_INT + {0}")
    @ValueSource(longs = {0, 1})
    void rollsWhenARelativeOffsetWouldOverflowFourBytes(long beyond) throws Exception {
        PartitionLog log = new LogFixture(root, Map.of()).open();
        log.appendAsFollower(TestRecords.batchAt(0, 3, 1));
        long far = Integer.MAX_VALUE - 1 + beyond;
        log.appendAsFollower(TestRecords.batchAt(far, 2, 1));
        if (beyond == 0) {
            assertThat(baseOffsets(log)).containsExactly(0L);
        } else {
            assertThat(baseOffsets(log)).containsExactly(0L, far);
        }
        assertThat(TestRecords.offsets(log.read(far, 10_000, Long.MAX_VALUE, false).records()))
                .containsExactly(far, far + 1);
        assertThat(TestRecords.offsets(log.read(3, 10_000, Long.MAX_VALUE, false).records()))
                .containsExactly(far, far + 1);
    }

    @Test
    void anEmptySegmentThatCannotHoldTheOffsetsIsReplaced() throws Exception {
        PartitionLog log = new LogFixture(root, Map.of()).open();
        long far = 5_000_000_000L;
        log.appendAsFollower(TestRecords.batchAt(far, 2, 1));
        assertThat(baseOffsets(log)).containsExactly(far);
        assertThat(log.logStartOffset()).isEqualTo(far);
        assertThat(Files.exists(SegmentFiles.log(log.dir(), 0))).isFalse();
        assertThatThrownBy(() -> log.read(0, 100, Long.MAX_VALUE, false))
                .isInstanceOf(OffsetOutOfRangeException.class);
    }

    @Test
    void theRolledSegmentIsFlushedInTheBackground() throws Exception {
        LogFixture fixture = new LogFixture(root, Map.of(LogConfig.SEGMENT_BYTES, String.valueOf(BATCH_BYTES)));
        PartitionLog log = fixture.open();
        appendBatches(log, 3);
        assertThat(log.recoveryPoint()).isZero();
        fixture.scheduler.runDue();
        assertThat(log.recoveryPoint()).isEqualTo(8L);
    }
}

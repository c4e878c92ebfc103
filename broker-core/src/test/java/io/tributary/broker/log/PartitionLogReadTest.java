package io.tributary.broker.log;

import static io.tributary.broker.log.TestRecords.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** 20 batches of 5 records (offsets 0..99) over several segments; batch i has timestamps 1000*i .. 1000*i+4. */
class PartitionLogReadTest {

    private static final int BATCH_BYTES = batch(5, 40, 0).sizeInBytes();

    @TempDir
    Path root;

    private PartitionLog log;

    @BeforeEach
    void fill() throws Exception {
        log = new LogFixture(root, Map.of(LogConfig.SEGMENT_BYTES, String.valueOf(3 * BATCH_BYTES),
                LogConfig.INDEX_INTERVAL_BYTES, String.valueOf(BATCH_BYTES))).open();
        for (int i = 0; i < 20; i++) {
            log.appendAsLeader(batch(5, 40, 1000L * i), 0);
        }
        assertThat(log.numberOfSegments()).isEqualTo(7);
    }

    @Test
    void everyOffsetReadsFromTheBatchThatHoldsIt() {
        for (long offset = 0; offset < 100; offset++) {
            FetchDataInfo info = log.read(offset, BATCH_BYTES, Long.MAX_VALUE, false);
            RecordBatch first = info.records().batches().iterator().next();
            assertThat(first.baseOffset()).as("offset %d", offset).isEqualTo(offset / 5 * 5);
            assertThat(info.logStartOffset()).isZero();
            assertThat(info.logEndOffset()).isEqualTo(100);
        }
    }

    @Test
    void aReadStaysInOneSegmentAndEndsAtMaxBytes() {
        FetchDataInfo info = log.read(15, 10 * BATCH_BYTES, Long.MAX_VALUE, false);
        assertThat(TestRecords.offsets(info.records())).hasSize(15).startsWith(15L).endsWith(29L);
        FetchDataInfo twoBatches = log.read(15, 2 * BATCH_BYTES + 10, Long.MAX_VALUE, false);
        assertThat(twoBatches.records().sizeInBytes()).isEqualTo(2 * BATCH_BYTES + 10);
        assertThat(TestRecords.offsets(twoBatches.records())).hasSize(10);
    }

    @ParameterizedTest(name = "minOneBatch = {0}")
    @ValueSource(booleans = {true, false})
    void minOneBatchReturnsAWholeBatchLargerThanMaxBytes(boolean minOneBatch) {
        FetchDataInfo info = log.read(42, 10, Long.MAX_VALUE, minOneBatch);
        assertThat(info.records().sizeInBytes()).isEqualTo(minOneBatch ? BATCH_BYTES : 10);
        assertThat(TestRecords.offsets(info.records())).hasSize(minOneBatch ? 5 : 0);
    }

    @Test
    void maxOffsetExclusiveCutsBeforeTheBatchHoldingIt() {
        assertThat(TestRecords.offsets(log.read(0, 1 << 20, 10, false).records())).hasSize(10);
        assertThat(TestRecords.offsets(log.read(30, 1 << 20, 40, false).records())).hasSize(10).endsWith(39L);
        assertThat(log.read(40, 1 << 20, 40, false).records()).isEqualTo(MemoryRecords.EMPTY);
    }

    @Test
    void readingAtTheLogEndReturnsNothingAndBeyondItIsOutOfRange() {
        assertThat(log.read(100, 1000, Long.MAX_VALUE, true).records().sizeInBytes()).isZero();
        assertThatThrownBy(() -> log.read(101, 1000, Long.MAX_VALUE, true))
                .isInstanceOf(OffsetOutOfRangeException.class).hasMessageContaining("log end offset is 100");
    }

    @Test
    void offsetForTimestampFindsTheFirstRecordAtOrAfterIt() {
        assertThat(log.offsetForTimestamp(0)).contains(new FileRecords.TimestampAndOffset(0, 0, Optional.of(0)));
        assertThat(log.offsetForTimestamp(7002).map(t -> t.offset)).contains(37L);
        assertThat(log.offsetForTimestamp(7005).map(t -> t.offset)).contains(40L);
        assertThat(log.offsetForTimestamp(19_004).map(t -> t.offset)).contains(99L);
        assertThat(log.offsetForTimestamp(19_005)).isEmpty();
    }

    @Test
    void maxTimestampIsTheNewestRecord() {
        assertThat(log.maxTimestampAndOffset())
                .contains(new FileRecords.TimestampAndOffset(19_004, 99, Optional.of(0)));
    }

    @Test
    void truncationRemovesTheTailAndAppendsContinueAfterIt() {
        log.truncateTo(37);
        assertThat(log.logEndOffset()).as("whole batches are removed").isEqualTo(35);
        assertThat(log.numberOfSegments()).isEqualTo(3);
        assertThat(log.offsetForTimestamp(7000)).isEmpty();
        log.appendAsLeader(batch(5, 40, 50_000), 1);
        assertThat(TestRecords.offsets(log.read(30, 1 << 20, Long.MAX_VALUE, false).records()))
                .containsExactly(30L, 31L, 32L, 33L, 34L, 35L, 36L, 37L, 38L, 39L);
        assertThat(log.maxTimestampAndOffset().map(t -> t.offset)).contains(39L);
    }

    @Test
    void truncationBelowTheLogStartEmptiesTheLog() {
        log.truncateTo(0);
        assertThat(log.logEndOffset()).isZero();
        assertThat(log.numberOfSegments()).isEqualTo(1);
        assertThat(log.read(0, 1000, Long.MAX_VALUE, false).records().sizeInBytes()).isZero();
    }
}

package io.tributary.broker.log;

import static io.tributary.broker.log.TestRecords.batch;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.common.record.internal.FileRecords.LogOffsetPosition;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class LogSegmentTest {

    private static final int BATCHES = 20;
    private static final int BATCH_BYTES = batch(3, 30, 0).sizeInBytes();

    @TempDir
    Path dir;

    private LogSegment segmentWithBatches(int indexInterval) throws Exception {
        LogConfig config = LogConfig.defaults().withTopicOverrides(Map.of(
                LogConfig.INDEX_INTERVAL_BYTES, String.valueOf(indexInterval), LogConfig.SEGMENT_INDEX_BYTES, "4096"));
        LogSegment segment = LogSegment.create(dir, 100, config, 0);
        for (int i = 0; i < BATCHES; i++) {
            MemoryRecords records = batch(3, 30, i * 10L);
            long last = 100 + 3L * i + 2;
            for (MutableRecordBatch b : records.batches()) {
                b.setLastOffset(last);
            }
            segment.append(last, records);
        }
        return segment;
    }

    /** Index interval edges relative to the batch size B: an entry once more than the interval was appended. */
    static IntStream intervalEdges() {
        return IntStream.of(0, 1, BATCH_BYTES - 1, BATCH_BYTES, BATCH_BYTES + 1, 2 * BATCH_BYTES - 1, 2 * BATCH_BYTES,
                2 * BATCH_BYTES + 1, 100 * BATCH_BYTES);
    }

    @ParameterizedTest(name = "index.interval.bytes = {0}")
    @MethodSource("intervalEdges")
    void indexEntriesFollowTheIntervalAndEveryLookupScansAtMostOneInterval(int interval) throws Exception {
        LogSegment segment = segmentWithBatches(interval);
        int batchesPerEntry = interval / BATCH_BYTES + 1;
        assertThat(segment.offsetIndex().entries()).isEqualTo((BATCHES - 1) / batchesPerEntry);
        for (long offset = 100; offset < 100 + 3 * BATCHES; offset++) {
            int expectedPosition = (int) ((offset - 100) / 3) * BATCH_BYTES;
            LogOffsetPosition found = segment.translateOffset(offset);
            assertThat(found.position).as("offset %d", offset).isEqualTo(expectedPosition);
            int scanned = found.position - segment.offsetIndex().lookup(offset).position();
            assertThat(scanned).isBetween(0, Math.max(interval, 0) + BATCH_BYTES);
        }
        assertThat(segment.translateOffset(100 + 3 * BATCHES)).isNull();
    }

    /** Offsets 0-1, 10-11, 20-21 (a follower's copy of a compacted log): offsets in a gap map to the next batch. */
    @ParameterizedTest(name = "index.interval.bytes = {0}")
    @ValueSource(ints = {0, 4096})
    void offsetsInAGapTranslateToTheNextBatch(int interval) throws Exception {
        LogConfig config = LogConfig.defaults().withTopicOverrides(Map.of(
                LogConfig.INDEX_INTERVAL_BYTES, String.valueOf(interval), LogConfig.SEGMENT_INDEX_BYTES, "4096"));
        LogSegment segment = LogSegment.create(dir, 0, config, 0);
        for (long base : new long[] {0, 10, 20}) {
            segment.append(base + 1, TestRecords.batchAt(base, 2, 1));
        }
        int batchBytes = TestRecords.batchAt(0, 2, 1).sizeInBytes();
        assertThat(segment.translateOffset(1).position).isZero();
        assertThat(segment.translateOffset(5).position).isEqualTo(batchBytes);
        assertThat(segment.translateOffset(5).offset).isEqualTo(10);
        assertThat(segment.translateOffset(12).position).isEqualTo(2 * batchBytes);
        assertThat(segment.translateOffset(21).position).isEqualTo(2 * batchBytes);
        assertThat(segment.translateOffset(22)).isNull();
    }

    @ParameterizedTest(name = "index.interval.bytes = {0}")
    @MethodSource("intervalEdges")
    void recoveryRebuildsTheSameIndexes(int interval) throws Exception {
        LogSegment segment = segmentWithBatches(interval);
        int offsetEntries = segment.offsetIndex().entries();
        int timeEntries = segment.timeIndex().entries();
        OffsetPosition lastEntry = offsetEntries == 0 ? null : segment.offsetIndex().entry(offsetEntries - 1);
        LogSegment.RecoveryResult result = segment.recover();
        assertThat(result.truncatedBytes()).isZero();
        assertThat(result.nextOffset()).isEqualTo(100 + 3 * BATCHES);
        assertThat(segment.offsetIndex().entries()).isEqualTo(offsetEntries);
        assertThat(segment.timeIndex().entries()).isEqualTo(timeEntries);
        if (lastEntry != null) {
            assertThat(segment.offsetIndex().entry(offsetEntries - 1)).isEqualTo(lastEntry);
        }
        assertThat(segment.maxTimestampSoFar()).isEqualTo(new TimestampOffset(192, 159));
    }
}

package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SegmentTableTest {

    private static final long[] EVEN = {0, 100, 200, 300, 400};

    @ParameterizedTest(name = "floorSlot({0}) = {1}")
    @CsvSource({"-1, -1", "0, 0", "1, 0", "99, 0", "100, 1", "250, 2", "399, 3", "400, 4", "9999999, 4"})
    void findsTheSegmentHoldingAnOffsetInEvenSegments(long offset, int slot) {
        assertThat(SegmentTable.floorSlot(EVEN, offset)).isEqualTo(slot);
    }

    @Test
    void emptyAndSingleSegmentTables() {
        assertThat(SegmentTable.floorSlot(new long[0], 5)).isEqualTo(-1);
        assertThat(SegmentTable.floorSlot(new long[] {10}, 9)).isEqualTo(-1);
        assertThat(SegmentTable.floorSlot(new long[] {10}, 10)).isZero();
        assertThat(SegmentTable.floorSlot(new long[] {10}, Long.MAX_VALUE)).isZero();
    }

    @Test
    void skewedSegmentsWhereTheLinearGuessIsFarOff() {
        // One huge first segment, then thousands of one-offset segments: the guess lands near slot 0 for most
        // offsets of the small ones, and near the end for the huge one's.
        long[] skewed = LongStream.concat(LongStream.of(0), LongStream.rangeClosed(1_000_000, 1_005_000)).toArray();
        for (long offset : new long[] {0, 1, 500_000, 999_999, 1_000_000, 1_000_001, 1_002_500, 1_004_999, 1_005_000}) {
            assertThat(SegmentTable.floorSlot(skewed, offset)).as("offset %d", offset).isEqualTo(binaryFloor(skewed, offset));
        }
    }

    @Test
    void agreesWithABinarySearchOnRandomTables() {
        Random random = new Random(42);
        for (int table = 0; table < 500; table++) {
            long[] baseOffsets = new long[1 + random.nextInt(200)];
            long next = random.nextInt(1000);
            for (int i = 0; i < baseOffsets.length; i++) {
                baseOffsets[i] = next;
                // mostly even segments, some tiny, some huge
                next += random.nextInt(10) == 0 ? 1 + random.nextInt(1_000_000) : 1 + random.nextInt(3) + 1000;
            }
            for (int probe = 0; probe < 200; probe++) {
                long offset = random.nextLong(next + 10) - 5;
                assertThat(SegmentTable.floorSlot(baseOffsets, offset)).as("offset %d in %s", offset,
                        Arrays.toString(baseOffsets)).isEqualTo(binaryFloor(baseOffsets, offset));
            }
            for (long baseOffset : baseOffsets) {
                assertThat(SegmentTable.floorSlot(baseOffsets, baseOffset)).isEqualTo(binaryFloor(baseOffsets, baseOffset));
                assertThat(SegmentTable.floorSlot(baseOffsets, baseOffset - 1)).isEqualTo(binaryFloor(baseOffsets, baseOffset - 1));
            }
        }
    }

    private static int binaryFloor(long[] sorted, long key) {
        int found = Arrays.binarySearch(sorted, key);
        return found >= 0 ? found : -found - 2;
    }
}

package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OffsetIndexTest {

    private static final long BASE = 1_000;

    @TempDir
    Path dir;

    private OffsetIndex index(int maxSize) throws Exception {
        return new OffsetIndex(dir.resolve("00000000000000001000.index"), BASE, maxSize);
    }

    @Test
    void newIndexIsPreallocatedAndEmpty() throws Exception {
        OffsetIndex index = index(1003);
        assertThat(Files.size(index.file())).isEqualTo(1000);
        assertThat(index.entries()).isZero();
        assertThat(index.maxEntries()).isEqualTo(125);
        assertThat(index.lookup(5_000)).isEqualTo(new OffsetPosition(BASE, 0));
    }

    @ParameterizedTest(name = "lookup({0}) = ({1}, {2})")
    @CsvSource({"999, 1000, 0", "1000, 1000, 0", "1009, 1000, 0", "1010, 1010, 100", "1011, 1010, 100",
            "1029, 1020, 200", "1030, 1030, 300", "99999, 1030, 300"})
    void lookupFindsTheLargestEntryAtOrBelowTheTarget(long target, long offset, int position) throws Exception {
        OffsetIndex index = index(1024);
        index.append(1010, 100);
        index.append(1020, 200);
        index.append(1030, 300);
        assertThat(index.lookup(target)).isEqualTo(new OffsetPosition(offset, position));
    }

    @ParameterizedTest(name = "firstEntryAtOrAbove({0}) = {1}")
    @CsvSource({"999, 1010", "1010, 1010", "1011, 1020", "1030, 1030", "1031, -1"})
    void firstEntryAtOrAboveFindsTheCeiling(long target, long expectedOffset) throws Exception {
        OffsetIndex index = index(1024);
        index.append(1010, 100);
        index.append(1020, 200);
        index.append(1030, 300);
        OffsetPosition found = index.firstEntryAtOrAbove(target);
        if (expectedOffset < 0) {
            assertThat(found).isNull();
        } else {
            assertThat(found.offset()).isEqualTo(expectedOffset);
        }
    }

    @Test
    void entriesAreBigEndianRelativeOffsetAndPositionAndTrimmedOnClose() throws Exception {
        OffsetIndex index = index(1024);
        index.append(1005, 4242);
        index.append(1007, 9000);
        index.close();
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(index.file()));
        assertThat(bytes.remaining()).isEqualTo(16);
        assertThat(bytes.getInt()).isEqualTo(5);
        assertThat(bytes.getInt()).isEqualTo(4242);
        assertThat(bytes.getInt()).isEqualTo(7);
        assertThat(bytes.getInt()).isEqualTo(9000);
        OffsetIndex reopened = index(1024);
        assertThat(reopened.entries()).isEqualTo(2);
        assertThat(reopened.lastOffset()).isEqualTo(1007);
    }

    @Test
    void rejectsNonIncreasingOffsetsAndAppendsWhenFull() throws Exception {
        OffsetIndex index = index(16);
        index.append(1001, 10);
        assertThatThrownBy(() -> index.append(1001, 20)).isInstanceOf(IllegalArgumentException.class);
        index.append(1002, 20);
        assertThat(index.isFull()).isTrue();
        assertThatThrownBy(() -> index.append(1003, 30)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void rejectsOffsetsThatDoNotFitFourBytes() throws Exception {
        OffsetIndex index = index(64);
        assertThatThrownBy(() -> index.append(BASE + Integer.MAX_VALUE + 1L, 10))
                .isInstanceOf(IllegalArgumentException.class);
        index.append(BASE + Integer.MAX_VALUE, 10);
        assertThat(index.lastOffset()).isEqualTo(BASE + Integer.MAX_VALUE);
    }

    @ParameterizedTest(name = "truncateTo({0}) keeps {1} entries")
    @CsvSource({"1000, 0", "1010, 0", "1011, 1", "1020, 1", "1021, 2", "5000, 3"})
    void truncateRemovesEntriesAtOrAboveTheOffset(long offset, int kept) throws Exception {
        OffsetIndex index = index(1024);
        index.append(1010, 100);
        index.append(1020, 200);
        index.append(1030, 300);
        index.truncateTo(offset);
        assertThat(index.entries()).isEqualTo(kept);
    }

    @Test
    void resetEmptiesAndRegrowsATrimmedIndex() throws Exception {
        OffsetIndex index = index(1024);
        index.append(1010, 100);
        index.trimToValidSize();
        assertThat(Files.size(index.file())).isEqualTo(8);
        assertThat(index.isFull()).isTrue();
        index.reset();
        assertThat(index.entries()).isZero();
        assertThat(Files.size(index.file())).isEqualTo(1024);
    }

    @ParameterizedTest(name = "next base offset {0}, log size {1}: sane = {2}")
    @CsvSource({"1021, 201, true", "1020, 201, false", "1021, 200, false"})
    void theCleanStartCheckLooksAtTheFirstAndLastEntries(long nextBaseOffset, int logSize, boolean sane)
            throws Exception {
        OffsetIndex index = index(1024);
        index.append(1010, 100);
        index.append(1020, 200);
        if (sane) {
            index.checkEnds(nextBaseOffset, logSize);
        } else {
            assertThatThrownBy(() -> index.checkEnds(nextBaseOffset, logSize))
                    .isInstanceOf(CorruptIndexException.class);
        }
    }

    @Test
    void sanityCheckRejectsOutOfOrderOrOutOfFileEntries() throws Exception {
        OffsetIndex index = index(1024);
        index.append(1010, 100);
        index.append(1020, 200);
        index.sanityCheck(201);
        assertThatThrownBy(() -> index.sanityCheck(200)).isInstanceOf(CorruptIndexException.class);
        index.close();
        // A crash can leave the zeroed preallocated tail in the file: zero entries break the order.
        Files.write(index.file(), new byte[8], java.nio.file.StandardOpenOption.APPEND);
        OffsetIndex reopened = index(1024);
        assertThat(reopened.entries()).isEqualTo(3);
        assertThatThrownBy(() -> reopened.sanityCheck(10_000)).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    void aTrimmedIndexIsLookedUpFromAHeapCopyLoadedOnFirstUse() throws Exception {
        OffsetIndex index = index(1024);
        index.append(1010, 100);
        index.append(1020, 200);
        index.trimToValidSize();
        assertThat(index.lookup(1015)).isEqualTo(new OffsetPosition(1010, 100));
        Files.write(index.file(), new byte[16]); // the mapping is gone: lookups no longer see the file
        assertThat(index.lookup(1025)).isEqualTo(new OffsetPosition(1020, 200));
        assertThat(index.firstEntryAtOrAbove(1011)).isEqualTo(new OffsetPosition(1020, 200));
    }

    @Test
    void aTrimmedIndexTakesAppendsOnlyAfterAResize() throws Exception {
        OffsetIndex index = index(1024);
        index.append(1010, 100);
        index.trimToValidSize();
        assertThatThrownBy(() -> index.append(1020, 200)).isInstanceOf(IllegalStateException.class);
        index.resize(1024);
        index.append(1020, 200);
        assertThat(index.lookup(1025)).isEqualTo(new OffsetPosition(1020, 200));
        assertThat(Files.size(index.file())).isEqualTo(1024);
    }

    @Test
    void openingAnExistingIndexReadsNothingAndTheCleanStartCheckReadsTwoEntries() throws Exception {
        ByteBuffer entries = ByteBuffer.allocate(24);
        entries.putInt(5).putInt(50).putInt(-7).putInt(-7).putInt(9).putInt(90);
        Files.write(dir.resolve("00000000000000001000.index"), entries.array());
        OffsetIndex index = index(1024);
        assertThat(index.entries()).isEqualTo(3);
        index.checkEnds(1010, 91); // the garbage in the middle is not looked at
        assertThatThrownBy(() -> index.sanityCheck(91)).isInstanceOf(CorruptIndexException.class);
    }
}

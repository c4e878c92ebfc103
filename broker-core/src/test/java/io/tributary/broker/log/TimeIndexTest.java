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

class TimeIndexTest {

    private static final long BASE = 500;

    @TempDir
    Path dir;

    private TimeIndex index(int maxSize) throws Exception {
        return new TimeIndex(dir.resolve("00000000000000000500.timeindex"), BASE, maxSize);
    }

    @Test
    void appendsOnlyWhenTheTimestampGrows() throws Exception {
        TimeIndex index = index(120);
        index.maybeAppend(100, 510, false);
        index.maybeAppend(100, 520, false);
        index.maybeAppend(90, 530, false);
        index.maybeAppend(150, 540, false);
        assertThat(index.entries()).isEqualTo(2);
        assertThat(index.lastEntry()).isEqualTo(new TimestampOffset(150, 540));
        assertThatThrownBy(() -> index.maybeAppend(200, 530, false)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "lookup({0}) = ({1}, {2})")
    @CsvSource({"50, -1, 500", "100, 100, 510", "149, 100, 510", "150, 150, 540", "9999, 150, 540"})
    void lookupFindsTheLargestTimestampAtOrBelowTheTarget(long target, long timestamp, long offset)
            throws Exception {
        TimeIndex index = index(120);
        index.maybeAppend(100, 510, false);
        index.maybeAppend(150, 540, false);
        assertThat(index.lookup(target)).isEqualTo(new TimestampOffset(timestamp, offset));
    }

    @Test
    void keepsTheLastSlotForTheRollEntry() throws Exception {
        TimeIndex index = index(36);
        index.maybeAppend(1, 501, false);
        index.maybeAppend(2, 502, false);
        assertThat(index.isFull()).isTrue();
        assertThatThrownBy(() -> index.maybeAppend(3, 503, false)).isInstanceOf(IllegalStateException.class);
        index.maybeAppend(3, 503, true);
        assertThat(index.entries()).isEqualTo(3);
    }

    @Test
    void entriesAreBigEndianTimestampAndRelativeOffset() throws Exception {
        TimeIndex index = index(120);
        index.maybeAppend(1_700_000_000_123L, 507, false);
        index.close();
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(index.file()));
        assertThat(bytes.remaining()).isEqualTo(12);
        assertThat(bytes.getLong()).isEqualTo(1_700_000_000_123L);
        assertThat(bytes.getInt()).isEqualTo(7);
        assertThat(index(120).lastEntry()).isEqualTo(new TimestampOffset(1_700_000_000_123L, 507));
    }

    @Test
    void truncateRestoresTheLastEntry() throws Exception {
        TimeIndex index = index(120);
        index.maybeAppend(100, 510, false);
        index.maybeAppend(150, 540, false);
        index.truncateTo(540);
        assertThat(index.lastEntry()).isEqualTo(new TimestampOffset(100, 510));
        index.truncateTo(0);
        assertThat(index.entries()).isZero();
    }

    @Test
    void sanityCheckRejectsDecreasingTimestamps() throws Exception {
        TimeIndex index = index(120);
        index.maybeAppend(100, 510, false);
        index.close();
        Files.write(index.file(), new byte[12], java.nio.file.StandardOpenOption.APPEND);
        TimeIndex reopened = index(120);
        assertThatThrownBy(() -> reopened.sanityCheck(0)).isInstanceOf(CorruptIndexException.class);
    }
}

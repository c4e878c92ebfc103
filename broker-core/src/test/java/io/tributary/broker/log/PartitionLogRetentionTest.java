package io.tributary.broker.log;

import static io.tributary.broker.log.TestRecords.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.record.internal.Records;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One batch of 2 records per segment; batch i is written (and timestamped) at start + 10 s * i. */
class PartitionLogRetentionTest {

    private static final int BATCH_BYTES = batch(2, 50, 0).sizeInBytes();

    @TempDir
    Path root;

    private LogFixture fixture;

    private PartitionLog logWithSegments(int count, Map<String, String> overrides) throws Exception {
        Map<String, String> all = new HashMap<>(overrides);
        all.put(LogConfig.SEGMENT_BYTES, String.valueOf(BATCH_BYTES));
        fixture = new LogFixture(root, all);
        PartitionLog log = fixture.open();
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                fixture.time.sleep(10_000);
            }
            log.appendAsLeader(batch(2, 50, fixture.time.milliseconds()), 0);
        }
        assertThat(log.numberOfSegments()).isEqualTo(count);
        return log;
    }

    @Test
    void deletesSegmentsWhoseNewestRecordIsOlderThanRetentionMs() throws Exception {
        PartitionLog log = logWithSegments(5, Map.of(LogConfig.RETENTION_MS, "25000"));
        // Newest timestamps: 0 s, 10 s, 20 s, 30 s, 40 s (+1 ms); now = 40 s: ages 40, 30, 20, 10, 0 s.
        assertThat(log.deleteOldSegments()).isEqualTo(2);
        fixture.time.sleep(5_000);
        assertThat(log.deleteOldSegments()).as("age 25 s - 1 ms").isZero();
        fixture.time.sleep(1);
        assertThat(log.deleteOldSegments()).as("age exactly retention.ms").isZero();
        fixture.time.sleep(1);
        assertThat(log.deleteOldSegments()).isEqualTo(1);
        assertThat(log.logStartOffset()).isEqualTo(6);
        assertThatThrownBy(() -> log.read(5, 1000, Long.MAX_VALUE, false))
                .isInstanceOf(OffsetOutOfRangeException.class)
                .hasMessageContaining("first available offset is 6");
        assertThat(TestRecords.offsets(log.read(6, 1000, Long.MAX_VALUE, false).records())).containsExactly(6L, 7L);
    }

    @Test
    void advancingTheLogStartHidesTheRecordsBelowAndDeletesTheSegmentsWhollyBelow() throws Exception {
        PartitionLog log = logWithSegments(4, Map.of()); // segments at 0, 2, 4, 6
        assertThat(log.advanceLogStartOffset(5)).isEqualTo(5);
        assertThat(log.logStartOffset()).isEqualTo(5);
        assertThat(log.segments()).extracting(LogSegment::baseOffset).containsExactly(4L, 6L);
        assertThatThrownBy(() -> log.read(4, 1000, Long.MAX_VALUE, false))
                .isInstanceOf(OffsetOutOfRangeException.class).hasMessageContaining("first available offset is 5");
        assertThat(TestRecords.offsets(log.read(5, 1000, Long.MAX_VALUE, false).records())).contains(5L);

        assertThat(log.advanceLogStartOffset(3)).as("never back").isEqualTo(5);
        assertThat(log.advanceLogStartOffset(8)).as("up to the log end").isEqualTo(8);
        assertThat(log.segments()).extracting(LogSegment::baseOffset).as("the active segment stays").containsExactly(6L);
        assertThatThrownBy(() -> log.advanceLogStartOffset(9)).isInstanceOf(OffsetOutOfRangeException.class)
                .hasMessageContaining("the log ends at 8");
        assertThat(log.appendAsLeader(batch(2, 50, 0), 0).firstOffset()).isEqualTo(8);
        assertThat(TestRecords.offsets(log.read(8, 1000, Long.MAX_VALUE, false).records())).containsExactly(8L, 9L);
    }

    @Test
    void truncatingTheBatchThatHoldsTheLogStartLowersTheStartToTheNewEnd() throws Exception {
        PartitionLog log = logWithSegments(2, Map.of()); // batches [0, 1] and [2, 3]
        log.advanceLogStartOffset(3);
        log.truncateTo(3); // cuts the whole batch [2, 3]
        assertThat(log.logEndOffset()).isEqualTo(2);
        assertThat(log.logStartOffset()).isEqualTo(2);
        assertThat(log.appendAsLeader(batch(2, 50, 0), 0).firstOffset()).isEqualTo(2);
        assertThat(TestRecords.offsets(log.read(2, 1000, Long.MAX_VALUE, false).records())).containsExactly(2L, 3L);
    }

    @Test
    void truncatingBelowTheLogStartRestartsTheLogThere() throws Exception {
        PartitionLog log = logWithSegments(4, Map.of(LogConfig.RETENTION_BYTES, "0"));
        log.deleteOldSegments();
        assertThat(log.logStartOffset()).isEqualTo(6);
        log.truncateTo(2);
        assertThat(log.logStartOffset()).isEqualTo(2);
        assertThat(log.logEndOffset()).isEqualTo(2);
        assertThat(log.segments()).extracting(LogSegment::baseOffset).containsExactly(2L);
        assertThat(log.appendAsLeader(batch(2, 50, 0), 0).firstOffset()).isEqualTo(2);
        assertThat(TestRecords.offsets(log.read(2, 1000, Long.MAX_VALUE, false).records())).containsExactly(2L, 3L);
    }

    @Test
    void neverDeletesTheActiveSegment() throws Exception {
        PartitionLog log = logWithSegments(3, Map.of(LogConfig.RETENTION_MS, "1"));
        fixture.time.sleep(1_000_000);
        assertThat(log.deleteOldSegments()).isEqualTo(2);
        assertThat(log.deleteOldSegments()).isZero();
        assertThat(log.numberOfSegments()).isEqualTo(1);
        assertThat(log.logStartOffset()).isEqualTo(4);
        assertThat(log.logEndOffset()).isEqualTo(6);
    }

    /** A segment goes only if the log stays at or above retention.bytes without it (Kafka's rule). */
    @ParameterizedTest(name = "retention.bytes = {0} batches + {1} bytes keeps {2} segments")
    @CsvSource({"3, -1, 3", "3, 0, 3", "3, 1, 4", "2, 0, 2", "0, 0, 1", "10, 0, 5"})
    void deletesOldestSegmentsWhileTheLogExceedsRetentionBytes(int batches, int delta, int kept) throws Exception {
        long retentionBytes = (long) batches * BATCH_BYTES + delta;
        PartitionLog log = logWithSegments(5, Map.of(LogConfig.RETENTION_BYTES, String.valueOf(retentionBytes)));
        log.deleteOldSegments();
        assertThat(log.numberOfSegments()).isEqualTo(kept);
        assertThat(log.logStartOffset()).isEqualTo(2L * (5 - kept));
    }

    @Test
    void topicOverridesApplyLive() throws Exception {
        PartitionLog log = logWithSegments(4, Map.of());
        fixture.time.sleep(60_000);
        assertThat(log.deleteOldSegments()).as("default retention is 7 days").isZero();
        log.updateConfig(fixture.config.withTopicOverrides(Map.of(LogConfig.RETENTION_MS, "75000")));
        assertThat(log.deleteOldSegments()).isEqualTo(2);
    }

    @Test
    void compactedTopicsAreNotDeletedByRetention() throws Exception {
        PartitionLog log = logWithSegments(3, Map.of(LogConfig.RETENTION_MS, "1", LogConfig.CLEANUP_POLICY, "compact"));
        fixture.time.sleep(1_000_000);
        assertThat(log.deleteOldSegments()).isZero();
    }

    @Test
    void deletedFilesStayReadableUntilTheDeleteDelay() throws Exception {
        PartitionLog log = logWithSegments(3, Map.of(LogConfig.RETENTION_BYTES, "0"));
        Records inFlight = log.read(0, 1000, Long.MAX_VALUE, false).records();
        assertThat(log.deleteOldSegments()).isEqualTo(2);
        assertThat(filesIn(log.dir())).contains("00000000000000000000.log.deleted",
                "00000000000000000000.index.deleted", "00000000000000000000.timeindex.deleted")
                .doesNotContain("00000000000000000000.log");
        assertThat(TestRecords.offsets(inFlight)).containsExactly(0L, 1L);
        fixture.scheduler.advance(999);
        assertThat(filesIn(log.dir())).contains("00000000000000000000.log.deleted");
        fixture.scheduler.advance(1);
        assertThat(filesIn(log.dir())).containsExactlyInAnyOrder("00000000000000000004.log",
                "00000000000000000004.index", "00000000000000000004.timeindex");
    }

    @Test
    void flushesEveryFlushMessages() throws Exception {
        fixture = new LogFixture(root, Map.of(LogConfig.FLUSH_MESSAGES, "5"));
        PartitionLog log = fixture.open();
        log.appendAsLeader(batch(2, 10, 0), 0);
        log.appendAsLeader(batch(2, 10, 0), 0);
        assertThat(log.recoveryPoint()).isZero();
        log.appendAsLeader(batch(2, 10, 0), 0);
        assertThat(log.recoveryPoint()).isEqualTo(6);
    }

    @Test
    void flushesWhenFlushMsHasPassed() throws Exception {
        fixture = new LogFixture(root, Map.of(LogConfig.FLUSH_MS, "1000"));
        PartitionLog log = fixture.open();
        log.appendAsLeader(batch(2, 10, 0), 0);
        fixture.time.sleep(999);
        log.maybeFlushByTime();
        assertThat(log.recoveryPoint()).isZero();
        fixture.time.sleep(1);
        log.maybeFlushByTime();
        assertThat(log.recoveryPoint()).isEqualTo(2);
    }

    @Test
    void byDefaultFlushingIsLeftToTheOperatingSystem() throws Exception {
        fixture = new LogFixture(root, Map.of());
        PartitionLog log = fixture.open();
        for (int i = 0; i < 100; i++) {
            log.appendAsLeader(batch(10, 10, 0), 0);
        }
        fixture.time.sleep(365L * 24 * 3600 * 1000);
        log.maybeFlushByTime();
        assertThat(log.recoveryPoint()).isZero();
    }

    private static List<String> filesIn(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).toList();
        }
    }
}

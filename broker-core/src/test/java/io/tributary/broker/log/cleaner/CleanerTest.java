package io.tributary.broker.log.cleaner;

import static io.tributary.broker.log.cleaner.CompactedLog.DELETE_RETENTION_MS;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import io.tributary.broker.log.ClosedSegment;
import io.tributary.broker.log.cleaner.CompactedLog.Stored;
import io.tributary.broker.log.AppendOrigin;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The cleaner on a fake clock: what a clean keeps, tombstone expiry, the dirty ratio, and crashes mid-clean. */
@Timeout(60)
class CleanerTest {
    private static final int KEYS = 40;

    @TempDir
    Path dir;

    /** 1,000 overwrites of 40 keys, every 7th a tombstone, and one batch per record so segments roll often. */
    private static void overwrite(CompactedLog log, int count) {
        for (int i = 0; i < count; i++) {
            log.append("key-" + (i % KEYS), i % 7 == 3 ? null : "value-" + i);
        }
    }

    private static void assertOffsetsKeptTheirRecords(CompactedLog log, List<Stored> stored) {
        long previous = -1;
        for (Stored record : stored) {
            assertThat(record.offset()).as("offsets only increase").isGreaterThan(previous);
            previous = record.offset();
            String[] original = log.appended.get(record.offset());
            assertThat(new String[]{record.key(), record.value()}).as("record at offset %d", record.offset())
                    .containsExactly(original);
        }
    }

    private static void assertAtMostOneRecordPerKeyBelow(List<Stored> stored, long offset) {
        Set<String> keys = new HashSet<>();
        stored.stream().filter(s -> s.offset() < offset)
                .forEach(s -> assertThat(keys.add(s.key())).as("key %s kept twice", s.key()).isTrue());
    }

    /** Offsets of the control batches (transaction markers) in the log. */
    private static List<Long> markerOffsets(CompactedLog log) {
        List<Long> markers = new java.util.ArrayList<>();
        long end = log.log.logEndOffset();
        for (long position = log.log.logStartOffset(); position < end; ) {
            long next = position;
            for (RecordBatch batch : log.log.read(position, 64 * 1024, end, true).records().batches()) {
                if (batch.isControlBatch()) {
                    markers.add(batch.baseOffset());
                }
                next = batch.nextOffset();
            }
            if (next == position) {
                break;
            }
            position = next;
        }
        return markers;
    }

    @Test
    void transactionMarkersAreKeptWhileTheDataAroundThemIsCompacted() {
        try (CompactedLog log = new CompactedLog(dir, Map.of())) {
            for (int i = 0; i < 200; i++) {
                log.append("key-" + (i % 5), "value-" + i);
                if (i % 4 == 3) {
                    ControlRecordType type = i % 8 == 3 ? ControlRecordType.COMMIT : ControlRecordType.ABORT;
                    log.log.appendAsLeader(MemoryRecords.withEndTransactionMarker(log.time.milliseconds(), 7L, (short) 0,
                            new EndTransactionMarker(type, 0)), 0, AppendOrigin.COORDINATOR);
                }
            }
            List<Long> before = markerOffsets(log);
            assertThat(before).hasSize(50);
            int recordsBefore = log.readAll().size();
            new Cleaner(log.time, log.state).clean(log.log);
            assertThat(log.readAll().size()).isLessThan(recordsBefore - 100); // the data was compacted
            assertThat(markerOffsets(log)).isEqualTo(before); // every marker kept, at its offset
        }
    }

    @Test
    void keepsTheLatestRecordPerKeyInClosedSegmentsWithTheirOriginalOffsets() {
        try (CompactedLog log = new CompactedLog(dir, Map.of())) {
            overwrite(log, 1000);
            int segmentsBefore = log.log.closedSegments().size();
            long closedEnd = log.log.closedSegments().get(segmentsBefore - 1).endOffset();

            Cleaner cleaner = new Cleaner(log.time, log.state);
            CleanResult result = cleaner.clean(log.log);
            assertThat(result.swapped()).isTrue();
            assertThat(result.cleanedUpToOffset()).isEqualTo(closedEnd);
            assertThat(result.bytesWritten()).isLessThan(result.bytesRead() / 5);
            cleaner.clean(log.log); // the segments shrank: now they are merged

            List<Stored> stored = log.readAll();
            assertThat(log.log.closedSegments().size()).isLessThan(segmentsBefore / 5);
            assertThat(log.log.logEndOffset()).isEqualTo(1000);
            assertOffsetsKeptTheirRecords(log, stored);
            assertAtMostOneRecordPerKeyBelow(stored, closedEnd);
            assertThat(log.replayStored()).isEqualTo(log.replayAppended());
        }
    }

    @Test
    void tombstonesAreDroppedOnlyOnceTheDeleteRetentionHasPassed() {
        try (CompactedLog log = new CompactedLog(dir, Map.of())) {
            overwrite(log, 1000);
            Cleaner cleaner = new Cleaner(log.time, log.state);
            long closedEnd = log.log.closedSegments().get(log.log.closedSegments().size() - 1).endOffset();

            CleanResult first = cleaner.clean(log.log);
            long tombstonesKept = log.readAll().stream().filter(s -> s.offset() < closedEnd && s.value() == null).count();
            assertThat(tombstonesKept).isPositive();
            assertThat(first.earliestTombstoneHorizonMs()).isEqualTo(log.time.milliseconds() + DELETE_RETENTION_MS);

            log.time.sleep(DELETE_RETENTION_MS - 1);
            cleaner.clean(log.log);
            assertThat(log.readAll().stream().filter(s -> s.offset() < closedEnd && s.value() == null).count())
                    .isEqualTo(tombstonesKept);

            log.time.sleep(1);
            CleanResult late = cleaner.clean(log.log);
            List<Stored> stored = log.readAll();
            assertThat(stored.stream().filter(s -> s.offset() < closedEnd && s.value() == null)).isEmpty();
            assertThat(late.earliestTombstoneHorizonMs()).isEqualTo(Long.MAX_VALUE);
            assertOffsetsKeptTheirRecords(log, stored);
            assertThat(log.replayStored()).isEqualTo(log.replayAppended());
        }
    }

    @Test
    void aLogIsCleanedWhenItsDirtyShareReachesTheRatioAndOnlyIfItIsCompacted() {
        try (CompactedLog compacted = new CompactedLog(dir.resolve("a"), Map.of("min.cleanable.dirty.ratio", "0.9"));
             CompactedLog plain = new CompactedLog(dir.resolve("b"), Map.of("cleanup.policy", "delete"))) {
            overwrite(compacted, 1000);
            overwrite(plain, 1000);
            LogCleaner cleaner = new LogCleaner(() -> List.of(compacted.log, plain.log), compacted.state, compacted.time, 0);

            assertThat(cleaner.dirtyRatio(compacted.log)).isEqualTo(1.0);
            assertThat(cleaner.cleanOnce()).isTrue();
            assertThat(cleaner.cleanOnce()).as("nothing dirty, and the plain log is never compacted").isFalse();
            assertThat(plain.readAll()).hasSize(1000);

            overwrite(compacted, 40);
            assertThat(cleaner.dirtyRatio(compacted.log)).isStrictlyBetween(0.0, 0.9);
            assertThat(cleaner.cleanOnce()).isFalse();
            overwrite(compacted, 400);
            assertThat(cleaner.dirtyRatio(compacted.log)).isGreaterThanOrEqualTo(0.9);
            assertThat(cleaner.cleanOnce()).isTrue();
            assertThat(compacted.replayStored()).isEqualTo(compacted.replayAppended());
        }
    }

    @Test
    void aCrashBeforeTheCleanCommitsLeavesTheOriginalSegments() throws IOException {
        try (CompactedLog log = new CompactedLog(dir, Map.of())) {
            overwrite(log, 600);
            List<ClosedSegment> closed = log.log.closedSegments();
            Path cleaned = log.log.cleanedFile(closed.get(0).baseOffset(), closed.get(closed.size() - 1).endOffset());
            Cleaner.writeCleaned(closed, new CompactionFilter(LatestOffsets.of(closed, List.of()),
                    new CleanedTransactions(List.of()), new ProducerLastBatches(Map.of()), log.time.milliseconds(),
                    DELETE_RETENTION_MS), cleaned, Integer.MAX_VALUE);
            List<Stored> before = log.readAll();

            log.crashCopyAndReopen("crashed");

            assertThat(log.readAll()).isEqualTo(before);
            assertThat(log.log.logEndOffset()).isEqualTo(600);
            try (Stream<Path> files = Files.list(log.partitionDir())) {
                assertThat(files.map(f -> f.getFileName().toString())).noneMatch(f -> f.endsWith(".cleaned"));
            }
        }
    }

    @Test
    void aCrashAfterTheCleanCommittedFinishesTheSwapAtStartUp() throws IOException {
        try (CompactedLog log = new CompactedLog(dir, Map.of())) {
            overwrite(log, 600);
            List<ClosedSegment> closed = log.log.closedSegments();
            long base = closed.get(0).baseOffset();
            long end = closed.get(closed.size() - 1).endOffset();
            Path cleaned = log.log.cleanedFile(base, end);
            Cleaner.writeCleaned(closed, new CompactionFilter(LatestOffsets.of(closed, List.of()),
                    new CleanedTransactions(List.of()), new ProducerLastBatches(Map.of()), log.time.milliseconds(),
                    DELETE_RETENTION_MS), cleaned, Integer.MAX_VALUE);
            // The commit point, then a crash halfway through retiring the old segments.
            Files.move(cleaned, cleaned.resolveSibling(cleaned.getFileName().toString().replace(".cleaned", ".swap")));
            Path second = log.partitionDir().resolve(String.format("%020d.log", closed.get(1).baseOffset()));
            Files.move(second, second.resolveSibling(second.getFileName() + ".deleted"), StandardCopyOption.ATOMIC_MOVE);

            log.crashCopyAndReopen("crashed");

            List<Stored> stored = log.readAll();
            assertThat(log.log.logEndOffset()).isEqualTo(600);
            assertOffsetsKeptTheirRecords(log, stored);
            assertAtMostOneRecordPerKeyBelow(stored, end);
            assertThat(log.replayStored()).isEqualTo(log.replayAppended());
            try (Stream<Path> files = Files.list(log.partitionDir())) {
                assertThat(files.map(f -> f.getFileName().toString()))
                        .noneMatch(f -> f.endsWith(".swap") || f.endsWith(".deleted"));
            }
            log.append("after", "restart");
            assertThat(log.log.logEndOffset()).isEqualTo(601);
        }
    }

    @Test
    void readsWhileCleaningSeeEveryKeptRecordAtItsOffset() throws Exception {
        try (CompactedLog log = new CompactedLog(dir, Map.of())) {
            overwrite(log, 1000);
            Cleaner cleaner = new Cleaner(log.time, log.state);
            Map<String, String> expected = log.replayAppended();
            Thread reader = new Thread(() -> {
                for (int i = 0; i < 50; i++) {
                    List<Stored> stored = log.readAll();
                    assertOffsetsKeptTheirRecords(log, stored);
                    assertThat(CompactedLog.replay(stored.stream().map(s -> new String[]{s.key(), s.value()}).toList()))
                            .isEqualTo(expected);
                }
            });
            List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
            reader.setUncaughtExceptionHandler((t, e) -> failures.add(e));
            reader.start();
            for (int i = 0; i < 5; i++) {
                log.time.sleep(DELETE_RETENTION_MS / 2);
                cleaner.clean(log.log);
            }
            reader.join();
            assertThat(failures).isEmpty();
        }
    }
}

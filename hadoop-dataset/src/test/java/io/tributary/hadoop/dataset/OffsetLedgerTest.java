package io.tributary.hadoop.dataset;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OffsetLedgerTest {
    @TempDir
    java.nio.file.Path dir;

    private DatasetLayout layout;
    private OffsetLedger ledger;

    @BeforeEach
    void open() throws IOException {
        layout = DatasetLayout.utc(new Path(dir.toUri()));
        ledger = OffsetLedger.open(layout, "t", new Configuration());
    }

    @Test
    void emptyUntilFirstAdvance() throws IOException {
        assertThat(ledger.read()).isEqualTo(LedgerState.empty("t"));
    }

    @Test
    void anAdvanceFromAnEntryAnotherWriterMovedIsRefusedAndWritesNothing() throws IOException {
        Ledgers.advanceNow(ledger, Map.of(0, 10L, 1, 20L));
        LedgerVersion read = ledger.readVersion();
        Ledgers.advanceNow(OffsetLedger.open(layout, "t", new Configuration()), Map.of(1, 25L, 2, 5L));

        assertThat(ledger.advance(read.entriesOf(List.of(0)), Map.of(0, 15L), Ledgers.unpinned("mine")).state().nextOffsets())
            .as("a partition nobody else moved").isEqualTo(Map.of(0, 15L, 1, 25L, 2, 5L));
        assertThatThrownBy(() -> ledger.advance(read.entriesOf(List.of(1, 2)), Map.of(1, 30L, 2, 9L), Ledgers.unpinned("mine")))
            .isInstanceOfSatisfying(LedgerConflictException.class, e -> assertThat(e.moved()).hasToString("{1=20 -> 25, 2=none -> 5}"))
            .hasMessageContaining("t-1 (next offset 20 -> 25) t-2 (next offset none -> 5)");
        assertThat(ledger.read().nextOffsets()).isEqualTo(Map.of(0, 15L, 1, 25L, 2, 5L));
    }

    @Test
    void tellsWhetherACommitsAdvanceHappened() throws IOException {
        LedgerVersion read = ledger.readVersion();
        ledger.advance(Map.of(), Map.of(0, 10L), Ledgers.unpinned("first"));
        Ledgers.advanceNow(ledger, Map.of(1, 5L));
        assertThat(ledger.isCommitted("first", read.number(), Map.of(), Map.of(0, 10L))).isTrue();
        assertThat(ledger.isCommitted("never-advanced", read.number(), Map.of(), Map.of(0, 10L))).isFalse();
        assertThat(ledger.isCommitted("a-no-op", read.number(), Map.of(0, 10L), Map.of(0, 10L))).isTrue();
    }

    @Test
    void aPinnedCommitWhoseVersionWasPrunedIsStillKnownCommitted() throws IOException {
        LedgerCommit old = new LedgerCommit("old", List.of(pendingIntent("old")));
        ledger.advance(Map.of(), Map.of(0, 10L), old);
        overtake(0, 10);
        assertThat(ledgerFiles()).doesNotContain(String.format("v%020d.ledger", 1)).contains("old.pin", "old.receipt");
        assertThat(ledger.isCommitted("old", 0, Map.of(), Map.of(0, 10L))).isTrue();
    }

    @Test
    void aCommitWhoseAdvanceNeverHappenedIsKnownNotCommittedHoweverFarOthersMovedItsPartitions() throws IOException {
        // Killed after its intent: pinned or not yet, its compare-and-set never ran. Another writer then
        // landed the same offsets and many more, so the ledger is past the killed commit's target.
        LedgerCommit killed = new LedgerCommit("killed", List.of(pendingIntent("killed")));
        new LedgerFiles(FileSystem.getLocal(new Configuration()), layout.ledgerDir("t"), "t").pin(killed);
        overtake(0, 0);
        assertThat(ledger.read().nextOffset(0).getAsLong()).isGreaterThan(10);
        assertThat(ledger.isCommitted("killed", 0, Map.of(), Map.of(0, 10L))).isFalse();
        assertThat(ledger.isCommitted("never-pinned", 0, Map.of(), Map.of(0, 10L))).isFalse();
    }

    @Test
    void anOrphanACrashLeftNeverCountsAsItsWritersCommit() throws IOException {
        // A writer read version 10, stalled while others made and pruned versions far past it, published
        // its advance under the then free name 11, and died before deleting that orphan.
        LedgerCommit stalled = new LedgerCommit("stalled", List.of(pendingIntent("stalled")));
        new LedgerFiles(FileSystem.getLocal(new Configuration()), layout.ledgerDir("t"), "t").pin(stalled);
        overtake(0, 0);
        long oldest;
        try (Stream<String> names = ledgerFiles().stream()) {
            oldest = names.filter(n -> n.matches("v\\d{20}\\.ledger")).mapToLong(n -> Long.parseLong(n.substring(1, 21))).min().orElseThrow();
        }
        long orphan = oldest - 1;
        Files.writeString(dir.resolve("_tributary/ledger/t").resolve(String.format("v%020d.ledger", orphan)),
            LedgerText.encode("t", Map.of(0, 5L, 1, 7L), stalled.id(), "the-writer-of-version-" + (orphan - 1)), StandardCharsets.UTF_8);

        assertThat(ledger.isCommitted(stalled.id(), orphan - 1, Map.of(0, 5L), Map.of(0, 5L, 1, 7L))).isFalse();
        pruneOnce(OffsetLedger.open(layout, "t", new Configuration()));
        assertThat(ledgerFiles()).as("no receipt for an orphan").doesNotContain("stalled.receipt");
        assertThat(ledger.isCommitted(stalled.id(), orphan - 1, Map.of(0, 5L), Map.of(0, 5L, 1, 7L))).isFalse();
    }

    @Test
    void aLongLivedReaderWhoseCachedVersionWasPrunedDoesNotTakeAnOrphanForTheNewest() throws IOException {
        Ledgers.advanceNow(ledger, Map.of(0, 1L)); // this instance now caches version 1
        overtake(0, 1); // others commit far past it, and prune version 1
        assertThat(ledgerFiles()).doesNotContain(String.format("v%020d.ledger", 1));
        // A writer as far behind published under the freed name 2 and died before deleting it.
        Files.writeString(dir.resolve("_tributary/ledger/t").resolve(String.format("v%020d.ledger", 2)),
            LedgerText.encode("t", Map.of(0, 2L), "stalled", "the-writer-of-version-1"), StandardCharsets.UTF_8);

        assertThat(ledger.read().nextOffsets()).as("the chain's newest, not the orphan")
            .containsEntry(0, 1L + 3 * OffsetLedger.KEPT_VERSIONS);
    }

    @Test
    void aPinStaysWhileAnIntentNamesTheCommitAndGoesWithTheLastOne() throws IOException {
        Path first = pendingIntent("first");
        Path second = pendingIntent("second");
        LedgerCommit commit = new LedgerCommit("two-partitions", List.of(first, second));
        ledger.advance(Map.of(), Map.of(0, 10L, 1, 10L), commit);
        overtake(2, 0); // prunes its version: a receipt instead

        FileSystem fs = FileSystem.getLocal(new Configuration());
        fs.delete(first, false); // one partition recovered
        ledger.releaseIfResolved(commit.id());
        assertThat(ledgerFiles()).contains("two-partitions.pin", "two-partitions.receipt");
        assertThat(ledger.isCommitted(commit.id(), 0, Map.of(), Map.of(1, 10L))).isTrue();

        fs.delete(second, false); // the other recovered too, and its writer died before releasing
        pruneOnce(ledger);
        assertThat(ledgerFiles()).noneMatch(n -> n.startsWith("two-partitions"));
    }

    @Test
    void aRefusedAdvanceLeavesNoPin() throws IOException {
        Ledgers.advanceNow(ledger, Map.of(0, 10L));
        assertThatThrownBy(() -> ledger.advance(Map.of(), Map.of(0, 20L), new LedgerCommit("late", List.of(pendingIntent("late")))))
            .isInstanceOf(LedgerConflictException.class);
        assertThat(ledgerFiles()).noneMatch(n -> n.startsWith("late"));
    }

    @Test
    void advancesAndKeepsOtherPartitions() throws IOException {
        Ledgers.advanceNow(ledger, Map.of(0, 10L, 1, 20L));
        LedgerState state = Ledgers.advanceNow(ledger, Map.of(1, 25L, 2, 5L));
        assertThat(state.nextOffsets()).containsExactly(Map.entry(0, 10L), Map.entry(1, 25L), Map.entry(2, 5L));
        assertThat(OffsetLedger.open(layout, "t", new Configuration()).read()).isEqualTo(state);
    }

    @Test
    void refusesToMoveBackwardAndWritesNothing() throws IOException {
        Ledgers.advanceNow(ledger, Map.of(0, 10L));
        List<String> before = ledgerFiles();
        assertThatThrownBy(() -> Ledgers.advanceNow(ledger, Map.of(0, 9L)))
            .isInstanceOf(LedgerRegressionException.class)
            .hasMessageContaining("t-0 backward from 10 to 9");
        assertThat(ledger.read().nextOffset(0)).hasValue(10);
        assertThat(ledgerFiles()).isEqualTo(before);
    }

    @Test
    void anUpdateThatChangesNothingWritesNothing() throws IOException {
        Ledgers.advanceNow(ledger, Map.of(0, 10L));
        List<String> before = ledgerFiles();
        Ledgers.advanceNow(ledger, Map.of(0, 10L));
        Ledgers.advanceNow(ledger, Map.of());
        assertThat(ledgerFiles()).isEqualTo(before);
    }

    @Test
    void everyUpdateIsANewCompleteVersionAndOldVersionsArePruned() throws IOException {
        int updates = 3 * OffsetLedger.KEPT_VERSIONS;
        for (long i = 1; i <= updates; i++) {
            Ledgers.advanceNow(ledger, Map.of((int) i % 3, i));
        }
        List<String> files = ledgerFiles();
        assertThat(files).allMatch(n -> n.matches("v\\d{20}\\.ledger"))
            .hasSizeBetween(OffsetLedger.KEPT_VERSIONS, OffsetLedger.KEPT_VERSIONS * 3 / 2)
            .last().isEqualTo(String.format("v%020d.ledger", updates));
        assertThat(Files.readString(dir.resolve("_tributary/ledger/t").resolve(files.get(files.size() - 1))))
            .startsWith("# Tributary loaded-offset ledger")
            .contains("topic=t\n", "partition.0=" + updates, "partition.1=" + (updates - 2), "partition.2=" + (updates - 1));
    }

    @Test
    void aReaderFarBehindStartsOverFromAListing() throws IOException {
        OffsetLedger behind = OffsetLedger.open(layout, "t", new Configuration());
        Ledgers.advanceNow(ledger, Map.of(0, 1L));
        assertThat(behind.read().nextOffsets()).isEqualTo(Map.of(0, 1L));
        for (long i = 2; i <= 3 * OffsetLedger.KEPT_VERSIONS; i++) {
            Ledgers.advanceNow(ledger, Map.of(0, i)); // prunes the version behind last saw, and the ones after it
        }
        assertThat(behind.read().nextOffsets()).isEqualTo(Map.of(0, 3L * OffsetLedger.KEPT_VERSIONS));
        assertThat(Ledgers.advanceNow(behind, Map.of(1, 5L)).nextOffsets()).isEqualTo(Map.of(0, 3L * OffsetLedger.KEPT_VERSIONS, 1, 5L));
    }

    @Test
    void readsTheSingleFileLedgerOfEarlierVersionsAndMigratesItAtTheFirstWrite() throws IOException {
        Files.createDirectories(dir.resolve("_tributary"));
        Files.writeString(dir.resolve("_tributary/t.ledger"), "# old\ntopic=t\npartition.0=10\npartition.1=20\n", StandardCharsets.UTF_8);
        assertThat(ledger.read().nextOffsets()).containsExactly(Map.entry(0, 10L), Map.entry(1, 20L));

        Ledgers.advanceNow(ledger, Map.of(1, 30L));

        assertThat(dir.resolve("_tributary/t.ledger")).doesNotExist();
        assertThat(ledgerFiles()).hasSize(1);
        assertThat(OffsetLedger.open(layout, "t", new Configuration()).read().nextOffsets())
            .containsExactly(Map.entry(0, 10L), Map.entry(1, 30L));
    }

    @Test
    void abandonedTempFilesAreIgnoredAndRemovedByALaterPrune() throws IOException {
        Ledgers.advanceNow(ledger, Map.of(0, 1L));
        java.nio.file.Path abandoned = dir.resolve("_tributary/ledger/t/.v00000000000000000002.dead.tmp");
        Files.writeString(abandoned, "topic=t\npartition.0=99", StandardCharsets.UTF_8); // never published
        assertThat(ledger.read().nextOffsets()).isEqualTo(Map.of(0, 1L));

        OffsetLedger anHourLater = OffsetLedger.open(FileSystem.getLocal(new Configuration()), layout, "t",
            new ShiftedTime(OffsetLedger.ABANDONED_TEMP_AGE.plus(Duration.ofMinutes(1))));
        pruneOnce(anHourLater);

        assertThat(abandoned).doesNotExist();
        assertThat(ledger.read().nextOffsets()).containsEntry(0, 1L);
    }

    @Test
    void aFreshTempFileIsLeftToItsWriter() throws IOException {
        Files.createDirectories(dir.resolve("_tributary/ledger/t"));
        java.nio.file.Path inFlight = dir.resolve("_tributary/ledger/t/.v00000000000000000001.busy.tmp");
        Files.writeString(inFlight, "topic=t\n", StandardCharsets.UTF_8);
        pruneOnce(ledger);
        assertThat(inFlight).exists();
    }

    @Test
    void corruptVersionFileIsAClearError() throws IOException {
        Files.createDirectories(dir.resolve("_tributary/ledger/t"));
        Files.writeString(dir.resolve("_tributary/ledger/t/v00000000000000000001.ledger"), "topic=t\npartition.0=ten\n",
            StandardCharsets.UTF_8);
        assertThatThrownBy(ledger::read).hasMessageContaining("corrupt ledger").hasMessageContaining("partition.0=ten");
    }

    @Test
    void ledgerOfAnotherTopicIsRejected() throws IOException {
        Files.createDirectories(dir.resolve("_tributary"));
        Files.writeString(dir.resolve("_tributary/t.ledger"), "topic=u\npartition.0=1\n", StandardCharsets.UTF_8);
        assertThatThrownBy(ledger::read).hasMessageContaining("ledger of topic 'u'");
    }

    @Test
    void resumesAfterTheNewerOfLedgerAndCommittedFiles() {
        LedgerState state = new LedgerState("t", Map.of(0, 100L, 1, 50L));
        assertThat(state.resumeOffsets(Map.of(0, 80L, 1, 59L, 2, 9L)))
            .containsExactly(Map.entry(0, 100L), Map.entry(1, 60L), Map.entry(2, 10L));
    }

    /** Three times as many commits of {@code partition} by another writer as the ledger keeps, from {@code from} on. */
    private void overtake(int partition, long from) throws IOException {
        OffsetLedger other = OffsetLedger.open(layout, "t", new Configuration());
        for (long next = from + 1; next <= from + 3 * OffsetLedger.KEPT_VERSIONS; next++) {
            Ledgers.advanceNow(other, Map.of(partition, next));
        }
    }

    /** An intent file of a commit that a recovery has not finished yet. */
    private Path pendingIntent(String name) throws IOException {
        java.nio.file.Path intent = Files.createDirectories(dir.resolve("intents")).resolve(name);
        Files.writeString(intent, "pending", StandardCharsets.UTF_8);
        return new Path(intent.toUri());
    }

    /** Enough updates of partition 9 for {@code writer} to prune once. */
    private static void pruneOnce(OffsetLedger writer) throws IOException {
        long next = writer.read().nextOffset(9).orElse(0);
        for (int i = 0; i <= OffsetLedger.KEPT_VERSIONS / 2; i++) {
            Ledgers.advanceNow(writer, Map.of(9, ++next));
        }
    }

    private List<String> ledgerFiles() throws IOException {
        try (Stream<java.nio.file.Path> files = Files.list(dir.resolve("_tributary/ledger/t"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).sorted().toList();
        }
    }
}

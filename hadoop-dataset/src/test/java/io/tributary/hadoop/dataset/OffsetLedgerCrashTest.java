package io.tributary.hadoop.dataset;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A writer killed at every step of an update, a prune and a migration: afterwards the
 * ledger reads as before or as after that update (never less, never a mix that loses another
 * partition), the next writer works, and a later compaction removes what the dead one left.
 */
class OffsetLedgerCrashTest {
    private static final Map<Integer, Long> BEFORE = Map.of(0, 50L, 1, 60L);
    private static final int CRASHING_PARTITION = 1;
    private static final long CRASHING_TARGET = 100L;
    private static final int PRUNED = OffsetLedger.KEPT_VERSIONS / 2 - 1;

    @TempDir
    java.nio.file.Path dir;

    private final FileSystem local = localFs();

    @ParameterizedTest
    @ValueSource(strings = {"update", "prune", "migration"})
    void aWriterKilledAtAnyStepLosesNothing(String scenario) throws IOException {
        int crashPoints = 0;
        for (int crashAt = 1; ; crashAt++) {
            DatasetLayout layout = DatasetLayout.utc(new Path(dir.resolve(scenario + "-" + crashAt).toUri()));
            prepare(scenario, layout);
            CrashingFileSystem crashing = new CrashingFileSystem(local, crashAt);
            OffsetLedger dying = OffsetLedger.open(crashing, layout, "t", Time.SYSTEM);
            try {
                Ledgers.advanceNow(dying, Map.of(CRASHING_PARTITION, CRASHING_TARGET));
            } catch (IOException e) {
                assertThat(crashing.crashed()).as("failed without a crash: %s", e).isTrue();
            }
            if (!crashing.crashed()) {
                break; // crashAt is past the last change of the update
            }
            crashPoints++;
            assertRecovers(layout, "crash at change " + crashAt + " of the " + scenario);
        }
        // Changes: create the temp file, (link it: not a Hadoop call), delete it, then per scenario
        // delete the old single file or the versions pruned.
        int changes = Map.of("update", 2, "migration", 3, "prune", 2 + PRUNED).get(scenario);
        assertThat(crashPoints).as("changes of the " + scenario).isEqualTo(changes);
    }

    private void prepare(String scenario, DatasetLayout layout) throws IOException {
        OffsetLedger healthy = OffsetLedger.open(local, layout, "t", Time.SYSTEM);
        switch (scenario) {
            case "update" -> Ledgers.advanceNow(healthy, BEFORE);
            case "prune" -> {
                // The dying writer creates version 3 * KEPT / 2, whose clean-up prunes the versions below KEPT / 2.
                int versionsBefore = 3 * OffsetLedger.KEPT_VERSIONS / 2 - 1;
                for (long i = 1; i < versionsBefore; i++) {
                    Ledgers.advanceNow(healthy, Map.of(0, BEFORE.get(0) - versionsBefore + i));
                }
                Ledgers.advanceNow(healthy, BEFORE);
            }
            case "migration" -> {
                java.nio.file.Path legacy = java.nio.file.Path.of(layout.legacyLedgerFile("t").toUri());
                Files.createDirectories(legacy.getParent());
                Files.writeString(legacy, LedgerText.encode("t", BEFORE, "", ""), StandardCharsets.UTF_8);
            }
            default -> throw new IllegalArgumentException(scenario);
        }
    }

    private void assertRecovers(DatasetLayout layout, String what) throws IOException {
        LedgerState afterCrash = OffsetLedger.open(local, layout, "t", Time.SYSTEM).read();
        assertThat(afterCrash.nextOffset(0)).as(what).hasValue(BEFORE.get(0));
        assertThat(afterCrash.nextOffset(CRASHING_PARTITION).getAsLong()).as(what)
            .isIn(BEFORE.get(CRASHING_PARTITION), CRASHING_TARGET);
        assertThat(afterCrash.nextOffsets()).as(what).hasSize(2);

        OffsetLedger next = OffsetLedger.open(local, layout, "t", Time.SYSTEM);
        Map<Integer, Long> expected = new HashMap<>(Map.of(0, 70L, CRASHING_PARTITION, 200L));
        Ledgers.advanceNow(next, expected);
        assertThat(next.read().nextOffsets()).as(what).isEqualTo(expected);

        // Much later, a prune clears every leftover of the dead writer.
        OffsetLedger later = OffsetLedger.open(local, layout, "t",
            new ShiftedTime(OffsetLedger.ABANDONED_TEMP_AGE.plus(Duration.ofMinutes(1))));
        for (int i = 0; i <= OffsetLedger.KEPT_VERSIONS / 2; i++) {
            Ledgers.advanceNow(later, Map.of(0, 71L + i));
        }
        expected.put(0, 71L + OffsetLedger.KEPT_VERSIONS / 2);
        assertThat(OffsetLedger.open(local, layout, "t", Time.SYSTEM).read().nextOffsets()).as(what).isEqualTo(expected);
        java.nio.file.Path meta = java.nio.file.Path.of(layout.metaDir().toUri());
        try (Stream<java.nio.file.Path> left = Files.walk(meta)) {
            assertThat(left.filter(Files::isRegularFile).map(p -> p.getFileName().toString()))
                .as(what).noneMatch(n -> n.endsWith(".tmp") || n.equals("t.ledger"));
        }
    }

    @Test
    void aTornUpdateFileCannotBePublished() throws IOException {
        // The create crashes after the file exists but before anything is written: it stays a hidden temp.
        DatasetLayout layout = DatasetLayout.utc(new Path(dir.resolve("torn").toUri()));
        CrashingFileSystem crashing = new CrashingFileSystem(local, 1);
        assertThatThrownBy(() -> Ledgers.advanceNow(OffsetLedger.open(crashing, layout, "t", Time.SYSTEM), Map.of(0, 5L)))
            .hasMessageContaining("crash at change 1: create");
        assertThat(OffsetLedger.open(local, layout, "t", Time.SYSTEM).read()).isEqualTo(LedgerState.empty("t"));
    }

    private static FileSystem localFs() {
        try {
            return FileSystem.getLocal(new Configuration());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}

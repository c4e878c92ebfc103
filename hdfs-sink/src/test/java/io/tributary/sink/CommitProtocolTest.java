package io.tributary.sink;

import io.tributary.hadoop.dataset.CommitIntent;
import io.tributary.hadoop.dataset.CommitPoint;
import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.LedgerCommit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The storage half of a commit, and finishing one that a crash interrupted, on the local filesystem. */
class CommitProtocolTest {
    private static final TopicPartition TP = new TopicPartition("t", 3);
    private static final long HOUR_8 = 1_795_939_200_000L + 8 * 3_600_000L;

    @TempDir
    java.nio.file.Path dir;

    private final Configuration conf = new Configuration();
    private FileSystem fs;
    private DatasetLayout layout;
    private CommitProtocol protocol;

    @BeforeEach
    void open() throws IOException {
        fs = FileSystem.getLocal(conf);
        layout = DatasetLayout.utc(new Path(dir.toUri()));
        protocol = new CommitProtocol(fs, layout, conf);
    }

    private CommitIntent.Rename tempFile(long first, long last, long timestamp) throws IOException {
        Path temp = layout.newTempFile(TP.topic(), TP.partition());
        try (var out = fs.create(temp)) {
            out.write(("rows " + first + ".." + last).getBytes(StandardCharsets.UTF_8));
        }
        return new CommitIntent.Rename(temp, layout.dataFile(timestamp, io.tributary.hadoop.dataset.DataFileName.of(
            TP.topic(), TP.partition(), first, last)));
    }

    private static CommitIntent planned(long next, OptionalLong read, CommitIntent.Rename... renames) {
        return new CommitIntent(next, "", 0, read, List.of(renames));
    }

    @Test
    void publishRenamesEveryFileAdvancesTheLedgerAndDropsTheIntent() throws IOException {
        CommitIntent intent = planned(200, OptionalLong.empty(), tempFile(100, 199, HOUR_8), tempFile(150, 180, HOUR_8 - 3_600_000L));
        assertThat(protocol.publish(Map.of(TP, intent)).committed()).containsOnlyKeys(TP);
        for (CommitIntent.Rename r : intent.renames()) {
            assertThat(fs.exists(r.target())).isTrue();
            assertThat(fs.exists(r.temp())).isFalse();
        }
        assertThat(protocol.ledger("t").read().nextOffsets()).isEqualTo(Map.of(3, 200L));
        assertThat(fs.listStatus(layout.tempDir("t", 3))).extracting(s -> s.getPath().getName())
            .doesNotContain(CommitIntent.FILE_NAME);
    }

    @Test
    void aPartitionAnotherWriterAdvancedLosesAndNoneOfItsFilesBecomesVisible() throws IOException {
        CommitIntent.Rename file = tempFile(100, 199, HOUR_8);
        anotherWriterAdvances(Map.of(3, 150L)); // e.g. a loader, since the sink read the ledger at 100

        CommitProtocol.Outcome outcome = protocol.publish(Map.of(TP, planned(200, OptionalLong.of(100), file)));

        assertThat(outcome.committed()).isEmpty();
        assertThat(outcome.lost()).containsOnlyKeys(TP);
        assertThat(outcome.lost().get(TP)).hasToString("100 -> 150");
        assertThat(fs.exists(file.target())).isFalse();
        assertThat(fs.exists(layout.tempDir("t", 3))).as("its temp files and intent").isFalse();
        assertThat(protocol.ledger("t").read().nextOffsets()).isEqualTo(Map.of(3, 150L));
    }

    @Test
    void finishesACommitCutShortAfterTheFirstRename() throws IOException {
        CommitIntent.Rename renamed = tempFile(100, 199, HOUR_8);
        CommitIntent.Rename pending = tempFile(150, 180, HOUR_8 - 3_600_000L);
        CommitIntent intent = new CommitIntent(200, "crashed-commit", 0, OptionalLong.empty(), List.of(renamed, pending));
        // The crash: intent written, ledger advanced by that commit, one file renamed.
        try (var out = fs.create(new Path(layout.tempDir("t", 3), CommitIntent.FILE_NAME))) {
            out.write(intent.encode().getBytes(StandardCharsets.UTF_8));
        }
        protocol.ledger("t").advance(Map.of(), Map.of(3, 200L), new LedgerCommit("crashed-commit", List.of(new Path(layout.tempDir("t", 3), CommitIntent.FILE_NAME))));
        fs.mkdirs(renamed.target().getParent());
        fs.rename(renamed.temp(), renamed.target());
        Path strayTemp = layout.newTempFile("t", 3);
        fs.create(strayTemp).close();

        assertThat(protocol.finishInterrupted(TP)).contains(intent);

        assertThat(fs.exists(renamed.target())).isTrue();
        assertThat(fs.exists(pending.target())).isTrue();
        assertThat(protocol.ledger("t").read().nextOffsets()).isEqualTo(Map.of(3, 200L));
        assertThat(fs.exists(layout.tempDir("t", 3))).as("temp files of the earlier writer").isFalse();
        assertThat(protocol.finishInterrupted(TP)).as("nothing left to finish").isEmpty();
    }

    @Test
    void aCommitCutShortBeforeItsLedgerAdvanceIsDropped() throws IOException {
        CommitIntent.Rename file = tempFile(0, 9, HOUR_8);
        try (var out = fs.create(new Path(layout.tempDir("t", 3), CommitIntent.FILE_NAME))) {
            out.write(new CommitIntent(10, "crashed-commit", 0, OptionalLong.empty(), List.of(file)).encode()
                .getBytes(StandardCharsets.UTF_8));
        }
        assertThat(protocol.finishInterrupted(TP)).isEmpty();
        assertThat(fs.exists(file.target())).isFalse();
        assertThat(fs.exists(layout.tempDir("t", 3))).isFalse();
        assertThat(protocol.ledger("t").read().nextOffsets()).isEmpty();
    }

    @Test
    void anIncompleteIntentMeansNothingWasRenamed() throws IOException {
        CommitIntent.Rename file = tempFile(0, 9, HOUR_8);
        String text = planned(10, OptionalLong.empty(), file).encode();
        try (var out = fs.create(new Path(layout.tempDir("t", 3), CommitIntent.FILE_NAME))) {
            out.write(text.substring(0, text.length() - 4).getBytes(StandardCharsets.UTF_8));
        }
        assertThat(protocol.finishInterrupted(TP)).isEmpty();
        assertThat(fs.exists(file.target())).isFalse();
        assertThat(protocol.ledger("t").read().nextOffsets()).isEmpty();
    }

    @Test
    void aLedgerAlreadyPastTheIntentStaysWhereItIs() throws IOException {
        anotherWriterAdvances(Map.of(3, 500L));
        try (var out = fs.create(new Path(layout.tempDir("t", 3), CommitIntent.FILE_NAME))) {
            out.write(new CommitIntent(200, "crashed-commit", 0, OptionalLong.empty(), List.of()).encode()
                .getBytes(StandardCharsets.UTF_8));
        }
        protocol.finishInterrupted(TP);
        assertThat(protocol.ledger("t").read().nextOffsets()).isEqualTo(Map.of(3, 500L));
    }

    /**
     * Two sink processes of one group own different partitions of one topic and publish at the same
     * moment, round after round: the shared ledger keeps both partitions' entries every time.
     */
    @Test
    void twoSinksCommittingDifferentPartitionsAtOnceKeepEachOthersLedgerEntries() throws Exception {
        TopicPartition mine = new TopicPartition("t", 0);
        TopicPartition theirs = new TopicPartition("t", 1);
        FileSystem otherFs = FileSystem.newInstance(dir.toUri(), conf);
        CommitProtocol other = new CommitProtocol(otherFs, layout, conf);
        int rounds = 40;
        CyclicBarrier together = new CyclicBarrier(2);
        ExecutorService secondSink = Executors.newSingleThreadExecutor();
        try {
            Future<?> theirCommits = secondSink.submit(() -> {
                for (int round = 1; round <= rounds; round++) {
                    together.await(10, TimeUnit.SECONDS);
                    other.publish(Map.of(theirs, planned(round * 10L, previous(round, 10))));
                    together.await(10, TimeUnit.SECONDS);
                }
                return null;
            });
            for (int round = 1; round <= rounds; round++) {
                together.await(10, TimeUnit.SECONDS);
                protocol.publish(Map.of(mine, planned(round * 100L, previous(round, 100))));
                together.await(10, TimeUnit.SECONDS);
                assertThat(protocol.ledger("t").read().nextOffsets()).as("ledger after round %d", round)
                    .isEqualTo(Map.of(0, round * 100L, 1, round * 10L));
            }
            theirCommits.get(10, TimeUnit.SECONDS);
        } finally {
            secondSink.shutdownNow();
            otherFs.close();
        }
    }

    @Test
    void aCommitKilledAfterItsIntentAndOvertakenByManyCommitsOfAnotherWriterIsDropped() throws IOException {
        CommitIntent.Rename stale = tempFile(0, 99, HOUR_8);
        killAt(CommitPoint.AFTER_INTENT, Map.of(TP, planned(100, OptionalLong.empty(), stale)));
        overtake(0); // a loader lands offsets 0.. of the partition, then keeps going

        assertThat(new CommitProtocol(fs, layout, conf).finishInterrupted(TP)).isEmpty();
        assertThat(fs.exists(stale.target())).as("a stale file published: its offsets would be there twice").isFalse();
        assertThat(fs.exists(layout.tempDir("t", 3))).isFalse();
    }

    @Test
    void aCommitKilledAfterItsLedgerAdvanceAndOvertakenByManyCommitsOfAnotherWriterIsFinished() throws IOException {
        CommitIntent.Rename counted = tempFile(0, 99, HOUR_8);
        killAt(CommitPoint.AFTER_LEDGER, Map.of(TP, planned(100, OptionalLong.empty(), counted)));
        overtake(100);

        assertThat(new CommitProtocol(fs, layout, conf).finishInterrupted(TP)).isPresent();
        assertThat(fs.exists(counted.target())).as("the only copy of offsets the ledger counts").isTrue();
        assertThat(fs.listStatus(layout.ledgerDir("t"))).extracting(st -> st.getPath().getName())
            .as("released once its intent is gone").noneMatch(n -> n.endsWith(".pin") || n.endsWith(".receipt"));
    }

    // The commit stops at point as a killed process would: what it wrote stays, nothing after it happens.
    private void killAt(CommitPoint point, Map<TopicPartition, CommitIntent> planned) {
        CommitPoint.listen((writer, reached) -> {
            if (reached == point) {
                throw new IllegalStateException("killed at " + point.spelling());
            }
        });
        try {
            assertThatThrownBy(() -> protocol.publish(planned)).hasMessage("killed at " + point.spelling());
        } finally {
            CommitPoint.listen(null);
        }
    }

    // Sixty commits of partition 3 by another writer from offset from: three times the versions the ledger keeps.
    private void overtake(long from) throws IOException {
        for (long next = from + 10; next <= from + 600; next += 10) {
            anotherWriterAdvances(Map.of(3, next));
        }
    }

    private void anotherWriterAdvances(Map<Integer, Long> next) throws IOException {
        var ledger = protocol.ledger("t");
        ledger.advance(ledger.readVersion().entriesOf(next.keySet()), next, new LedgerCommit("another-writer", List.of()));
    }

    // What the ledger of a partition that moves by step each round held before round.
    private static OptionalLong previous(int round, long step) {
        return round == 1 ? OptionalLong.empty() : OptionalLong.of((round - 1) * step);
    }
}

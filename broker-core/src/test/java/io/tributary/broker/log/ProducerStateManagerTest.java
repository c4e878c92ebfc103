package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.DuplicateSequenceException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProducerStateManagerTest {

    private static final long PID = 42;

    @TempDir
    Path root;

    private static MemoryRecords idempotent(short epoch, int baseSequence, int count) {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            records[i] = new SimpleRecord(1000L + i, null, ("v" + i).getBytes());
        }
        return MemoryRecords.withIdempotentRecords(Compression.NONE, PID, epoch, baseSequence, records);
    }

    private static RecordBatch batchOf(MemoryRecords records) {
        return records.batches().iterator().next();
    }

    /** Checks, appends and records a batch as the produce path does. */
    private static void append(PartitionLog log, ProducerStateManager state, MemoryRecords records) {
        RecordBatch batch = batchOf(records);
        state.checkSequence(batch);
        LogAppendInfo info = log.appendAsLeader(records, 0);
        state.update(batch, info.firstOffset(), info.lastOffset());
    }

    @Test
    void acceptsConsecutiveSequencesAndRecognisesRetriesOfRecentBatches() throws Exception {
        PartitionLog log = new LogFixture(root, Map.of()).open();
        ProducerStateManager state = new ProducerStateManager();
        append(log, state, idempotent((short) 0, 0, 3));
        append(log, state, idempotent((short) 0, 3, 2));
        assertThat(state.duplicateOf(batchOf(idempotent((short) 0, 0, 3))))
                .hasValueSatisfying(b -> assertThat(b.firstOffset()).isZero());
        assertThat(state.duplicateOf(batchOf(idempotent((short) 0, 3, 2))))
                .hasValueSatisfying(b -> assertThat(b.lastOffset()).isEqualTo(4));
        assertThat(state.duplicateOf(batchOf(idempotent((short) 0, 5, 1)))).isEmpty();
        assertThat(state.producerCount()).isEqualTo(1);
    }

    @ParameterizedTest(name = "epoch {0} sequence {1} -> {2}")
    @CsvSource({"0, 6, OutOfOrderSequenceException", "0, 2, DuplicateSequenceException",
            "1, 3, OutOfOrderSequenceException", "-1, 5, InvalidProducerEpochException"})
    void rejectsBatchesThatDoNotContinueTheSequence(short epochDelta, int sequence, String error) {
        ProducerStateManager state = new ProducerStateManager();
        short epoch = 5;
        state.update(batchOf(idempotent(epoch, 0, 5)), 0, 4);
        Class<? extends Exception> expected = switch (error) {
            case "OutOfOrderSequenceException" -> OutOfOrderSequenceException.class;
            case "DuplicateSequenceException" -> DuplicateSequenceException.class;
            default -> InvalidProducerEpochException.class;
        };
        assertThatThrownBy(() -> state.checkSequence(batchOf(idempotent((short) (epoch + epochDelta), sequence, 1))))
                .isInstanceOf(expected);
    }

    @Test
    void aNewEpochStartsAtZeroAndSequencesWrapAround() {
        ProducerStateManager state = new ProducerStateManager();
        state.update(batchOf(idempotent((short) 0, Integer.MAX_VALUE - 1, 2)), 0, 1);
        state.checkSequence(batchOf(idempotent((short) 0, 0, 1)));
        state.checkSequence(batchOf(idempotent((short) 1, 0, 1)));
    }

    @Test
    void anUnknownProducerMayStartAnywhere() {
        new ProducerStateManager().checkSequence(batchOf(idempotent((short) 3, 17, 1)));
    }

    @Test
    void stateSurvivesARestartThroughTheSnapshotAndTheLogAfterIt() throws Exception {
        LogFixture fixture = new LogFixture(root, Map.of());
        PartitionLog log = fixture.open();
        ProducerStateManager state = new ProducerStateManager();
        append(log, state, idempotent((short) 0, 0, 3));
        state.writeSnapshot(log.dir(), log.logEndOffset());
        append(log, state, idempotent((short) 0, 3, 2)); // only in the log, after the snapshot
        log.close();

        ProducerStateManager loaded = ProducerStateManager.load(fixture.open());
        assertThat(loaded.duplicateOf(batchOf(idempotent((short) 0, 0, 3)))).isPresent();
        assertThat(loaded.duplicateOf(batchOf(idempotent((short) 0, 3, 2)))).isPresent();
        loaded.checkSequence(batchOf(idempotent((short) 0, 5, 1)));
        assertThatThrownBy(() -> loaded.checkSequence(batchOf(idempotent((short) 0, 7, 1))))
                .isInstanceOf(OutOfOrderSequenceException.class);
    }

    @Test
    void aCorruptSnapshotOrOneBeyondTheLogEndIsIgnoredAndTheLogReplayed() throws Exception {
        LogFixture fixture = new LogFixture(root, Map.of());
        PartitionLog log = fixture.open();
        ProducerStateManager state = new ProducerStateManager();
        append(log, state, idempotent((short) 0, 0, 3));
        new ProducerStateManager().writeSnapshot(log.dir(), 100); // beyond the log end (truncated after a crash)
        state.writeSnapshot(log.dir(), 3);
        Path snapshot = log.dir().resolve(SegmentFiles.baseName(3) + ".snapshot");
        byte[] bytes = Files.readAllBytes(snapshot);
        bytes[9] ^= 1;
        Files.write(snapshot, bytes);
        assertThat(log.dir().resolve(SegmentFiles.baseName(100) + ".snapshot")).exists();
        ProducerStateManager loaded = ProducerStateManager.load(log);
        assertThat(loaded.duplicateOf(batchOf(idempotent((short) 0, 0, 3)))).isPresent();
        loaded.checkSequence(batchOf(idempotent((short) 0, 3, 1)));
    }
}

package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.TransactionCoordinatorFencedException;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.storage.internals.log.ProducerStateEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProducerStateManagerTest {
    private static final long PRODUCER = 1000;

    private final ProducerStateManager state = new ProducerStateManager();

    /** A batch of {@code count} records starting at {@code sequence}. */
    private static RecordBatch batch(long producerId, int epoch, int sequence, int count) {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            records[i] = new SimpleRecord(new byte[] {(byte) i});
        }
        return MemoryRecords.withIdempotentRecords(Compression.NONE, producerId, (short) epoch, sequence, records)
                .batches().iterator().next();
    }

    private void append(RecordBatch batch, long firstOffset) {
        state.checkSequence(batch);
        state.update(batch, firstOffset, firstOffset + batch.lastSequence() - batch.baseSequence(), 0L);
    }

    @Test
    void acceptsConsecutiveSequencesAndAnyStartForAnUnknownProducer() {
        append(batch(PRODUCER, 0, 17, 3), 0);
        append(batch(PRODUCER, 0, 20, 5), 3);
        append(batch(PRODUCER, 0, 25, 1), 8);
        assertThat(state.producerCount()).isEqualTo(1);
    }

    @Test
    void rejectsGapsAndStaleEpochs() {
        append(batch(PRODUCER, 2, 0, 5), 0);
        assertThatThrownBy(() -> state.checkSequence(batch(PRODUCER, 2, 6, 1))).isInstanceOf(OutOfOrderSequenceException.class);
        assertThatThrownBy(() -> state.checkSequence(batch(PRODUCER, 1, 5, 1))).isInstanceOf(InvalidProducerEpochException.class);
        assertThatThrownBy(() -> state.checkSequence(batch(PRODUCER, 3, 5, 1))).isInstanceOf(OutOfOrderSequenceException.class);
        state.checkSequence(batch(PRODUCER, 3, 0, 1)); // a new epoch starts at 0
    }

    @Test
    void recognisesRetriesOfTheLastFiveBatchesAndRefusesOlderOnes() {
        for (int i = 0; i < 6; i++) {
            append(batch(PRODUCER, 0, i * 2, 2), i * 2L);
        }
        assertThat(state.duplicateOf(batch(PRODUCER, 0, 0, 2))).isEmpty(); // evicted: only five are kept
        assertThat(state.duplicateOf(batch(PRODUCER, 0, 2, 2))).hasValueSatisfying(b -> assertThat(b.firstOffset()).isEqualTo(2));
        assertThat(state.duplicateOf(batch(PRODUCER, 0, 10, 2))).hasValueSatisfying(b -> assertThat(b.lastOffset()).isEqualTo(11));
        assertThatThrownBy(() -> state.checkSequence(batch(PRODUCER, 0, 0, 2)))
                .as("no longer provably a duplicate: refused as an error, as Apache Kafka does")
                .isInstanceOf(OutOfOrderSequenceException.class);
        assertThat(state.duplicateOf(batch(PRODUCER + 1, 0, 2, 2))).isEmpty();
    }

    @Test
    void anEarlierSequenceThatWasNeverAppendedIsNotTakenForADuplicate() {
        // The producer's first batch (0-32) failed retriably, its second (33-65) was appended first, as an unknown
        // producer may start anywhere. The retry of 0-32 must fail: DUPLICATE_SEQUENCE_NUMBER would make the client
        // count 33 records as written that no replica has.
        append(batch(PRODUCER, 0, 33, 33), 0);
        assertThat(state.duplicateOf(batch(PRODUCER, 0, 0, 33))).isEmpty();
        assertThatThrownBy(() -> state.checkSequence(batch(PRODUCER, 0, 0, 33))).isInstanceOf(OutOfOrderSequenceException.class);
    }

    @Test
    void sequencesWrapAroundAfterIntegerMax() {
        append(batch(PRODUCER, 0, Integer.MAX_VALUE, 1), 0);
        state.checkSequence(batch(PRODUCER, 0, 0, 1));
    }

    @Test
    void rebuildsFromTheNewestSnapshotPlusTheLogAfterIt(@TempDir Path dir) throws Exception {
        TopicPartition partition = new TopicPartition("idempotent", 0);
        try (LogManager logs = LogManager.open(List.of(dir), LogConfig.defaults(), Time.SYSTEM)) {
            PartitionLog log = logs.getOrCreate(partition, LogConfig.defaults());
            ProducerStateManager live = new ProducerStateManager();
            appendToLog(log, live, batch(PRODUCER, 0, 0, 3));
            appendToLog(log, live, batch(PRODUCER + 1, 4, 10, 2));
            live.writeSnapshot(log, log.logEndOffset());
            appendToLog(log, live, batch(PRODUCER, 0, 3, 4)); // only in the log, after the snapshot

            ProducerStateManager loaded = ProducerStateManager.load(log, 0L);
            assertThat(loaded.producerCount()).isEqualTo(2);
            assertThat(loaded.duplicateOf(batch(PRODUCER, 0, 3, 4))).hasValueSatisfying(b -> assertThat(b.firstOffset()).isEqualTo(5));
            assertThat(loaded.duplicateOf(batch(PRODUCER + 1, 4, 10, 2))).isPresent();
            loaded.checkSequence(batch(PRODUCER, 0, 7, 1));
            assertThatThrownBy(() -> loaded.checkSequence(batch(PRODUCER + 1, 4, 13, 1))).isInstanceOf(OutOfOrderSequenceException.class);
        }
    }

    @Test
    void ignoresACorruptSnapshotAndReplaysTheWholeLog(@TempDir Path dir) throws Exception {
        try (LogManager logs = LogManager.open(List.of(dir), LogConfig.defaults(), Time.SYSTEM)) {
            PartitionLog log = logs.getOrCreate(new TopicPartition("corrupt-snapshot", 0), LogConfig.defaults());
            ProducerStateManager live = new ProducerStateManager();
            appendToLog(log, live, batch(PRODUCER, 0, 0, 3));
            live.writeSnapshot(log, log.logEndOffset());
            try (Stream<Path> files = Files.list(log.dir())) {
                Path snapshot = files.filter(f -> f.toString().endsWith(ProducerStateManager.SNAPSHOT_SUFFIX)).findFirst().orElseThrow();
                byte[] bytes = Files.readAllBytes(snapshot);
                bytes[9] ^= 0x40;
                Files.write(snapshot, bytes);
            }
            assertThat(ProducerStateManager.load(log, 0L).duplicateOf(batch(PRODUCER, 0, 0, 3))).isPresent();
        }
    }

    @Test
    void aRestartAfterAnUncleanStopReplaysOnlyFromTheSnapshotOfTheLastRoll(@TempDir Path root) throws Exception {
        LogFixture fixture = segmentsOfBatches(root, 3);
        PartitionLog log = fixture.open();
        ProducerStateManager live = ProducerStateManager.load(log, 0L);
        for (int i = 0; i < 10; i++) { // 20 offsets, segments of 3 batches: rolls at 6, 12, 18
            appendToLog(log, live, batch(PRODUCER + i % 2, 0, i / 2 * 2, 2));
            fixture.scheduler.runDue();
        }
        assertThat(snapshotOffsets(log.dir())).as("the newest snapshots, named by the rolled segments' base offsets")
                .containsExactly(6L, 12L, 18L);

        PartitionLog recovered = fixture.recover(fixture.snapshotAsCrashed("crashed"), 0);
        ProducerStateManager loaded = ProducerStateManager.load(recovered, 0L);
        assertThat(loaded.replayedFrom()).as("replays the active segment only").isEqualTo(18);
        assertThat(loaded.producerCount()).isEqualTo(2);
        assertThat(loaded.duplicateOf(batch(PRODUCER + 1, 0, 8, 2)))
                .hasValueSatisfying(b -> assertThat(b.firstOffset()).isEqualTo(18));
        assertThat(loaded.duplicateOf(batch(PRODUCER, 0, 6, 2)))
                .hasValueSatisfying(b -> assertThat(b.firstOffset()).isEqualTo(12));
        loaded.checkSequence(batch(PRODUCER, 0, 10, 1));
        assertThatThrownBy(() -> loaded.checkSequence(batch(PRODUCER + 1, 0, 11, 1)))
                .isInstanceOf(OutOfOrderSequenceException.class);
    }

    @Test
    void theRollSnapshotLeavesOutBatchesAtOrAfterTheNewBaseOffset(@TempDir Path root) throws Exception {
        LogFixture fixture = segmentsOfBatches(root, 2);
        PartitionLog log = fixture.open();
        ProducerStateManager live = ProducerStateManager.load(log, 0L);
        for (int i = 0; i < 4; i++) { // the snapshot task runs only after the batches after the roll at 4
            appendToLog(log, live, batch(PRODUCER, 0, i * 2, 2));
        }
        fixture.scheduler.runDue();
        assertThat(snapshotOffsets(log.dir())).containsExactly(4L);
        log.close();
        ProducerStateManager loaded = ProducerStateManager.load(fixture.open(), 0L);
        assertThat(loaded.replayedFrom()).isEqualTo(4);
        for (int sequence = 0; sequence < 8; sequence += 2) {
            long offset = sequence;
            assertThat(loaded.duplicateOf(batch(PRODUCER, 0, sequence, 2))).as("sequence %d, at its offsets", sequence)
                    .hasValueSatisfying(b -> assertThat(b.firstOffset()).isEqualTo(offset));
        }
    }

    @Test
    void snapshotsBeyondTheLogEndAreDeletedAtLoadAndATruncatedLogStopsSnapshotting(@TempDir Path root)
            throws Exception {
        LogFixture fixture = segmentsOfBatches(root, 1);
        PartitionLog log = fixture.open();
        ProducerStateManager live = ProducerStateManager.load(log, 0L);
        for (int i = 0; i < 3; i++) {
            appendToLog(log, live, batch(PRODUCER, 0, i * 2, 2));
        }
        log.truncateTo(3);
        fixture.scheduler.runDue();
        assertThat(snapshotOffsets(log.dir())).as("the truncation cancelled the pending snapshots").isEmpty();
        live.writeSnapshot(log, 6); // as if written before the truncation
        ProducerStateManager loaded = ProducerStateManager.load(log, 0L);
        assertThat(snapshotOffsets(log.dir())).isEmpty();
        assertThat(loaded.replayedFrom()).isZero();
        assertThat(loaded.duplicateOf(batch(PRODUCER, 0, 2, 2))).as("offsets 2-3 were truncated").isEmpty();
    }

    @Test
    void aSnapshotBelowALogStartMovedByDeleteRecordsIsNotUsed(@TempDir Path root) throws Exception {
        LogFixture fixture = segmentsOfBatches(root, 2);
        PartitionLog log = fixture.open();
        ProducerStateManager live = ProducerStateManager.load(log, 0L);
        for (int i = 0; i < 6; i++) { // offsets 0-11, rolls at 4 and 8
            appendToLog(log, live, batch(PRODUCER, 0, i * 2, 2));
            fixture.scheduler.runDue();
        }
        assertThat(snapshotOffsets(log.dir())).containsExactly(4L, 8L);
        log.advanceLogStartOffset(12); // DeleteRecords up to the high watermark
        ProducerStateManager loaded = ProducerStateManager.load(log, 0L);
        assertThat(loaded.replayedFrom()).isEqualTo(12);
        assertThat(loaded.producerCount()).as("no state from before the batches that are gone").isZero();
        loaded.checkSequence(batch(PRODUCER, 0, 12, 2)); // the producer goes on where it was
    }

    /** A log whose segments take {@code batches} two-record idempotent batches. */
    private static LogFixture segmentsOfBatches(Path root, int batches) {
        int batchBytes = idempotentRecords(batch(PRODUCER, 0, 0, 2)).sizeInBytes();
        return new LogFixture(root, Map.of(LogConfig.SEGMENT_BYTES, String.valueOf(batches * batchBytes)));
    }

    private static List<Long> snapshotOffsets(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(name -> name.endsWith(ProducerStateManager.SNAPSHOT_SUFFIX))
                    .map(name -> Long.parseLong(name.substring(0, name.indexOf('.'))))
                    .sorted()
                    .toList();
        }
    }

    private static void appendToLog(PartitionLog log, ProducerStateManager state, RecordBatch batch) {
        state.checkSequence(batch);
        LogAppendInfo info = log.appendAsLeader(idempotentRecords(batch), 0);
        state.update(batch, info.firstOffset(), info.lastOffset(), 0L);
    }

    private static MemoryRecords idempotentRecords(RecordBatch batch) {
        return MemoryRecords.withIdempotentRecords(Compression.NONE, batch.producerId(), batch.producerEpoch(),
                batch.baseSequence(), recordsOf(batch));
    }

    private static SimpleRecord[] recordsOf(RecordBatch batch) {
        SimpleRecord[] records = new SimpleRecord[batch.lastSequence() - batch.baseSequence() + 1];
        for (int i = 0; i < records.length; i++) {
            records[i] = new SimpleRecord(new byte[] {(byte) i});
        }
        return records;
    }

    @Test
    void producersIdleForTheExpirationTimeAreForgottenAndTheirWriteTimesSurviveASnapshot(@TempDir Path dir) throws Exception {
        state.update(batch(1, 0, 0, 1), 0, 0, 1_000);
        state.update(batch(2, 0, 0, 1), 1, 1, 1_000);
        state.update(batch(2, 0, 1, 1), 2, 2, 5_000);
        state.writeSnapshot(dir, 3, offset -> false);
        assertThat(state.removeExpired(10_999, 10_000)).isZero();
        assertThat(state.removeExpired(11_000, 10_000)).isEqualTo(1);
        assertThat(state.producerCount()).isEqualTo(1);
        state.checkSequence(batch(1, 0, 99, 1)); // forgotten: any sequence is accepted again

        LogFixture fixture = new LogFixture(dir.resolve("log"), Map.of());
        Files.createDirectories(fixture.partitionDir());
        Files.copy(dir.resolve(String.format("%020d", 3) + ProducerStateManager.SNAPSHOT_SUFFIX),
                fixture.partitionDir().resolve(String.format("%020d", 0) + ProducerStateManager.SNAPSHOT_SUFFIX));
        PartitionLog log = fixture.open();
        try {
            ProducerStateManager loaded = ProducerStateManager.load(log, 1_000_000);
            assertThat(loaded.producerCount()).isEqualTo(2);
            assertThat(loaded.removeExpired(14_999, 10_000)).isEqualTo(1);
            assertThat(loaded.removeExpired(15_000, 10_000)).isEqualTo(1);
        } finally {
            log.close();
        }
    }

    @Test
    void kafkasFormatKeepsEachProducersLastBatchEpochsAndOpenTransactionForKafkasReaderAndOurLoad(@TempDir Path dir)
            throws Exception {
        state.update(batch(1, 2, 0, 3), 0, 2, 1_000);
        state.update(batch(1, 2, 3, 2), 3, 4, 2_000);
        state.update(transactional(7, 0), 5, 5, 3_000); // still open
        state.update(transactional(8, 0), 6, 6, 3_000);
        state.update(MemoryRecords.withEndTransactionMarker(8, (short) 0, new EndTransactionMarker(ControlRecordType.COMMIT, 9))
                .batches().iterator().next(), 7, 7, 4_000);
        state.writeSnapshot(dir, 8, offset -> false);
        Path kafka = Files.createDirectories(dir.resolve("kafka")).resolve(String.format("%020d", 8) + ProducerStateManager.SNAPSHOT_SUFFIX);
        Files.write(kafka, ProducerStateManager.kafkaFormatOf(ProducerStateManager.snapshotFile(dir, 8), 0));

        Map<Long, ProducerStateEntry> read = new java.util.HashMap<>();
        org.apache.kafka.storage.internals.log.ProducerStateManager.readSnapshot(kafka.toFile())
                .forEach(entry -> read.put(entry.producerId(), entry));
        assertThat(read).containsOnlyKeys(1L, 7L, 8L);
        ProducerStateEntry idempotent = read.get(1L);
        assertThat(idempotent.producerEpoch()).isEqualTo((short) 2);
        assertThat(idempotent.batchMetadata()).singleElement().satisfies(last -> assertThat(List.of(last.firstSeq(),
                last.lastSeq(), last.firstOffset(), last.lastOffset())).containsExactly(3, 4, 3L, 4L));
        assertThat(idempotent.lastTimestamp()).isEqualTo(2_000L);
        assertThat(idempotent.currentTxnFirstOffset()).isEmpty();
        assertThat(read.get(7L).currentTxnFirstOffset()).hasValue(5);
        assertThat(read.get(8L).coordinatorEpoch()).isEqualTo(9);
        assertThat(read.get(8L).currentTxnFirstOffset()).isEmpty();

        LogFixture fixture = new LogFixture(dir.resolve("log"), Map.of());
        Files.createDirectories(fixture.partitionDir());
        Files.copy(kafka, fixture.partitionDir().resolve(String.format("%020d", 0) + ProducerStateManager.SNAPSHOT_SUFFIX));
        PartitionLog log = fixture.open();
        try {
            ProducerStateManager loaded = ProducerStateManager.load(log, 0);
            assertThat(loaded.duplicateOf(batch(1, 2, 3, 2))).hasValueSatisfying(b -> assertThat(b.firstOffset()).isEqualTo(3));
            loaded.checkSequence(batch(1, 2, 5, 1));
            assertThatThrownBy(() -> loaded.checkSequence(batch(1, 2, 7, 1))).isInstanceOf(OutOfOrderSequenceException.class);
            assertThat(loaded.openTransactions()).containsExactly(Map.entry(7L, 5L));
            assertThatThrownBy(() -> loaded.checkEpoch(MemoryRecords.withEndTransactionMarker(8, (short) 0,
                    new EndTransactionMarker(ControlRecordType.ABORT, 8)).batches().iterator().next()))
                    .isInstanceOf(TransactionCoordinatorFencedException.class);
        } finally {
            log.close();
        }
    }

    private static RecordBatch transactional(long producerId, int sequence) {
        return MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, (short) 0, sequence,
                new SimpleRecord(new byte[] {1})).batches().iterator().next();
    }
}

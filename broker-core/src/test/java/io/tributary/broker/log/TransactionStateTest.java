package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.tools.DumpLogSegments;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactions in the log: open transactions hold the first unstable offset, markers close them, aborted ones go to
 * the {@code .txnindex} in Kafka's format (Kafka's DumpLogSegments reads it), and a restart — clean from a producer
 * snapshot, or after a crash that lost the index and the snapshots — rebuilds both.
 */
@Timeout(60)
class TransactionStateTest {
    private static final long PRODUCER_A = 1000;
    private static final long PRODUCER_B = 2000;

    @TempDir
    Path root;
    private LogFixture fixture;
    private PartitionLog log;
    private IdempotentAppender appender;

    @BeforeEach
    void open() throws Exception {
        fixture = new LogFixture(root, Map.of());
        log = fixture.open();
        appender = new IdempotentAppender(fixture.time, 24L * 3600 * 1000);
        Exit.setExitProcedure((code, message) -> {
            throw new AssertionError("DumpLogSegments exited with " + code + ": " + message);
        });
    }

    @AfterEach
    void close() {
        Exit.resetExitProcedure();
        log.close();
    }

    private void transactional(long producerId, int sequence, String... values) {
        SimpleRecord[] records = new SimpleRecord[values.length];
        for (int i = 0; i < values.length; i++) {
            records[i] = new SimpleRecord(values[i].getBytes());
        }
        appender.append(log, MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, (short) 0, sequence, records), 0);
    }

    private void marker(long producerId, ControlRecordType type) {
        appender.append(log, MemoryRecords.withEndTransactionMarker(0L, producerId, (short) 0,
                new EndTransactionMarker(type, 5)), 0, AppendOrigin.COORDINATOR);
    }

    /** A at 0-1, B at 2, A at 3, B aborted at 4, A still open; then A commits at 5. */
    private void twoTransactionsOneAborted() {
        transactional(PRODUCER_A, 0, "a0", "a1");
        transactional(PRODUCER_B, 0, "b0");
        transactional(PRODUCER_A, 2, "a2");
        assertThat(appender.firstUnstableOffset(log)).isZero();
        marker(PRODUCER_B, ControlRecordType.ABORT);
    }

    @Test
    void markersCloseTransactionsAndAbortsAreIndexedAsKafkaDoes() throws Exception {
        twoTransactionsOneAborted();
        assertThat(appender.firstUnstableOffset(log)).isZero(); // A is still open
        assertThat(log.abortedTxns(0, 5)).containsExactly(new AbortedTxn(PRODUCER_B, 2, 4, 0));
        marker(PRODUCER_A, ControlRecordType.COMMIT);
        assertThat(appender.firstUnstableOffset(log)).isEqualTo(-1);
        assertThat(log.abortedTxns(5, 6)).isEmpty(); // ends before the fetch offset
        assertThat(log.abortedTxns(0, 2)).isEmpty(); // starts at or after the upper bound

        Path index = fixture.partitionDir().resolve("00000000000000000000.txnindex");
        assertThat(Files.size(index)).isEqualTo(AbortedTxn.SIZE);
        log.flush();
        assertThat(dump(index)).contains("version: 0 producerId: 2000 firstOffset: 2 lastOffset: 4 lastStableOffset: 0");
        assertThat(dump(fixture.partitionDir().resolve("00000000000000000000.log")))
                .contains("endTxnMarker: ABORT coordinatorEpoch: 5", "endTxnMarker: COMMIT coordinatorEpoch: 5");
    }

    @Test
    void aCleanRestartRestoresTheOpenTransactionFromTheSnapshot() throws Exception {
        twoTransactionsOneAborted();
        appender.snapshotAll();
        log.close();
        log = fixture.open();
        IdempotentAppender restarted = new IdempotentAppender(fixture.time, 24L * 3600 * 1000);
        assertThat(restarted.firstUnstableOffset(log)).isZero();
        assertThat(restarted.openTransactions(log)).isEqualTo(Map.of(PRODUCER_A, 0L));
        assertThat(log.abortedTxns(0, 5)).containsExactly(new AbortedTxn(PRODUCER_B, 2, 4, 0));
    }

    @Test
    void recoveryAfterACrashRebuildsTheOpenTransactionsAndTheAbortedIndex() throws Exception {
        twoTransactionsOneAborted();
        Path crashed = fixture.snapshotAsCrashed("crashed");
        Files.delete(crashed.resolve("00000000000000000000.txnindex"));
        try (var files = Files.list(crashed)) {
            for (Path snapshot : files.filter(f -> f.toString().endsWith(".snapshot")).toList()) {
                Files.delete(snapshot);
            }
        }
        PartitionLog recovered = fixture.recover(crashed, 0);
        try {
            IdempotentAppender restarted = new IdempotentAppender(fixture.time, 24L * 3600 * 1000);
            assertThat(restarted.firstUnstableOffset(recovered)).isZero();
            assertThat(recovered.abortedTxns(0, 5)).containsExactly(new AbortedTxn(PRODUCER_B, 2, 4, 0));
            assertThat(Files.size(crashed.resolve("00000000000000000000.txnindex"))).isEqualTo(AbortedTxn.SIZE);
        } finally {
            recovered.close();
        }
    }

    @Test
    void aTruncationBelowAnAbortMarkerDropsItsIndexEntry() {
        twoTransactionsOneAborted();
        log.truncateTo(4);
        appender.reset(log);
        assertThat(log.abortedTxns(0, Long.MAX_VALUE)).isEmpty();
        assertThat(appender.openTransactions(log)).isEqualTo(Map.of(PRODUCER_A, 0L, PRODUCER_B, 2L));
    }

    @Test
    void producerEpochsOlderThanAMarkersAreFenced() {
        transactional(PRODUCER_A, 0, "a0");
        appender.append(log, MemoryRecords.withEndTransactionMarker(0L, PRODUCER_A, (short) 1,
                new EndTransactionMarker(ControlRecordType.ABORT, 5)), 0, AppendOrigin.COORDINATOR);
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> transactional(PRODUCER_A, 1, "zombie")))
                .isInstanceOf(org.apache.kafka.common.errors.InvalidProducerEpochException.class);
        assertThat(TestRecords.storedBatches(log)).extracting(RecordBatch::producerEpoch).containsExactly((short) 0, (short) 1);
    }

    @Test
    void aMarkerFromAnOlderCoordinatorEpochIsFenced() {
        transactional(PRODUCER_A, 0, "a0");
        marker(PRODUCER_A, ControlRecordType.COMMIT); // coordinator epoch 5
        transactional(PRODUCER_A, 1, "a1");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> appender.append(log,
                MemoryRecords.withEndTransactionMarker(0L, PRODUCER_A, (short) 0, new EndTransactionMarker(ControlRecordType.ABORT, 4)),
                0, AppendOrigin.COORDINATOR))).isInstanceOf(org.apache.kafka.common.errors.TransactionCoordinatorFencedException.class);
        assertThat(appender.firstUnstableOffset(log)).isEqualTo(2); // a1's transaction is still open
        assertThat(appender.activeProducers(log)).singleElement()
                .satisfies(p -> assertThat(p.coordinatorEpoch()).isEqualTo(5))
                .satisfies(p -> assertThat(p.currentTxnStartOffset()).isEqualTo(2));
    }

    private static String dump(Path file) throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            DumpLogSegments.main(new String[] {"--files", file.toString(), "--deep-iteration"});
        } finally {
            System.setOut(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }


    @Test
    void aMarkerBetweenAVerificationAndTheAppendRefusesTheAppend() {
        MemoryRecords late = MemoryRecords.withTransactionalRecords(Compression.NONE, PRODUCER_A, (short) 0, 0,
                new SimpleRecord("late".getBytes()));
        VerificationGuard guard = appender.startVerification(log, PRODUCER_A, (short) 0, false);
        assertThat(guard.needsVerification()).isTrue();
        marker(PRODUCER_A, ControlRecordType.ABORT); // the coordinator ended the transaction meanwhile

        assertThatThrownBy(() -> appender.append(log, late, 0, AppendOrigin.CLIENT, guard))
                .isInstanceOf(InvalidTxnStateException.class);
        assertThat(appender.firstUnstableOffset(log)).isEqualTo(-1);

        VerificationGuard verified = appender.startVerification(log, PRODUCER_A, (short) 0, false);
        appender.append(log, MemoryRecords.withTransactionalRecords(Compression.NONE, PRODUCER_A, (short) 0, 0,
                new SimpleRecord("on-time".getBytes())), 0, AppendOrigin.CLIENT, verified);
        assertThat(appender.openTransactions(log)).containsKey(PRODUCER_A);
        assertThat(appender.startVerification(log, PRODUCER_A, (short) 0, false)).as("its later batches need no question")
                .isSameAs(VerificationGuard.NOT_NEEDED);
    }

    private MemoryRecords batch(short epoch, int sequence, String value) {
        return MemoryRecords.withTransactionalRecords(Compression.NONE, PRODUCER_A, epoch, sequence, new SimpleRecord(value.getBytes()));
    }

    private void marker(short epoch, ControlRecordType type) {
        appender.append(log, MemoryRecords.withEndTransactionMarker(0L, PRODUCER_A, epoch, new EndTransactionMarker(type, 5)), 0,
                AppendOrigin.COORDINATOR);
    }

    /**
     * Transaction version 2: a producer begins its next transaction, one epoch higher, as soon as EndTxn answers, while
     * the marker of the last one (which carries the new epoch) may not have reached this partition. Its first batch
     * must be verified (the coordinator adds the partition only once the last transaction is complete), and that
     * marker does not undo the verification. A late write of an epoch a coordinator's abort fenced opens nothing.
     */
    @Test
    void aBatchOfTheNextEpochIsVerifiedEvenWhileTheLastTransactionWaitsForItsMarker() {
        appender.append(log, batch((short) 0, 0, "first"), 0, AppendOrigin.CLIENT, appender.startVerification(log, PRODUCER_A, (short) 0, true));
        VerificationGuard next = appender.startVerification(log, PRODUCER_A, (short) 1, true);
        assertThat(next.needsVerification()).as("the open transaction is of epoch 0").isTrue();

        marker((short) 1, ControlRecordType.COMMIT); // the last transaction's marker, at the epoch the producer moved to
        appender.append(log, batch((short) 1, 0, "second"), 0, AppendOrigin.CLIENT, next);
        assertThat(appender.firstUnstableOffset(log)).as("the second transaction is open from its first batch").isEqualTo(2);

        marker((short) 2, ControlRecordType.ABORT);
        VerificationGuard ended = appender.startVerification(log, PRODUCER_A, (short) 2, true);
        marker((short) 3, ControlRecordType.ABORT); // a coordinator's abort, fencing epoch 2
        assertThatThrownBy(() -> appender.append(log, batch((short) 2, 0, "late"), 0, AppendOrigin.CLIENT, ended))
                .isInstanceOf(org.apache.kafka.common.errors.InvalidProducerEpochException.class);
        assertThat(appender.firstUnstableOffset(log)).isEqualTo(-1);
    }
}

package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A crash at each step of a cleaned segment's swap after its commit point, then a restart: the cleaned segment has
 * the aborted transactions of the segments it replaced in its {@code .txnindex}, so read_committed readers still
 * skip their records. The producer snapshot is taken after the markers, as a roll's would be, so replaying the log
 * at start-up cannot put lost entries back.
 */
@Timeout(60)
class CleanedSwapCrashTest {
    @TempDir
    Path root;
    private LogFixture fixture;
    private PartitionLog log;
    private IdempotentAppender appender;

    /** Stands for the process dying at a swap step. */
    private static final class Crash extends RuntimeException {
    }

    @BeforeEach
    void open() throws IOException {
        fixture = new LogFixture(root, Map.of(LogConfig.SEGMENT_BYTES, "400"));
        log = fixture.open();
        appender = new IdempotentAppender(fixture.time, 24L * 3600 * 1000);
    }

    @AfterEach
    void close() {
        fixture.scheduler.close();
    }

    /** Twelve transactions of three records, one producer each, every other one aborted, over several segments. */
    private void transactions() {
        for (int i = 0; i < 12; i++) {
            long producerId = 1000 + i;
            appender.append(log, MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, (short) 0, 0,
                    new SimpleRecord(("k" + i).getBytes(), "a".getBytes()), new SimpleRecord(("k" + i).getBytes(), "b".getBytes()),
                    new SimpleRecord(("k" + i).getBytes(), "c".getBytes())), 0);
            ControlRecordType type = i % 2 == 0 ? ControlRecordType.ABORT : ControlRecordType.COMMIT;
            appender.append(log, MemoryRecords.withEndTransactionMarker(fixture.time.milliseconds(), producerId, (short) 0,
                    new EndTransactionMarker(type, 1)), 0, AppendOrigin.COORDINATOR);
        }
    }

    /** A "cleaned" copy of the closed segments that keeps every batch, so every aborted entry must stay. */
    private Path identityClean(List<ClosedSegment> closed) throws IOException {
        Path cleaned = log.cleanedFile(closed.get(0).baseOffset(), closed.get(closed.size() - 1).endOffset());
        try (FileRecords out = FileRecords.open(cleaned.toFile(), false, 0, false)) {
            for (ClosedSegment segment : closed) {
                out.append(MemoryRecords.readableRecords(java.nio.ByteBuffer.wrap(Files.readAllBytes(segment.records().file().toPath()))));
            }
            out.flush();
        }
        return cleaned;
    }

    @ParameterizedTest
    @EnumSource(LocalLog.SwapStep.class)
    void aCrashDuringTheSwapKeepsTheAbortedTransactionsOfTheReplacedSegments(LocalLog.SwapStep step) throws IOException {
        transactions();
        List<ClosedSegment> closed = log.closedSegments();
        assertThat(closed).hasSizeGreaterThan(2);
        long end = closed.get(closed.size() - 1).endOffset();
        List<AbortedTxn> aborted = log.abortedTxns(0, Long.MAX_VALUE);
        List<AbortedTxn> abortedInClosed = aborted.stream().filter(txn -> txn.lastOffset() < end).toList();
        assertThat(abortedInClosed).hasSizeGreaterThan(2);
        Path cleaned = identityClean(closed);
        appender.snapshotAll();
        log.flush();

        log.onSwapStep(reached -> {
            if (reached == step) {
                throw new Crash();
            }
        });
        assertThatThrownBy(() -> log.swapInCleaned(closed, cleaned, abortedInClosed)).isInstanceOf(Crash.class);
        Path crashed = fixture.snapshotAsCrashed("crashed");

        PartitionLog recovered = fixture.recover(crashed, log.logEndOffset());
        try {
            IdempotentAppender restarted = new IdempotentAppender(fixture.time, 24L * 3600 * 1000);
            assertThat(restarted.firstUnstableOffset(recovered)).isEqualTo(-1);
            assertThat(recovered.logEndOffset()).isEqualTo(log.logEndOffset());
            assertThat(recovered.abortedTxns(0, Long.MAX_VALUE)).isEqualTo(aborted);
            try (Stream<Path> files = Files.list(crashed)) {
                assertThat(files.map(f -> f.getFileName().toString()))
                        .noneMatch(f -> f.endsWith(".swap") || f.endsWith(".cleaned") || f.endsWith(".deleted"));
            }
        } finally {
            recovered.close();
        }
    }
}

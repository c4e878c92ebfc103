package io.tributary.broker.log.cleaner;

import static io.tributary.broker.log.cleaner.CompactedLog.DELETE_RETENTION_MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import io.tributary.broker.log.AbortedTxn;
import io.tributary.broker.log.AppendOrigin;
import io.tributary.broker.log.IdempotentAppender;
import io.tributary.broker.log.LogAppendInfo;
import io.tributary.broker.log.cleaner.CompactedLog.Stored;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction of transactional data over real segments, as Kafka's cleaner does it: aborted records go and never
 * overwrite committed ones; a marker stays while data of its transaction is left, then for delete.retention.ms
 * after the clean that found none; nothing at or past the last stable offset is cleaned; the cleaned segments'
 * {@code .txnindex} lists the aborted transactions whose data they still hold; and the batch holding a producer's
 * last sequence survives, so a log replayed from its start still knows the producer.
 */
@Timeout(60)
class TransactionalCompactionTest {
    private static final long COMMITTED = 1000;
    private static final long ABORTED = 2000;
    private static final long OPEN = 3000;
    private static final long IDEMPOTENT = 4000;

    @TempDir
    Path dir;
    private final Map<Long, Integer> sequences = new java.util.HashMap<>();

    private long transactional(CompactedLog log, long producerId, String key, String value) {
        int sequence = sequences.merge(producerId, 1, Integer::sum) - 1;
        MemoryRecords records = MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, (short) 0, sequence,
                new SimpleRecord(log.time.milliseconds(), bytes(key), bytes(value)));
        return log.appender.append(log.log, records, 0).firstOffset();
    }

    private static long marker(CompactedLog log, long producerId, ControlRecordType type) {
        return log.appender.append(log.log, MemoryRecords.withEndTransactionMarker(log.time.milliseconds(), producerId,
                (short) 0, new EndTransactionMarker(type, 1)), 0, AppendOrigin.COORDINATOR).firstOffset();
    }

    /** Non-transactional overwrites of ten keys, enough to roll a few segments. */
    private static void fill(CompactedLog log, int count) {
        for (int i = 0; i < count; i++) {
            log.append("filler-" + (i % 10), "f" + i);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String string(ByteBuffer buffer) {
        return new String(Utils.toArray(buffer), StandardCharsets.UTF_8);
    }

    private static List<RecordBatch> batches(CompactedLog log) {
        List<RecordBatch> batches = new ArrayList<>();
        long end = log.log.logEndOffset();
        for (long position = log.log.logStartOffset(); position < end; ) {
            long next = position;
            for (RecordBatch batch : log.log.read(position, 64 * 1024, end, true).records().batches()) {
                batches.add(batch);
                next = batch.nextOffset();
            }
            if (next == position) {
                break;
            }
            position = next;
        }
        return batches;
    }

    /** Key → value as a read_committed consumer replays the log: it skips what the aborted transactions cover. */
    private static Map<String, String> readCommitted(CompactedLog log) {
        List<AbortedTxn> aborted = log.log.abortedTxns(0, Long.MAX_VALUE);
        Map<String, String> state = new LinkedHashMap<>();
        for (RecordBatch batch : batches(log)) {
            boolean skipped = batch.isControlBatch() || batch.isTransactional() && aborted.stream().anyMatch(txn ->
                    txn.producerId() == batch.producerId() && txn.firstOffset() <= batch.baseOffset()
                            && batch.lastOffset() <= txn.lastOffset());
            if (!skipped) {
                for (Record record : batch) {
                    state.put(string(record.key()), record.hasValue() ? string(record.value()) : null);
                }
            }
        }
        return state;
    }

    private static List<Long> markerOffsets(CompactedLog log) {
        return batches(log).stream().filter(RecordBatch::isControlBatch).map(RecordBatch::baseOffset).toList();
    }

    private static List<String> values(CompactedLog log) {
        return log.readAll().stream().map(Stored::value).toList();
    }

    @Test
    void abortedRecordsAreDroppedAndNeverOverwriteTheCommittedValueOfTheirKey() {
        try (CompactedLog log = new CompactedLog(dir, Map.of())) {
            transactional(log, COMMITTED, "k", "committed");
            marker(log, COMMITTED, ControlRecordType.COMMIT);
            transactional(log, ABORTED, "k", "aborted");
            transactional(log, ABORTED, "only-aborted", "aborted-too");
            marker(log, ABORTED, ControlRecordType.ABORT);
            fill(log, 100);
            Map<String, String> committedView = readCommitted(log);
            assertThat(committedView).containsEntry("k", "committed").doesNotContainKey("only-aborted");

            new Cleaner(log.time, log.state).clean(log.log);

            assertThat(readCommitted(log)).isEqualTo(committedView);
            assertThat(values(log)).contains("committed").doesNotContain("aborted", "aborted-too");
        }
    }

    @Test
    void aMarkerStaysWhileDataOfItsTransactionIsLeftThenForTheDeleteRetention() throws IOException {
        try (CompactedLog log = new CompactedLog(dir, Map.of())) {
            transactional(log, COMMITTED, "overwritten", "old");
            long commit = marker(log, COMMITTED, ControlRecordType.COMMIT);
            transactional(log, COMMITTED, "live", "kept");
            long liveCommit = marker(log, COMMITTED, ControlRecordType.COMMIT);
            long abortFirst = transactional(log, ABORTED, "a", "aborted");
            long abort = marker(log, ABORTED, ControlRecordType.ABORT);
            log.append("overwritten", "new");
            fill(log, 100);
            // The aborting producer writes again, so the aborted batch no longer holds its last sequence.
            transactional(log, ABORTED, "later", "committed-later");
            marker(log, ABORTED, ControlRecordType.COMMIT);
            fill(log, 60);
            Cleaner cleaner = new Cleaner(log.time, log.state);
            List<AbortedTxn> abortedBefore = log.log.abortedTxns(0, Long.MAX_VALUE);
            assertThat(abortedBefore).extracting(AbortedTxn::firstOffset).containsExactly(abortFirst);

            // First clean: the aborted and the overwritten data go; their markers stay, having had data in this pass.
            cleaner.clean(log.log);
            assertThat(values(log)).doesNotContain("aborted", "old").contains("kept", "new");
            assertThat(markerOffsets(log)).contains(commit, liveCommit, abort);
            assertThat(log.log.abortedTxns(0, Long.MAX_VALUE)).isEqualTo(abortedBefore);
            Path firstIndex = log.partitionDir().resolve("00000000000000000000.txnindex");
            assertThat(Files.size(firstIndex)).isEqualTo(34);

            // Second clean: no data of theirs is left, so the markers are stamped with a delete horizon and kept.
            CleanResult second = cleaner.clean(log.log);
            assertThat(markerOffsets(log)).contains(commit, liveCommit, abort);
            assertThat(second.earliestTombstoneHorizonMs()).isEqualTo(log.time.milliseconds() + DELETE_RETENTION_MS);
            assertThat(log.log.abortedTxns(0, Long.MAX_VALUE)).as("no aborted data is left to skip").isEmpty();

            log.time.sleep(DELETE_RETENTION_MS - 1);
            cleaner.clean(log.log);
            assertThat(markerOffsets(log)).contains(commit, liveCommit, abort);

            log.time.sleep(1);
            cleaner.clean(log.log);
            assertThat(markerOffsets(log)).doesNotContain(commit, abort).contains(liveCommit);
            assertThat(readCommitted(log)).containsEntry("live", "kept").containsEntry("overwritten", "new")
                    .containsEntry("later", "committed-later").doesNotContainKey("a");
        }
    }

    @Test
    void nothingAtOrPastTheLastStableOffsetIsCleaned() {
        try (CompactedLog log = new CompactedLog(dir, Map.of())) {
            fill(log, 60);
            long openFirst = transactional(log, OPEN, "k", "undecided");
            log.append("k", "overwrite-after-the-open-transaction");
            fill(log, 100);
            assertThat(log.state.lastStableOffset(log.log)).isEqualTo(openFirst);
            List<Stored> fromTheOpenTransaction = log.readAll().stream().filter(s -> s.offset() >= openFirst).toList();
            long fillerBelow = log.readAll().stream().filter(s -> s.offset() < openFirst).count();

            new Cleaner(log.time, log.state).clean(log.log);

            assertThat(log.readAll().stream().filter(s -> s.offset() >= openFirst).toList())
                    .as("the segments from the one holding the LSO on are untouched").isEqualTo(fromTheOpenTransaction);
            assertThat(log.readAll().stream().filter(s -> s.offset() < openFirst).count())
                    .as("below it the log was compacted").isLessThan(fillerBelow);

            marker(log, OPEN, ControlRecordType.COMMIT);
            fill(log, 40);
            new Cleaner(log.time, log.state).clean(log.log);
            assertThat(values(log)).doesNotContain("undecided").contains("overwrite-after-the-open-transaction");
        }
    }

    @Test
    void theBatchHoldingAProducersLastSequenceSurvivesSoAReplayedLogStillRecognisesItsRetries() throws IOException {
        try (CompactedLog log = new CompactedLog(dir, Map.of())) {
            MemoryRecords last = MemoryRecords.withIdempotentRecords(Compression.NONE, IDEMPOTENT, (short) 0, 0,
                    new SimpleRecord(log.time.milliseconds(), bytes("k"), bytes("idempotent")));
            ByteBuffer retryOfLast = duplicateOf(last);
            LogAppendInfo first = log.appender.append(log.log, last, 0);
            log.append("k", "overwritten-by-a-plain-producer");
            fill(log, 100);

            new Cleaner(log.time, log.state).clean(log.log);
            assertThat(values(log)).doesNotContain("idempotent");

            // A replica that copies this log from its start, or a restart without snapshots, replays it.
            try (Stream<Path> files = Files.list(log.partitionDir())) {
                for (Path snapshot : files.filter(f -> f.toString().endsWith(".snapshot")).toList()) {
                    Files.delete(snapshot);
                }
            }
            IdempotentAppender replayed = new IdempotentAppender(log.time, 24L * 3600 * 1000);
            long end = log.log.logEndOffset();
            LogAppendInfo retry = replayed.append(log.log, MemoryRecords.readableRecords(retryOfLast), 0);
            assertThat(retry.firstOffset()).as("the retry is answered with its first offsets").isEqualTo(first.firstOffset());
            assertThat(log.log.logEndOffset()).as("and not appended again").isEqualTo(end);
            assertThatThrownBy(() -> replayed.append(log.log, MemoryRecords.withIdempotentRecords(Compression.NONE,
                    IDEMPOTENT, (short) 0, 5, new SimpleRecord(bytes("k"), bytes("gap"))), 0))
                    .isInstanceOf(OutOfOrderSequenceException.class);
        }
    }

    private static ByteBuffer duplicateOf(MemoryRecords records) {
        ByteBuffer copy = ByteBuffer.allocate(records.sizeInBytes());
        copy.put(records.buffer().duplicate()).flip();
        return copy;
    }
}

package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import io.tributary.broker.controller.PartitionState;
import io.tributary.broker.log.AbortedTxn;
import io.tributary.broker.log.AppendOrigin;
import io.tributary.broker.log.IdempotentAppender;
import io.tributary.broker.log.LogAppendInfo;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.log.ProducerStateManager;
import io.tributary.broker.log.VerificationGuard;
import io.tributary.broker.metrics.IsrChanges;
import io.tributary.broker.testing.FakeTime;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.OffsetMovedToTieredStorageException;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica moving to another log dir of its broker (KIP-113): the future log copied from the log in rounds, kept a
 * copy of it through truncations and log start moves, and swapped in under the replica's lock while producers append,
 * with the leader epochs and the idempotent producers' state carried over.
 */
class PartitionMoveTest {
    private static final TopicPartition TP = new TopicPartition("moving", 0);
    private static final TopicPartition TIERED = new TopicPartition("tiered", 0);
    private static final int ROUND_BYTES = 64 * 1024;

    @TempDir
    Path root;
    private final FakeTime time = new FakeTime();
    private final IdempotentAppender appender = new IdempotentAppender(Time.SYSTEM, IdempotentAppender.DEFAULT_PRODUCER_ID_EXPIRATION_MS);
    private List<Path> dirs;
    private LogManager logs;
    private Partition partition;

    @BeforeEach
    void open() {
        dirs = List.of(root.resolve("d1").toAbsolutePath(), root.resolve("d2").toAbsolutePath());
        LogConfig config = LogConfig.fromBroker(Map.of(LogConfig.LOG_DIRS, dirs.get(0) + "," + dirs.get(1),
                LogConfig.LOG_SEGMENT_BYTES, Integer.toString(256 * 1024), LogConfig.LOG_RETENTION_CHECK_INTERVAL_MS, "50"));
        logs = LogManager.open(dirs, config, time);
        partition = replica(TP, config);
        assertThat(partition.log().dir().getParent()).isEqualTo(dirs.get(0));
    }

    private Partition replica(TopicPartition tp, LogConfig config) {
        return new Partition(tp, logs.getOrCreate(tp, config), appender,
                (partition, proposed) -> CompletableFuture.completedFuture(Partition.IsrWrite.lost(Optional.empty())),
                new IsrChanges(), id -> true, () -> { }, 0, 0, time);
    }

    @AfterEach
    void close() {
        logs.close();
    }

    private void lead(int epoch) {
        lead(partition, epoch);
    }

    private static void lead(Partition partition, int epoch) {
        partition.makeLeader(new PartitionState(0, epoch, PartitionState.UNKNOWN_BROKER_EPOCH, List.of(0), 1, 0, 0), List.of(0));
    }

    private void follow(int epoch) {
        partition.makeFollower(new PartitionState(1, epoch, PartitionState.UNKNOWN_BROKER_EPOCH, List.of(0, 1), 1, 0, 0), List.of(0, 1));
    }

    private void startMove() {
        partition.startMove(logs.createFuture(TP, dirs.get(1)));
    }

    private boolean completeMove() {
        return partition.completeMove(ROUND_BYTES, () -> logs.replaceCurrentWithFuture(TP));
    }

    /** One idempotent producer's batch of three records. */
    private static MemoryRecords produced(int sequence) {
        return produced(42L, sequence);
    }

    private static MemoryRecords produced(long producerId, int sequence) {
        return MemoryRecords.withIdempotentRecords(Compression.NONE, producerId, (short) 0, sequence, threeRecords(sequence));
    }

    /** A transactional producer's batch of three records, as large as {@link #produced}'s. */
    private static MemoryRecords transactional(long producerId, int sequence) {
        return MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, (short) 0, sequence, threeRecords(sequence));
    }

    private static SimpleRecord[] threeRecords(int sequence) {
        return new SimpleRecord[] {new SimpleRecord(value(sequence, 0)), new SimpleRecord(value(sequence, 1)),
                new SimpleRecord(value(sequence, 2))};
    }

    /** Appends {@code batches} of {@link #produced}'s batches, from sequence 0 on, as the leader. */
    private static void produce(Partition leader, int batches) {
        for (int sequence = 0; sequence < 3 * batches; sequence += 3) {
            leader.appendAsLeader(produced(sequence), (short) 1, AppendOrigin.CLIENT, null);
        }
    }

    private static byte[] value(int sequence, int i) {
        return ("record " + sequence + "." + i + " " + "x".repeat(50)).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    @Timeout(60)
    void aMoveUnderAppendsLosesNothingAndCarriesTheEpochsAndTheProducersOver() throws Exception {
        lead(3);
        AtomicBoolean producing = new AtomicBoolean(true);
        List<Integer> acknowledged = new CopyOnWriteArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread producer = new Thread(() -> {
            try {
                for (int sequence = 0; producing.get(); sequence += 3) {
                    partition.appendAsLeader(produced(sequence), (short) 1, AppendOrigin.CLIENT, null);
                    acknowledged.add(sequence);
                }
            } catch (RuntimeException e) {
                failure.set(e);
            }
        });
        ReplicationThrottle unthrottled = new ReplicationThrottle("alter-log-dirs", ReplicationThrottle.UNTHROTTLED, Time.SYSTEM);
        try (LogDirMoves moves = new LogDirMoves(ROUND_BYTES, unthrottled, logs::replaceCurrentWithFuture)) {
            producer.start();
            Awaitility.await("a few segments").atMost(Duration.ofSeconds(20))
                    .until(() -> partition.log().size() > 1_000_000 || failure.get() != null);
            assertThat(failure.get()).as("an append failed").isNull();
            PartitionLog before = partition.log();
            startMove();
            moves.add(partition);
            Awaitility.await("moved").atMost(Duration.ofSeconds(30)).until(() -> partition.futureLog().isEmpty());
            assertThat(partition.log()).isNotSameAs(before);
            int atMove = acknowledged.size();
            Awaitility.await("appends to the new log").atMost(Duration.ofSeconds(10))
                    .until(() -> acknowledged.size() > atMove + 100 || failure.get() != null);
        } finally {
            producing.set(false);
            producer.join();
        }
        assertThat(failure.get()).as("an append failed").isNull();
        PartitionLog moved = partition.log();
        assertThat(moved.dir()).isEqualTo(dirs.get(1).resolve("moving-0"));
        assertThat(logs.log(TP)).containsSame(moved);
        assertThat(values(moved)).as("every acknowledged batch, once, in order").isEqualTo(expectedValues(acknowledged));
        lead(4);
        assertThat(Files.readAllLines(moved.dir().resolve(LeaderEpochCache.FILE_NAME))).as("the leader epochs, in the new folder")
                .containsExactly("0", "2", "3 0", "4 " + moved.logEndOffset());
        // The producer's last batch again (a retry): recognised from the state carried over, not appended twice.
        int last = acknowledged.get(acknowledged.size() - 1);
        long end = moved.logEndOffset();
        LogAppendInfo retried = partition.appendAsLeader(produced(last), (short) 1, AppendOrigin.CLIENT, null);
        assertThat(retried.lastOffset()).isEqualTo(end - 1);
        assertThat(moved.logEndOffset()).isEqualTo(end);
    }

    /** A transactional produce verified with its coordinator just before the swap is appended just after it. */
    @Test
    void aVerificationInFlightSurvivesTheMove() {
        lead(0);
        partition.appendAsLeader(produced(0), (short) 1, AppendOrigin.CLIENT, null);
        startMove();
        VerificationGuard guard = partition.startVerification(7L, (short) 0, false);
        assertThat(completeMove()).isTrue();
        MemoryRecords transactional = MemoryRecords.withTransactionalRecords(Compression.NONE, 7L, (short) 0, 0,
                new SimpleRecord("in a transaction".getBytes(StandardCharsets.UTF_8)));
        assertThat(partition.appendAsLeader(transactional, (short) 1, AppendOrigin.CLIENT, guard).firstOffset()).isEqualTo(3);
    }

    @Test
    void aTruncationOfTheLogCutsTheFutureLogToo() {
        follow(1);
        partition.appendAsFollower(MemoryRecords.withRecords(0, Compression.NONE, 1, records("a", 6)), 0, 0, 1);
        partition.appendAsFollower(MemoryRecords.withRecords(6, Compression.NONE, 1, records("c", 4)), 0, 0, 1);
        startMove();
        assertThat(partition.copyToFuture(ROUND_BYTES).caughtUp()).isTrue();
        assertThat(partition.futureLog().orElseThrow().logEndOffset()).isEqualTo(10);

        follow(2); // a new leader has only the first batch of epoch 1, then its own
        partition.truncateTo(6, 2);
        assertThat(partition.futureLog().orElseThrow().logEndOffset()).isEqualTo(6);
        partition.appendAsFollower(MemoryRecords.withRecords(6, Compression.NONE, 2, records("b", 4)), 0, 0, 2);

        assertThat(completeMove()).isTrue();
        assertThat(partition.log().dir().getParent()).isEqualTo(dirs.get(1));
        assertThat(values(partition.log())).containsExactly("a0", "a1", "a2", "a3", "a4", "a5", "b0", "b1", "b2", "b3");
        assertThat(partition.epochs().latestEpoch()).isEqualTo(2);
    }

    @Test
    void theFutureLogFollowsTheLogStartAndStartsOverWhereTheLogStartsIfItEndsBelow() {
        lead(0);
        for (int i = 0; i < 10; i++) {
            partition.appendAsLeader(MemoryRecords.withRecords(Compression.NONE, records("r" + i + ".", 1)), (short) 1, AppendOrigin.CLIENT, null);
        }
        startMove();
        partition.log().advanceLogStartOffset(4); // DeleteRecords before anything was copied
        assertThat(partition.copyToFuture(ROUND_BYTES).bytes()).isZero();
        PartitionLog future = partition.futureLog().orElseThrow();
        assertThat(future.logStartOffset()).as("started over").isEqualTo(4);
        assertThat(future.logEndOffset()).isEqualTo(4);
        assertThat(partition.copyToFuture(ROUND_BYTES).caughtUp()).isTrue();
        assertThat(future.logEndOffset()).isEqualTo(10);

        partition.log().advanceLogStartOffset(7);
        partition.copyToFuture(ROUND_BYTES);
        assertThat(future.logStartOffset()).isEqualTo(7);
        assertThat(completeMove()).isTrue();
        assertThat(partition.log().logStartOffset()).isEqualTo(7);
        assertThat(values(partition.log())).containsExactly("r7.0", "r8.0", "r9.0");
    }

    /** A tiered topic (KIP-405) whose segments hold one batch of three records each and whose local retention is 0. */
    private Partition tieredReplica() {
        LogConfig tiered = LogConfig.fromBroker(Map.of(LogConfig.REMOTE_LOG_STORAGE_SYSTEM_ENABLE, "true")).withTopicOverrides(Map.of(
                LogConfig.REMOTE_STORAGE_ENABLE, "true", LogConfig.LOCAL_RETENTION_BYTES, "0",
                LogConfig.SEGMENT_BYTES, Integer.toString(produced(0).sizeInBytes())));
        Partition replica = replica(TIERED, tiered);
        lead(replica, 0);
        return replica;
    }

    /** The remote part of {@code replica} holds [remoteStart, remoteEnd), and local retention deletes it from the disk. */
    private static void tierUpTo(Partition replica, long remoteStart, long remoteEnd) {
        PartitionLog log = replica.log();
        log.updateRemoteTier(remoteStart, remoteEnd);
        Awaitility.await("local retention").atMost(Duration.ofSeconds(10)).until(() -> log.localLogStartOffset() == remoteEnd);
    }

    /** Moves {@code replica} to the log dir its log is not in, in rounds of copying, and returns its new log. */
    private PartitionLog moveToTheOtherDir(Partition replica) {
        Path destination = dirs.get(replica.log().dir().getParent().equals(dirs.get(0)) ? 1 : 0);
        replica.startMove(logs.createFuture(TIERED, destination));
        for (int round = 0; round < 5 && !replica.copyToFuture(ROUND_BYTES).caughtUp(); round++) {
            // the first round starts the future log over at the local start
        }
        assertThat(replica.completeMove(ROUND_BYTES, () -> logs.replaceCurrentWithFuture(TIERED))).isTrue();
        assertThat(replica.log().dir()).isEqualTo(destination.resolve("tiered-0"));
        return replica.log();
    }

    /**
     * A tiered replica copies only its local part: the part below stays in remote storage, where reads below the local
     * start still go (OFFSET_MOVED_TO_TIERED_STORAGE, which FetchHandler answers from remote storage), and the whole
     * log still starts there. The copy keeps the producer snapshots at the ends of the segments not copied to remote
     * storage yet, which their copies take along.
     */
    @Test
    @Timeout(30)
    void aTieredReplicaCopiesOnlyItsLocalPartAndStillSendsReadsBelowItToRemoteStorage() {
        Partition replica = tieredReplica();
        produce(replica, 11); // [0, 33)
        tierUpTo(replica, 0, 18);
        replica.log().updateRemoteTier(3, 18); // remote retention deleted the first copy

        PartitionLog moved = moveToTheOtherDir(replica);

        assertThat(moved.logStartOffset()).as("the whole log's start").isEqualTo(3);
        assertThat(moved.localLogStartOffset()).isEqualTo(18);
        assertThatThrownBy(() -> moved.read(6, 1000, Long.MAX_VALUE, false)).isInstanceOf(OffsetMovedToTieredStorageException.class);
        assertThat(moved.read(18, 100_000, Long.MAX_VALUE, false).records().batches().iterator().next().baseOffset())
                .isEqualTo(18);
        assertThat(values(moved)).hasSize(33 - 18);
        appender.snapshotAll(); // a snapshot at the log end, which prunes those not needed
        for (long end = 21; end <= 30; end += 3) {
            Path snapshot = moved.dir().resolve(String.format("%020d.snapshot", end));
            // written on the log scheduler after each roll, maybe while the move renamed the folder
            Awaitility.await("the snapshot at the end of a segment not copied yet, " + end).atMost(Duration.ofSeconds(10))
                    .until(() -> Files.exists(snapshot));
        }
    }

    /**
     * What the moved log's remote part holds is known at once (ListOffsets' latest-tiered answers it, local retention
     * goes by it), not only after the next copy: nothing may be left to copy for a long time.
     */
    @Test
    @Timeout(30)
    void theMovedTieredLogKnowsWhatItsRemotePartHolds() {
        Partition replica = tieredReplica();
        produce(replica, 5); // [0, 15)
        tierUpTo(replica, 0, 9);

        PartitionLog moved = moveToTheOtherDir(replica);

        assertThat(moved.remoteLogEndOffset()).isEqualTo(9);
        assertThat(moved.logStartOffset()).isZero();
    }

    /**
     * The producers a tiered replica knows of only from below its local start (in the remote part) are in the moved
     * log's own snapshots, so that a restart after the move still knows them.
     */
    @Test
    @Timeout(30)
    void theProducersOfTheRemotePartSurviveTheMoveInTheNewFolder() {
        Partition replica = tieredReplica();
        replica.appendAsLeader(produced(7L, 0), (short) 1, AppendOrigin.CLIENT, null); // producer 7: only at [0, 3)
        produce(replica, 4); // producer 42: [3, 15)
        tierUpTo(replica, 0, 9);

        PartitionLog moved = moveToTheOtherDir(replica);

        assertThat(ProducerStateManager.load(moved, time.milliseconds()).activeProducers())
                .extracting(ProducerStateManager.ProducerView::producerId).as("from the new folder alone").contains(7L, 42L);
    }

    /**
     * A transaction that began below the local start and was aborted above it: the moved log indexes it from where it
     * began, as the log it replaces did. That {@code .txnindex} goes to remote storage with its segment, where a
     * read_committed consumer reading from below the local start, and the loader reading tiered segments, learn from
     * it which records to skip: indexed from the local start, the transaction's records below it would be read as
     * committed.
     */
    @Test
    @Timeout(30)
    void anAbortedTransactionAcrossTheLocalStartIsIndexedFromWhereItBegan() {
        Partition replica = tieredReplica();
        replica.appendAsLeader(produced(0), (short) 1, AppendOrigin.CLIENT, null); // [0, 3)
        replica.appendAsLeader(transactional(9L, 0), (short) 1, AppendOrigin.CLIENT, null); // [3, 6): begins at 3
        replica.appendAsLeader(produced(3), (short) 1, AppendOrigin.CLIENT, null); // [6, 9)
        replica.appendAsLeader(transactional(9L, 3), (short) 1, AppendOrigin.CLIENT, null); // [9, 12)
        replica.appendAsLeader(MemoryRecords.withEndTransactionMarker(time.milliseconds(), 9L, (short) 0,
                new EndTransactionMarker(ControlRecordType.ABORT, 0)), (short) 1, AppendOrigin.COORDINATOR, null); // 12
        replica.appendAsLeader(produced(6), (short) 1, AppendOrigin.CLIENT, null); // [13, 16)
        List<AbortedTxn> indexed = replica.log().abortedTxns(9, replica.log().logEndOffset());
        assertThat(indexed).extracting(AbortedTxn::firstOffset).containsExactly(3L);
        tierUpTo(replica, 0, 9);

        PartitionLog moved = moveToTheOtherDir(replica);

        assertThat(moved.abortedTxns(9, moved.logEndOffset())).isEqualTo(indexed);
    }

    @Test
    @Timeout(30)
    void theThrottleHoldsTheCopyBack() {
        lead(0);
        produce(partition, 10);
        ReplicationThrottle throttle = new ReplicationThrottle("alter-log-dirs", 1, Time.SYSTEM);
        try (LogDirMoves moves = new LogDirMoves(1_000, throttle, logs::replaceCurrentWithFuture)) {
            startMove();
            moves.add(partition);
            PartitionLog future = partition.futureLog().orElseThrow();
            Awaitility.await("the first round").atMost(Duration.ofSeconds(10)).until(() -> future.logEndOffset() > 0);
            long afterOneRound = future.logEndOffset();
            Awaitility.await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
                    .until(() -> future.logEndOffset() == afterOneRound);
            assertThat(partition.futureLog()).as("over 1 B/s after one round").isPresent();

            throttle.setRate(ReplicationThrottle.UNTHROTTLED);
            Awaitility.await("moved").atMost(Duration.ofSeconds(10)).until(() -> partition.futureLog().isEmpty());
        }
        assertThat(partition.log().logEndOffset()).isEqualTo(30);
    }

    private static SimpleRecord[] records(String prefix, int count) {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            records[i] = new SimpleRecord((prefix + i).getBytes(StandardCharsets.UTF_8));
        }
        return records;
    }

    /** The values of the local records (on a tiered log, those not only in remote storage). */
    private static List<String> values(PartitionLog log) {
        List<String> values = new ArrayList<>();
        long offset = log.localLogStartOffset();
        while (offset < log.logEndOffset()) {
            for (RecordBatch batch : log.read(offset, 100_000, Long.MAX_VALUE, true).records().batches()) {
                for (Record record : batch) {
                    values.add(StandardCharsets.UTF_8.decode(record.value()).toString());
                }
                offset = batch.nextOffset();
            }
        }
        return values;
    }

    private static List<String> expectedValues(List<Integer> sequences) {
        List<String> values = new ArrayList<>();
        for (int sequence : sequences) {
            for (int i = 0; i < 3; i++) {
                values.add(new String(value(sequence, i), StandardCharsets.UTF_8));
            }
        }
        return values;
    }
}

package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import io.tributary.broker.log.AppendOrigin;
import io.tributary.broker.log.IdempotentAppender;
import io.tributary.broker.controller.PartitionState;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.metrics.IsrChanges;
import io.tributary.broker.testing.FakeTime;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.FencedLeaderEpochException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The leader's bookkeeping: high watermark over the ISR, ISR shrink and expansion, min.insync.replicas, epochs. */
class PartitionTest {
    private static final TopicPartition TP = new TopicPartition("replicated", 0);
    private static final List<Integer> REPLICAS = List.of(0, 1, 2);
    private static final long LAG_MS = 10_000;

    @TempDir
    Path dir;
    private final FakeTime time = new FakeTime();
    private final List<List<Integer>> isrWrites = new ArrayList<>();
    /** What ZooKeeper does with the next ISR write: by default it stores it at once. */
    private Function<PartitionState, CompletableFuture<Partition.IsrWrite>> zooKeeper = proposed -> CompletableFuture.completedFuture(stored(proposed));
    /** How often the outcome of an ISR write moved the high watermark. */
    private final AtomicInteger highWatermarkMovesByIsrWrites = new AtomicInteger();
    private final IsrChanges isrChanges = new IsrChanges();
    private LogManager logs;
    private Partition partition;

    @BeforeEach
    void lead() {
        LogConfig config = LogConfig.fromBroker(Map.of(LogConfig.LOG_DIRS, dir.toString(), LogConfig.MIN_IN_SYNC_REPLICAS, "2"));
        logs = LogManager.open(List.of(dir), config, time);
        partition = new Partition(TP, logs.getOrCreate(TP, config), new IdempotentAppender(), (tp, proposed) -> {
            isrWrites.add(proposed.isr());
            return zooKeeper.apply(proposed);
        }, isrChanges, id -> id != 3, highWatermarkMovesByIsrWrites::incrementAndGet, 0, 0, time);
        partition.makeLeader(new PartitionState(0, 4, PartitionState.UNKNOWN_BROKER_EPOCH, REPLICAS, 1, 0, 0), REPLICAS);
    }

    private static Partition.IsrWrite stored(PartitionState proposed) {
        return Partition.IsrWrite.stored(new PartitionState(proposed.leader(), proposed.leaderEpoch(), proposed.leaderBrokerEpoch(),
                proposed.isr(), proposed.controllerEpoch(), proposed.zkVersion() + 1, proposed.modifiedZxid() + 1));
    }

    @AfterEach
    void close() {
        logs.close();
    }

    private void append(int count, short acks) {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            records[i] = new SimpleRecord(("v" + i).getBytes(StandardCharsets.UTF_8));
        }
        partition.appendAsLeader(MemoryRecords.withRecords(Compression.NONE, records), acks, AppendOrigin.CLIENT, null);
    }

    @Test
    void theHighWatermarkIsTheSmallestLogEndOverTheIsr() {
        append(5, (short) -1);
        assertThat(partition.highWatermark()).as("followers have not fetched yet").isZero();
        partition.recordFollowerFetch(1, 5, 4);
        assertThat(partition.highWatermark()).isZero();
        assertThat(partition.recordFollowerFetch(2, 3, 4)).as("moved").isTrue();
        assertThat(partition.highWatermark()).isEqualTo(3);
        partition.recordFollowerFetch(2, 5, 4);
        assertThat(partition.highWatermark()).isEqualTo(5);
        assertThat(partition.log().logEndOffset()).isEqualTo(5);
        assertThat(partition.epochs().latestEpoch()).as("the leader's epoch is recorded").isEqualTo(4);
    }

    @Test
    void aFollowerFetchBeyondTheLeadersLogEndIsRefusedAndCountsForNothing() {
        append(5, (short) -1);
        partition.recordFollowerFetch(1, 5, 4);
        assertThatThrownBy(() -> partition.recordFollowerFetch(2, 9, 4))
                .as("a follower claiming records the leader never wrote").isInstanceOf(OffsetOutOfRangeException.class);
        assertThat(partition.highWatermark()).as("the claim moved nothing").isZero();
        append(5, (short) -1);
        assertThat(partition.highWatermark()).as("records 5-8 are on no follower").isZero();
        partition.recordFollowerFetch(2, 5, 4);
        assertThat(partition.highWatermark()).isEqualTo(5);
    }

    @Test
    void aLaggingFollowerLeavesTheIsrAndRejoinsOnceCaughtUp() {
        append(5, (short) 1);
        partition.recordFollowerFetch(1, 5, 4);
        partition.recordFollowerFetch(2, 0, 4);
        time.sleep(LAG_MS / 2);
        partition.recordFollowerFetch(1, 5, 4);
        partition.maybeShrinkIsr(LAG_MS);
        assertThat(isrWrites).isEmpty();
        time.sleep(LAG_MS / 2 + 1);
        partition.recordFollowerFetch(1, 5, 4);
        partition.maybeShrinkIsr(LAG_MS);
        assertThat(highWatermarkMovesByIsrWrites).as("the high watermark moves without the laggard").hasValue(1);
        assertThat(isrWrites).containsExactly(List.of(0, 1));
        assertThat(partition.highWatermark()).isEqualTo(5);
        assertThat(partition.isrSize()).isEqualTo(2);
        assertThat(isrChanges.shrinks()).isEqualTo(1);
        assertThat(isrChanges.expands()).isZero();

        partition.recordFollowerFetch(2, 4, 4);
        assertThat(partition.isrSize()).as("still behind the high watermark").isEqualTo(2);
        partition.recordFollowerFetch(2, 5, 4);
        assertThat(isrWrites).last().isEqualTo(List.of(0, 1, 2));
        assertThat(partition.isrSize()).isEqualTo(3);
        assertThat(isrChanges.shrinks()).isEqualTo(1);
        assertThat(isrChanges.expands()).isEqualTo(1);
    }

    /** Follower 1 has all 5 records, follower 2 none and has been silent for longer than the lag limit. */
    private void followerTwoDiesWhileOneKeepsUp() {
        append(5, (short) -1);
        partition.recordFollowerFetch(1, 5, 4);
        partition.recordFollowerFetch(2, 0, 4);
        time.sleep(LAG_MS + 1);
        partition.recordFollowerFetch(1, 5, 4);
        assertThat(partition.highWatermark()).as("follower 2 holds it back").isZero();
    }

    @Test
    @Timeout(60)
    void theIsrCheckAndAppendsGoOnWhileTheShrinkWaitsForZooKeeper() throws Exception {
        followerTwoDiesWhileOneKeepsUp();
        StalledZooKeeper stalled = stallZooKeeper();
        // ZooKeeper unreachable: Curator may keep the write waiting for many seconds.
        returnsPromptly(() -> partition.maybeShrinkIsr(LAG_MS));
        stalled.awaitWriting();
        returnsPromptly(() -> append(1, (short) 1));
        assertThat(partition.highWatermark()).as("the shrink counts only once stored").isZero();
        stalled.answer();
        assertThat(partition.isrSize()).isEqualTo(2);
        assertThat(partition.highWatermark()).isEqualTo(5);
        assertThat(highWatermarkMovesByIsrWrites).as("reported to wake the waiting produces").hasValue(1);
    }

    @Test
    @Timeout(60)
    void aFollowerFetchIsAnsweredWhileTheIsrExpansionItCausedWaitsForZooKeeper() throws Exception {
        aLaggingFollowerLeavesTheIsr();
        StalledZooKeeper stalled = stallZooKeeper();
        // Follower 2 catches up: its fetch proposes {0, 1, 2}, and ZooKeeper does not answer.
        returnsPromptly(() -> partition.recordFollowerFetch(2, 5, 4));
        stalled.awaitWriting();
        returnsPromptly(() -> partition.recordFollowerFetch(2, 5, 4));
        assertThat(isrWrites).as("one write in flight per partition").containsExactly(List.of(0, 1), List.of(0, 1, 2));
        assertThat(partition.isrSize()).as("not stored yet").isEqualTo(2);
        stalled.answer();
        assertThat(partition.isrSize()).as("applied when the write completes").isEqualTo(3);
    }

    @Test
    @Timeout(60)
    void aWatchedStateThatArrivesWhileAnExpansionIsWrittenDoesNotDropTheJoiningMember() throws Exception {
        aLaggingFollowerLeavesTheIsr();
        PartitionState shrunk = partition.state();
        StalledZooKeeper stalled = stallZooKeeper();
        // Follower 2 catches up: the leader proposes {0, 1, 2}, and the write waits for ZooKeeper.
        partition.recordFollowerFetch(2, 5, 4);
        stalled.awaitWriting();
        // Meanwhile a watch (any topic or cluster event) re-applies the state stored before the write.
        partition.makeLeader(shrunk, REPLICAS);
        append(5, (short) 1);
        partition.recordFollowerFetch(1, 10, 4);
        assertThat(partition.highWatermark())
                .as("broker 2 may be in the stored ISR already, and it lacks records 5-9").isEqualTo(5);
        stalled.answer();
        assertThat(partition.isrSize()).isEqualTo(3);
        assertThat(partition.highWatermark()).isEqualTo(5);
    }

    /** Runs {@code call} on another thread and fails unless it returns within 5 s: it must not wait for ZooKeeper. */
    private static void returnsPromptly(Runnable call) throws Exception {
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            thread.submit(call).get(5, TimeUnit.SECONDS);
        } finally {
            thread.shutdownNow();
        }
    }

    @Test
    void aWatchedStateOlderThanTheStoredOneIsIgnored() {
        PartitionState before = partition.state();
        aLaggingFollowerLeavesTheIsr();
        assertThat(partition.makeLeader(before, REPLICAS)).isFalse();
        assertThat(partition.isrSize()).as("the shrink the leader stored stays").isEqualTo(2);
    }

    /** A ZooKeeper that holds the ISR write until told to answer it (and then stores it), as an unreachable one would. */
    private static final class StalledZooKeeper {
        private final CountDownLatch writing = new CountDownLatch(1);
        private final CompletableFuture<Partition.IsrWrite> answer = new CompletableFuture<>();
        private PartitionState proposed;

        synchronized CompletableFuture<Partition.IsrWrite> write(PartitionState proposed) {
            this.proposed = proposed;
            writing.countDown();
            return answer;
        }

        void awaitWriting() throws InterruptedException {
            assertThat(writing.await(10, TimeUnit.SECONDS)).as("the ISR write started").isTrue();
        }

        /** Completes the write on the calling thread, as the writer's thread would. */
        synchronized void answer() {
            if (proposed != null) {
                answer.complete(stored(proposed));
            }
        }
    }

    private StalledZooKeeper stallZooKeeper() {
        StalledZooKeeper stalled = new StalledZooKeeper();
        zooKeeper = stalled::write;
        return stalled;
    }

    /** Follower 2 falls behind past the lag limit and the leader stores the ISR {0, 1}; the high watermark is 5. */
    private void aLaggingFollowerLeavesTheIsr() {
        followerTwoDiesWhileOneKeepsUp();
        partition.maybeShrinkIsr(LAG_MS);
        assertThat(partition.isrSize()).isEqualTo(2);
        assertThat(partition.highWatermark()).isEqualTo(5);
    }

    @Test
    void anIsrShrinkThatCannotBeStoredDoesNotCountForTheHighWatermark() {
        followerTwoDiesWhileOneKeepsUp();
        zooKeeper = proposed -> CompletableFuture.failedFuture(new org.apache.kafka.common.errors.TimeoutException("ZooKeeper unavailable"));
        partition.maybeShrinkIsr(LAG_MS);
        assertThat(partition.highWatermark()).as("KIP-497: the ISR the controller may elect from still has broker 2").isZero();
        assertThat(partition.isrSize()).isEqualTo(3);
        assertThat(isrChanges.shrinks()).as("only stored changes count").isZero();
    }

    @Test
    void theControllersIsrChangeAtTheSameEpochMovesTheHighWatermarkAtOnce() {
        followerTwoDiesWhileOneKeepsUp();
        boolean newLeadership = partition.makeLeader(new PartitionState(0, 4, PartitionState.UNKNOWN_BROKER_EPOCH, List.of(0, 1), 2, 1, 7),
                REPLICAS);
        assertThat(newLeadership).as("the same epoch: an ISR update only").isFalse();
        assertThat(partition.isrSize()).isEqualTo(2);
        assertThat(partition.highWatermark()).as("without waiting for another fetch of follower 1").isEqualTo(5);
    }

    @Test
    void anIsrShrinkThatLosesToTheControllerAdoptsWhatIsStoredWithoutWaitingForAWatch() {
        followerTwoDiesWhileOneKeepsUp();
        // The controller removed broker 2 first, at the same leader epoch: the leader's compare-and-set fails.
        zooKeeper = proposed -> CompletableFuture.completedFuture(Partition.IsrWrite.lost(Optional.of(new PartitionState(0, 4,
                PartitionState.UNKNOWN_BROKER_EPOCH, List.of(0, 1), 2, proposed.zkVersion() + 1, 9))));
        partition.maybeShrinkIsr(LAG_MS);
        assertThat(highWatermarkMovesByIsrWrites).as("the high watermark moved").hasValue(1);
        assertThat(partition.isrSize()).isEqualTo(2);
        assertThat(partition.highWatermark()).isEqualTo(5);
        assertThat(isrChanges.shrinks()).as("the controller's change, not this leader's").isZero();
    }

    @Test
    void anIsrExpansionWhoseWriteMayHaveBeenStoredCountsTheNewMemberAtOnce() {
        followerTwoDiesWhileOneKeepsUp();
        partition.maybeShrinkIsr(LAG_MS);
        assertThat(partition.isrSize()).isEqualTo(2);
        // Broker 2 catches up; the write of ISR [0, 1, 2] reaches ZooKeeper, but its answer is lost with the connection.
        zooKeeper = proposed -> CompletableFuture.failedFuture(
                new org.apache.kafka.common.errors.TimeoutException("ZooKeeper unavailable: connection loss"));
        partition.recordFollowerFetch(2, 5, 4);
        append(5, (short) -1);
        partition.recordFollowerFetch(1, 10, 4);
        assertThat(partition.highWatermark()).as("KIP-497: broker 2 may be in the stored ISR, and elected, without records 5-9")
                .isEqualTo(5);
        partition.recordFollowerFetch(2, 10, 4);
        assertThat(partition.highWatermark()).isEqualTo(10);
    }

    @Test
    void acksAllNeedsMinInsyncReplicasButAcksOneDoesNot() {
        partition.makeLeader(new PartitionState(0, 4, PartitionState.UNKNOWN_BROKER_EPOCH, List.of(0), 1, 1, 0), REPLICAS);
        assertThatThrownBy(() -> append(1, (short) -1)).isInstanceOf(NotEnoughReplicasException.class);
        append(1, (short) 1);
        assertThat(partition.highWatermark()).as("the ISR is the leader alone").isEqualTo(1);
    }

    @Test
    void aTopicOverrideOfMinInsyncReplicasTakesEffectAtOnce() {
        partition.makeLeader(new PartitionState(0, 4, PartitionState.UNKNOWN_BROKER_EPOCH, List.of(0, 1), 1, 1, 0), REPLICAS);
        append(1, (short) -1);
        partition.log().updateConfig(partition.log().config().withTopicOverrides(Map.of(LogConfig.MIN_IN_SYNC_REPLICAS, "3")));
        assertThatThrownBy(() -> append(1, (short) -1)).isInstanceOf(NotEnoughReplicasException.class)
                .hasMessageContaining("min.insync.replicas=3");
        partition.log().updateConfig(partition.log().config().withTopicOverrides(Map.of(LogConfig.MIN_IN_SYNC_REPLICAS, "1")));
        partition.makeLeader(new PartitionState(0, 4, PartitionState.UNKNOWN_BROKER_EPOCH, List.of(0), 1, 2, 0), REPLICAS);
        append(1, (short) -1);
        assertThat(partition.log().logEndOffset()).isEqualTo(2);
    }

    @Test
    void aRestartedLeaderStartsAtItsCheckpointedHighWatermarkNotAtZero() {
        append(5, (short) 1);
        Partition restarted = reopened(3);
        restarted.makeLeader(new PartitionState(0, 5, PartitionState.UNKNOWN_BROKER_EPOCH, REPLICAS, 1, 0, 0), REPLICAS);
        assertThat(restarted.highWatermark()).as("followers have not fetched yet").isEqualTo(3);
        assertThat(reopened(9).highWatermark()).as("never above the log end").isEqualTo(5);
        assertThat(reopened(0).highWatermark()).isZero();
    }

    private Partition reopened(long checkpointedHighWatermark) {
        return new Partition(TP, partition.log(), new IdempotentAppender(),
                (tp, proposed) -> CompletableFuture.completedFuture(Partition.IsrWrite.lost(Optional.empty())), new IsrChanges(),
                id -> true, () -> { }, 0, checkpointedHighWatermark, time);
    }

    @Test
    void aFollowerBehindTheLeadersLogStartEmptiesItsLogAndStartsThere() {
        append(5, (short) 1);
        partition.makeFollower(new PartitionState(1, 5, PartitionState.UNKNOWN_BROKER_EPOCH, REPLICAS, 1, 1, 0), REPLICAS);
        partition.truncateFullyAndStartAt(100, 4);
        assertThat(partition.log().logEndOffset()).as("ignored at an old epoch").isEqualTo(5);

        partition.truncateFullyAndStartAt(100, 5);

        assertThat(partition.log().logStartOffset()).isEqualTo(100);
        assertThat(partition.log().logEndOffset()).isEqualTo(100);
        assertThat(partition.highWatermark()).isEqualTo(100);
        assertThat(partition.epochs().latestEpoch()).isEqualTo(-1);
        partition.appendAsFollower(MemoryRecords.withRecords(100, Compression.NONE, 5,
                new SimpleRecord("next".getBytes(StandardCharsets.UTF_8))), 101, 100, 5);
        assertThat(partition.log().logEndOffset()).isEqualTo(101);
        assertThat(partition.epochs().latestEpoch()).isEqualTo(5);
    }

    @Test
    void staleEpochsAndLostLeadershipAreRefused() {
        assertThatThrownBy(() -> partition.recordFollowerFetch(1, 0, 3)).isInstanceOf(FencedLeaderEpochException.class);
        partition.makeFollower(new PartitionState(1, 5, PartitionState.UNKNOWN_BROKER_EPOCH, REPLICAS, 1, 1, 0), REPLICAS);
        assertThatThrownBy(() -> append(1, (short) 1)).isInstanceOf(NotLeaderOrFollowerException.class);
        assertThatThrownBy(() -> partition.leaderHighWatermark(-1)).isInstanceOf(NotLeaderOrFollowerException.class);
    }
}

package io.tributary.broker.log;

import static io.tributary.broker.log.TestRecords.batchAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.testing.FakeTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.errors.LogDirNotFoundException;
import org.apache.kafka.common.record.internal.Records;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log manager's part of a move between log dirs (KIP-113): the future log in its {@code -future} folder, the swap
 * that makes it the partition's log, and what a start-up makes of a move the broker stopped in the middle of. The
 * future log is filled here with the batches the log holds, as the replica layer copies them.
 */
class LogDirMoveLogTest {
    private static final TopicPartition A0 = new TopicPartition("alpha", 0);
    private static final String FUTURE_FOLDER = "alpha-0\\.[0-9a-f]{32}-future";
    private static final String DELETED_FOLDER = "alpha-0\\.[0-9a-f]{32}-delete";
    private static final long DELETE_DELAY_MS = 60_000;

    @TempDir
    Path root;

    private final FakeTime time = new FakeTime();
    private FakeScheduler scheduler;
    private List<Path> dirs;
    private LogConfig defaults;
    private LogManager manager;

    @BeforeEach
    void setUp() {
        dirs = List.of(root.resolve("d1").toAbsolutePath(), root.resolve("d2").toAbsolutePath());
        Map<String, Object> props = new HashMap<>();
        props.put(LogConfig.LOG_INDEX_SIZE_MAX_BYTES, 4096);
        props.put(LogConfig.LOG_SEGMENT_DELETE_DELAY_MS, DELETE_DELAY_MS);
        defaults = LogConfig.fromBroker(props);
        open(dirs);
    }

    @AfterEach
    void tearDown() {
        manager.close();
    }

    private void open(List<Path> logDirs) {
        scheduler = new FakeScheduler(time);
        manager = LogManager.open(logDirs, defaults, time, scheduler);
    }

    private void reopen() {
        manager.close();
        open(dirs);
    }

    /** The log of alpha-0 in d1 with records 0-9, and its empty future log in d2. */
    private PartitionLog moving() {
        PartitionLog log = manager.getOrCreate(A0, defaults);
        log.appendAsFollower(batchAt(0, 5, 1));
        log.appendAsFollower(batchAt(5, 5, 2));
        assertThat(log.dir().getParent()).isEqualTo(dirs.get(0));
        return manager.createFuture(A0, dirs.get(1));
    }

    /** What the replica layer does: the log's batches onto the future log, the same bytes. */
    private static void copyAll(PartitionLog future) {
        future.appendAsFollower(batchAt(0, 5, 1));
        future.appendAsFollower(batchAt(5, 5, 2));
    }

    @Test
    void theFutureLogReplacesTheLogAndTheReplacedOneGoesOnceReadsInFlightHadTheirTime() throws Exception {
        PartitionLog future = moving();
        PartitionLog log = manager.log(A0).orElseThrow();
        assertThat(future.dir().getParent()).isEqualTo(dirs.get(1));
        assertThat(future.dir().getFileName().toString()).matches(FUTURE_FOLDER);
        assertThat(manager.futureLog(A0)).containsSame(future);
        assertThat(manager.futureLogDirOf(A0)).contains(dirs.get(1));
        copyAll(future);
        Records inFlight = log.read(0, 100_000, Long.MAX_VALUE, true).records();

        manager.replaceCurrentWithFuture(A0);

        assertThat(manager.log(A0)).containsSame(future);
        assertThat(manager.logDirOf(A0)).contains(dirs.get(1));
        assertThat(manager.futureLog(A0)).isEmpty();
        assertThat(future.dir()).isEqualTo(dirs.get(1).resolve("alpha-0"));
        assertThat(folderNames(dirs.get(1))).containsExactly("alpha-0");
        assertThat(folderNames(dirs.get(0))).singleElement().asString().matches(DELETED_FOLDER);
        PartitionLog replaced = log;
        assertThatThrownBy(() -> replaced.appendAsLeader(TestRecords.batch(1, 10, 3), 0))
                .as("the replaced log takes nothing more").isInstanceOf(KafkaStorageException.class);
        assertThat(TestRecords.offsets(inFlight)).as("a read in flight finishes").hasSize(10);
        future.appendAsLeader(TestRecords.batch(2, 10, 3), 0);
        assertThat(future.logEndOffset()).isEqualTo(12);

        scheduler.advance(DELETE_DELAY_MS - 1);
        assertThat(folderNames(dirs.get(0))).hasSize(1);
        scheduler.advance(1);
        assertThat(folderNames(dirs.get(0))).isEmpty();
        assertThat(Files.readAllLines(dirs.get(0).resolve(LogDir.RECOVERY_POINT_CHECKPOINT))).doesNotContain("alpha 0 10");

        reopen();
        PartitionLog loaded = manager.log(A0).orElseThrow();
        assertThat(loaded.dir()).isEqualTo(dirs.get(1).resolve("alpha-0"));
        assertThat(TestRecords.offsets(loaded.read(0, 100_000, Long.MAX_VALUE, true).records())).hasSize(12);
    }

    @Test
    void aStartUpAfterACrashInTheMiddleOfAMoveLoadsTheFutureLogBesideTheLog() throws Exception {
        PartitionLog future = moving();
        future.appendAsFollower(batchAt(0, 5, 1));
        future.flush();
        manager.writeCheckpoints();
        List<Path> crashed = copyAsACrashLeavesThem();
        manager.close();
        open(crashed);
        assertThat(manager.log(A0).orElseThrow().logEndOffset()).isEqualTo(10);
        assertThat(manager.logDirOf(A0)).contains(crashed.get(0));
        PartitionLog loaded = manager.futureLog(A0).orElseThrow();
        assertThat(loaded.logEndOffset()).as("recovered from its recovery point").isEqualTo(5);
        assertThat(loaded.dir().getFileName().toString()).matches(FUTURE_FOLDER);
        assertThat(manager.futureLogDirOf(A0)).contains(crashed.get(1));
    }

    /** The only state between the two renames of the swap: the log's folder renamed for deletion, the future's not yet. */
    @Test
    void aStartUpAfterACrashOnceTheMoveCommittedCompletesIt() throws Exception {
        PartitionLog future = moving();
        copyAll(future);
        manager.close();
        Path log = dirs.get(0).resolve("alpha-0");
        Files.move(log, log.resolveSibling(PartitionFolderNames.deletionName(A0)));
        open(dirs);
        PartitionLog promoted = manager.log(A0).orElseThrow();
        assertThat(promoted.dir()).isEqualTo(dirs.get(1).resolve("alpha-0"));
        assertThat(manager.futureLog(A0)).isEmpty();
        assertThat(TestRecords.offsets(promoted.read(0, 100_000, Long.MAX_VALUE, true).records())).hasSize(10);
        scheduler.runDue();
        assertThat(folderNames(dirs.get(0))).isEmpty();
    }

    @Test
    void aCancelledMoveAndADeletedPartitionTakeTheirFutureLogAlong() throws Exception {
        moving();
        manager.deleteFuture(A0);
        assertThat(manager.futureLog(A0)).isEmpty();
        scheduler.runDue();
        assertThat(folderNames(dirs.get(1))).isEmpty();

        manager.createFuture(A0, dirs.get(1));
        manager.delete(List.of(A0));
        scheduler.runDue();
        assertThat(folderNames(dirs.get(0))).isEmpty();
        assertThat(folderNames(dirs.get(1))).isEmpty();
        reopen();
        assertThat(manager.logs()).isEmpty();
        assertThat(manager.futureLogs()).isEmpty();
    }

    @Test
    void aMoveGoesOnlyToAnOnlineLogDirOfThisBrokerAndAReplicaNotHereYetIsCreatedThere() throws Exception {
        assertThat(manager.moveDestination(A0, dirs.get(1).toString())).isEqualTo(dirs.get(1));
        assertThatThrownBy(() -> manager.moveDestination(A0, root.resolve("d3").toString()))
                .isInstanceOf(LogDirNotFoundException.class);
        assertThatThrownBy(() -> manager.moveDestination(A0, "d1")).as("relative").isInstanceOf(LogDirNotFoundException.class);
        assertThatThrownBy(() -> manager.moveDestination(new TopicPartition("t".repeat(220), 0), dirs.get(1).toString()))
                .as("its future folder would not fit a file name").isInstanceOf(InvalidTopicException.class);

        manager.preferLogDir(A0, dirs.get(1));
        assertThat(manager.getOrCreate(A0, defaults).dir()).isEqualTo(dirs.get(1).resolve("alpha-0"));

        Files.move(dirs.get(0), root.resolve("unmounted"));
        assertThat(manager.isOnline(dirs.get(0))).isFalse();
        assertThatThrownBy(() -> manager.moveDestination(A0, dirs.get(0).toString()))
                .isInstanceOf(KafkaStorageException.class).hasMessageContaining("offline");
        Files.move(root.resolve("unmounted"), dirs.get(0));
    }

    /** The log dirs as they are on disk now, without the lock: what a crash at this moment leaves behind. */
    private List<Path> copyAsACrashLeavesThem() throws Exception {
        List<Path> crashed = List.of(root.resolve("c1").toAbsolutePath(), root.resolve("c2").toAbsolutePath());
        for (int i = 0; i < 2; i++) {
            LogFixture.copyRecursively(dirs.get(i), crashed.get(i));
            Files.deleteIfExists(crashed.get(i).resolve(LogDir.LOCK_FILE));
        }
        return crashed;
    }

    private static List<String> folderNames(Path dir) throws Exception {
        try (var children = Files.list(dir)) {
            return children.filter(Files::isDirectory).map(p -> p.getFileName().toString()).toList();
        }
    }
}

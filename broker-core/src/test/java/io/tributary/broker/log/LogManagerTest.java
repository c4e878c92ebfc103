package io.tributary.broker.log;

import static io.tributary.broker.log.TestRecords.batch;
import static io.tributary.broker.log.TestRecords.batchAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.FakeTime;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.errors.LogDirNotFoundException;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Records;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogManagerTest {

    private static final TopicPartition A0 = new TopicPartition("alpha", 0);
    private static final TopicPartition A1 = new TopicPartition("alpha", 1);
    private static final TopicPartition B0 = new TopicPartition("beta-with-dashes", 0);
    private static final String FUTURE_FOLDER = "alpha-0\\.[0-9a-f]{32}-future";
    private static final String DELETED_FOLDER = "alpha-0\\.[0-9a-f]{32}-delete";

    @TempDir
    Path root;

    private final FakeTime time = new FakeTime();
    private FakeScheduler scheduler;
    private List<Path> dirs;
    private LogConfig defaults;
    private LogManager manager;

    @BeforeEach
    void setUp() {
        dirs = List.of(root.resolve("d1"), root.resolve("d2"));
        defaults = brokerConfig(Map.of());
    }

    @AfterEach
    void tearDown() {
        if (manager != null) {
            manager.close();
        }
    }

    private static LogConfig brokerConfig(Map<String, Object> overrides) {
        Map<String, Object> props = new HashMap<>(overrides);
        props.putIfAbsent(LogConfig.LOG_INDEX_SIZE_MAX_BYTES, 4096);
        return LogConfig.fromBroker(props);
    }

    private LogManager open(List<Path> logDirs) {
        scheduler = new FakeScheduler(time);
        manager = LogManager.open(logDirs, defaults, time, scheduler);
        return manager;
    }

    private void reopen() {
        manager.close();
        open(dirs);
    }

    @Test
    void createsPartitionFoldersSpreadOverTheLogDirs() {
        open(dirs);
        PartitionLog a0 = manager.getOrCreate(A0, defaults);
        PartitionLog a1 = manager.getOrCreate(A1, defaults);
        PartitionLog b0 = manager.getOrCreate(B0, defaults);
        assertThat(manager.getOrCreate(A0, defaults)).isSameAs(a0);
        assertThat(a0.dir()).isEqualTo(dirs.get(0).resolve("alpha-0"));
        assertThat(a1.dir()).isEqualTo(dirs.get(1).resolve("alpha-1"));
        assertThat(b0.dir()).isEqualTo(dirs.get(0).resolve("beta-with-dashes-0"));
        assertThat(manager.logs()).hasSize(3);
        assertThat(manager.log(new TopicPartition("alpha", 9))).isEmpty();
    }

    @Test
    void aCleanShutdownWritesCheckpointsAndMarkersAndTheNextStartLoadsEverything() throws Exception {
        open(dirs);
        manager.getOrCreate(A0, defaults).appendAsLeader(batch(5, 10, 1), 0);
        manager.getOrCreate(B0, defaults).appendAsLeader(batch(2, 10, 1), 0);
        manager.getOrCreate(A1, defaults);
        manager.close();
        for (Path dir : dirs) {
            assertThat(dir.resolve(LogDir.CLEAN_SHUTDOWN_MARKER)).exists();
        }
        assertThat(Files.readAllLines(dirs.get(0).resolve(LogDir.RECOVERY_POINT_CHECKPOINT)))
                .startsWith("0", "2").contains("alpha 0 5", "alpha 1 0");
        assertThat(Files.readAllLines(dirs.get(1).resolve(LogDir.RECOVERY_POINT_CHECKPOINT)))
                .containsExactly("0", "1", "beta-with-dashes 0 2");
        open(dirs);
        assertThat(manager.logs()).hasSize(3);
        assertThat(manager.log(A0).orElseThrow().logEndOffset()).isEqualTo(5);
        assertThat(manager.log(B0).orElseThrow().logEndOffset()).isEqualTo(2);
        assertThat(manager.log(A1).orElseThrow().dir()).isEqualTo(dirs.get(0).resolve("alpha-1"));
        assertThat(dirs.get(0).resolve(LogDir.CLEAN_SHUTDOWN_MARKER)).as("consumed at start-up").doesNotExist();
    }

    /** The log dirs as they are on disk now, without the lock: what a crash at this moment leaves behind. */
    private List<Path> copyAsACrashLeavesThem() throws IOException {
        List<Path> crashed = List.of(root.resolve("c1"), root.resolve("c2"));
        for (int i = 0; i < 2; i++) {
            LogFixture.copyRecursively(dirs.get(i), crashed.get(i));
            Files.deleteIfExists(crashed.get(i).resolve(LogDir.LOCK_FILE));
        }
        return crashed;
    }

    @Test
    void afterACrashTheLogsAreRecoveredFromTheirRecoveryPoints() throws Exception {
        open(dirs);
        PartitionLog a0 = manager.getOrCreate(A0, defaults);
        a0.appendAsLeader(batch(5, 10, 1), 0);
        manager.writeCheckpoints();
        a0.appendAsLeader(batch(5, 10, 1), 0);
        List<Path> crashed = copyAsACrashLeavesThem();
        Path segment = SegmentFiles.log(crashed.get(0).resolve("alpha-0"), 0);
        try (RandomAccessFile raf = new RandomAccessFile(segment.toFile(), "rw")) {
            raf.setLength(raf.length() - 3); // torn write of the second batch
        }
        manager.close();
        open(crashed);
        PartitionLog recovered = manager.log(A0).orElseThrow();
        assertThat(recovered.logEndOffset()).isEqualTo(5);
        assertThat(TestRecords.offsets(recovered.read(0, 10_000, Long.MAX_VALUE, false).records()))
                .containsExactly(0L, 1L, 2L, 3L, 4L);
    }

    @Test
    void aLogStartMovedByDeleteRecordsSurvivesACrashOnceCheckpointed() throws Exception {
        open(dirs);
        PartitionLog a0 = manager.getOrCreate(A0, defaults);
        a0.appendAsLeader(batch(10, 10, 1), 0);
        a0.flush();
        a0.advanceLogStartOffset(4);
        manager.checkpointLogStartOffsets();
        List<Path> crashed = copyAsACrashLeavesThem();
        manager.close();
        open(crashed);
        PartitionLog recovered = manager.log(A0).orElseThrow();
        assertThat(recovered.logStartOffset()).isEqualTo(4);
        assertThat(recovered.logEndOffset()).isEqualTo(10);
        assertThatThrownBy(() -> recovered.read(3, 10_000, Long.MAX_VALUE, false))
                .isInstanceOf(OffsetOutOfRangeException.class);
        reopen();
        assertThat(manager.log(A0).orElseThrow().logStartOffset()).as("after a clean restart too").isEqualTo(4);
    }

    @Test
    void aPartitionCreatedAgainDoesNotInheritTheLogStartOfTheOneDeletedBeforeACrash() throws Exception {
        Files.createDirectories(dirs.get(0));
        new OffsetCheckpointFile(dirs.get(0).resolve(LogDir.LOG_START_OFFSET_CHECKPOINT)).write(Map.of(A0, 42L));
        open(dirs);
        manager.getOrCreate(A0, defaults).appendAsLeader(batch(10, 10, 1), 0);
        List<Path> crashed = copyAsACrashLeavesThem();
        manager.close();
        open(crashed);
        assertThat(manager.log(A0).orElseThrow().logStartOffset()).isZero();
    }

    @Test
    void topicNamesThatAreNotLegalFolderNamesAreRejected() {
        open(dirs);
        assertThatThrownBy(() -> manager.getOrCreate(new TopicPartition("../escape", 0), defaults))
                .isInstanceOf(InvalidTopicException.class);
        assertThat(root.resolve("escape-0")).doesNotExist();
        assertThat(manager.logs()).isEmpty();
    }

    @Test
    void aLogDirCanBeOpenedByOneManagerOnly() {
        open(dirs);
        assertThatThrownBy(() -> LogManager.open(List.of(dirs.get(1)), defaults, time, new FakeScheduler(time)))
                .isInstanceOf(KafkaStorageException.class).hasMessageContaining("in use");
    }

    @Test
    void deletingAPartitionRemovesItsFolderInTheBackground() throws Exception {
        open(dirs);
        PartitionLog a0 = manager.getOrCreate(A0, defaults);
        a0.appendAsLeader(batch(5, 10, 1), 0);
        manager.delete(List.of(A0));
        assertThat(manager.log(A0)).isEmpty();
        assertThat(a0.dir()).doesNotExist();
        assertThat(folderNames(dirs.get(0))).singleElement().asString().startsWith("alpha-0.").endsWith("-delete");
        scheduler.runDue();
        assertThat(folderNames(dirs.get(0))).isEmpty();
        reopen();
        assertThat(manager.logs()).isEmpty();
    }

    @Test
    void deletingAPartitionFreesTheBlocksOfItsMappedSegmentsAtOnce() throws Exception {
        open(dirs);
        PartitionLog a0 = manager.getOrCreate(A0, defaults.withTopicOverrides(Map.of(LogConfig.SEGMENT_BYTES,
                String.valueOf(batch(5, 10, 1).sizeInBytes()))));
        a0.appendAsLeader(batch(5, 10, 1), 0);
        a0.appendAsLeader(batch(5, 10, 2), 0);
        assertThat(a0.read(0, 1000, Long.MAX_VALUE, true).records()).isInstanceOf(MemoryRecords.class); // mapped
        Path firstSegment = SegmentFiles.log(a0.dir(), 0);
        try (FileChannel stillOpen = FileChannel.open(firstSegment, StandardOpenOption.READ)) {
            manager.delete(List.of(A0));
            scheduler.runDue();
            // The mapping lives until the GC collects it; the blocks it would hold are freed now.
            assertThat(stillOpen.size()).isZero();
        }
        assertThat(folderNames(dirs.get(0))).isEmpty();
    }

    /** A topic created before the name rules, whose {@code <folder>.<32 hex>-delete} name would pass 255 bytes. */
    @Test
    void aPartitionWithALongTopicNameCanBeDeletedAndItsLeftoverIsRecognisedAtStartUp() throws Exception {
        TopicPartition longName = new TopicPartition("t".repeat(240), 7);
        open(dirs);
        PartitionLog log = manager.getOrCreate(longName, defaults);
        log.appendAsLeader(batch(5, 10, 1), 0);
        Path dir = log.dir().getParent();
        manager.delete(List.of(longName));
        assertThat(manager.log(longName)).isEmpty();
        String deletionName = folderNames(dir).get(0);
        assertThat(deletionName.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isLessThanOrEqualTo(255);
        assertThat(deletionName).startsWith("tttt").contains("-7.").endsWith("-delete");

        manager.close(); // before the background delete ran: the next start-up must finish it
        open(dirs);
        assertThat(manager.logs()).isEmpty();
        scheduler.runDue();
        assertThat(folderNames(dir)).isEmpty();
    }

    @Test
    void leftoversOfAnInterruptedDeleteAreRemovedAtStartUp() throws Exception {
        Files.createDirectories(dirs.get(1).resolve("alpha-0.abc-delete"));
        open(dirs);
        scheduler.runDue();
        assertThat(folderNames(dirs.get(1))).isEmpty();
    }

    @Test
    void retentionRunsEveryCheckIntervalOnTheSchedulerClock() {
        defaults = brokerConfig(Map.of(LogConfig.LOG_RETENTION_CHECK_INTERVAL_MS, 1000L,
                LogConfig.LOG_RETENTION_MS, 5000L, LogConfig.LOG_SEGMENT_BYTES, batch(2, 10, 0).sizeInBytes()));
        open(dirs);
        PartitionLog log = manager.getOrCreate(A0, defaults);
        for (int i = 0; i < 3; i++) {
            log.appendAsLeader(batch(2, 10, time.milliseconds()), 0);
        }
        assertThat(log.numberOfSegments()).isEqualTo(3);
        scheduler.advance(5000);
        assertThat(log.numberOfSegments()).as("not older than retention.ms yet").isEqualTo(3);
        scheduler.advance(1000);
        assertThat(log.numberOfSegments()).isEqualTo(1);
        assertThat(log.logStartOffset()).isEqualTo(4);
    }

    @Test
    void theFlusherFlushesLogsWhoseFlushMsHasPassed() {
        defaults = brokerConfig(Map.of(LogConfig.LOG_FLUSH_SCHEDULER_INTERVAL_MS, 500L,
                LogConfig.LOG_FLUSH_INTERVAL_MS, 2000L));
        open(dirs);
        PartitionLog log = manager.getOrCreate(A0, defaults);
        log.appendAsLeader(batch(3, 10, 1), 0);
        scheduler.advance(1500);
        assertThat(log.recoveryPoint()).isZero();
        scheduler.advance(500);
        assertThat(log.recoveryPoint()).isEqualTo(3);
    }

    @Test
    void recoveryPointsAreCheckpointedPeriodically() throws Exception {
        defaults = brokerConfig(Map.of(LogConfig.LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS, 1000));
        open(dirs);
        PartitionLog log = manager.getOrCreate(A0, defaults);
        log.appendAsLeader(batch(3, 10, 1), 0);
        log.flush();
        scheduler.advance(1000);
        assertThat(new OffsetCheckpointFile(dirs.get(0).resolve(LogDir.RECOVERY_POINT_CHECKPOINT)).read())
                .containsEntry(A0, 3L);
    }

    @Test
    void topicConfigChangesReachOnlyThatTopic() {
        open(dirs);
        manager.getOrCreate(A0, defaults);
        manager.getOrCreate(B0, defaults);
        LogConfig changed = defaults.withTopicOverrides(Map.of(LogConfig.RETENTION_MS, "1234"));
        manager.updateConfig("alpha", changed);
        assertThat(manager.log(A0).orElseThrow().config().retentionMs()).isEqualTo(1234);
        assertThat(manager.log(B0).orElseThrow().config().retentionMs()).isEqualTo(defaults.retentionMs());
    }

    @Test
    void thePublicOpenRunsTheBackgroundTasksOnWallTime() {
        LogConfig fast = brokerConfig(Map.of(LogConfig.LOG_RETENTION_CHECK_INTERVAL_MS, 20L,
                LogConfig.LOG_RETENTION_BYTES, 0L, LogConfig.LOG_SEGMENT_BYTES, batch(2, 10, 0).sizeInBytes()));
        manager = LogManager.open(dirs, fast, Time.SYSTEM);
        PartitionLog log = manager.getOrCreate(A0, fast);
        for (int i = 0; i < 3; i++) {
            log.appendAsLeader(batch(2, 10, System.currentTimeMillis()), 0);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> log.numberOfSegments() == 1);
        assertThat(log.logStartOffset()).isEqualTo(4);
    }

    // Moves between log dirs (KIP-113): the log manager's part. The future log is filled here as the replica layer
    // copies the log, with the same batches.

    /** The log of alpha-0 in d1 with records 0-9, and its empty future log in d2. */
    private PartitionLog moving() {
        open(dirs);
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

        scheduler.advance(defaults.fileDeleteDelayMs() - 1);
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
        open(dirs);
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

    private static List<String> folderNames(Path dir) throws Exception {
        try (var children = Files.list(dir)) {
            return children.filter(Files::isDirectory).map(p -> p.getFileName().toString()).toList();
        }
    }
}

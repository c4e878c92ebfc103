package io.tributary.broker.log;

import static io.tributary.broker.log.TestRecords.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.errors.OffsetMovedToTieredStorageException;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiered log (remote.storage.enable): local retention deletes only what the remote part holds, the log start
 * offset stays below the local segments, and reads in between are sent to remote storage. One batch of 2 records per
 * segment: segments at 0, 2, 4, ...
 */
class TieredPartitionLogTest {
    private static final int BATCH_BYTES = batch(2, 50, 0).sizeInBytes();

    @TempDir
    Path root;

    private LogFixture fixture;

    private PartitionLog tieredLog(int segments, Map<String, String> overrides) throws Exception {
        fixture = new LogFixture(root, Map.of());
        Map<String, String> all = new HashMap<>(overrides);
        all.put(LogConfig.SEGMENT_BYTES, String.valueOf(BATCH_BYTES));
        all.put(LogConfig.SEGMENT_INDEX_BYTES, "4096");
        all.put(LogConfig.FILE_DELETE_DELAY_MS, "1000");
        all.put(LogConfig.REMOTE_STORAGE_ENABLE, "true");
        fixture.config = LogConfig.fromBroker(Map.of(LogConfig.REMOTE_LOG_STORAGE_SYSTEM_ENABLE, "true")).withTopicOverrides(all);
        PartitionLog log = fixture.open();
        for (int i = 0; i < segments; i++) {
            log.appendAsLeader(batch(2, 50, fixture.time.milliseconds()), 0);
        }
        return log;
    }

    @Test
    void localRetentionDeletesOnlyTheSegmentsTheRemotePartHolds() throws Exception {
        PartitionLog log = tieredLog(5, Map.of(LogConfig.LOCAL_RETENTION_BYTES, String.valueOf(BATCH_BYTES)));

        assertThat(log.deleteOldSegments()).as("nothing is copied yet").isZero();
        log.updateRemoteTier(0, 4);
        assertThat(log.deleteOldSegments()).as("the segments ending at 2 and 4").isEqualTo(2);

        assertThat(log.segments()).extracting(LogSegment::baseOffset).containsExactly(4L, 6L, 8L);
        assertThat(log.localLogStartOffset()).isEqualTo(4);
        assertThat(log.logStartOffset()).as("the remote part is readable").isZero();
        assertThatThrownBy(() -> log.read(1, 1000, Long.MAX_VALUE, false))
                .isInstanceOf(OffsetMovedToTieredStorageException.class).hasMessageContaining("local log starts at 4");
        assertThat(TestRecords.offsets(log.read(4, 1000, Long.MAX_VALUE, false).records())).startsWith(4L, 5L);

        log.appendAsLeader(batch(2, 50, fixture.time.milliseconds()), 0); // rolls
        assertThat(log.logStartOffset()).as("a roll keeps the remote part").isZero();
    }

    @Test
    void theWholeLogsRetentionDoesNotDeleteLocalSegmentsThatAreNotCopied() throws Exception {
        PartitionLog log = tieredLog(4, Map.of(LogConfig.RETENTION_MS, "1000", LogConfig.LOCAL_RETENTION_MS, "1000"));
        fixture.time.sleep(5_000);

        assertThat(log.deleteOldSegments()).isZero();
        log.updateRemoteTier(0, 2);
        assertThat(log.deleteOldSegments()).isEqualTo(1);
        assertThat(log.localLogStartOffset()).isEqualTo(2);
    }

    @Test
    void theLogStartFollowsTheRemoteStartUpAndNeverBack() throws Exception {
        PartitionLog log = tieredLog(5, Map.of(LogConfig.LOCAL_RETENTION_BYTES, "0"));
        log.updateRemoteTier(0, 6);
        log.deleteOldSegments();
        assertThat(log.localLogStartOffset()).isEqualTo(6);

        log.updateRemoteTier(2, 6); // remote retention deleted the first copy
        assertThat(log.logStartOffset()).isEqualTo(2);
        assertThatThrownBy(() -> log.read(1, 1000, Long.MAX_VALUE, false)).isInstanceOf(OffsetOutOfRangeException.class)
                .hasMessageContaining("first available offset is 2");
        log.updateRemoteTier(0, 6);
        assertThat(log.logStartOffset()).isEqualTo(2);
        log.updateRemoteTier(6, 6); // every copy expired
        assertThat(log.logStartOffset()).isEqualTo(6);
    }

    @Test
    void deleteRecordsInTheRemotePartMovesOnlyTheLogStart() throws Exception {
        PartitionLog log = tieredLog(5, Map.of(LogConfig.LOCAL_RETENTION_BYTES, "0"));
        log.updateRemoteTier(0, 6);
        log.deleteOldSegments();

        assertThat(log.advanceLogStartOffset(3)).isEqualTo(3);
        assertThat(log.localLogStartOffset()).isEqualTo(6);
        assertThatThrownBy(() -> log.read(2, 1000, Long.MAX_VALUE, false)).isInstanceOf(OffsetOutOfRangeException.class);
        assertThatThrownBy(() -> log.read(3, 1000, Long.MAX_VALUE, false))
                .isInstanceOf(OffsetMovedToTieredStorageException.class);
    }

    @Test
    void aReopenedLogStartsWhereItsCheckpointSaysBelowItsLocalSegments() throws Exception {
        PartitionLog log = tieredLog(5, Map.of(LogConfig.LOCAL_RETENTION_BYTES, "0"));
        log.updateRemoteTier(0, 6);
        log.deleteOldSegments();
        fixture.scheduler.advance(1_000); // the deleted files go
        log.close();

        PartitionLog reopened = PartitionLog.open(LogFixture.TP, fixture.partitionDir(), fixture.config, fixture.time,
                fixture.scheduler, new FlushTimes(), 0L, 0L, true);

        assertThat(reopened.localLogStartOffset()).isEqualTo(6);
        assertThat(reopened.logStartOffset()).isZero();
        assertThat(reopened.remoteLogEndOffset()).as("until the remote part is read again").isEqualTo(PartitionLog.NOTHING_REMOTE);
        assertThat(reopened.deleteOldSegments()).isZero();
    }

    @Test
    void aFollowerRestartedAtItsLeadersLocalStartKeepsTheRemotePartBelow() throws Exception {
        PartitionLog log = tieredLog(1, Map.of());

        log.truncateFullyAndStartAt(10);

        assertThat(log.localLogStartOffset()).isEqualTo(10);
        assertThat(log.logStartOffset()).isZero();
        assertThat(log.logEndOffset()).isEqualTo(10);
    }

    @Test
    void closedSegmentFilesAreTheSegmentsToCopyWithTheirFiles() throws Exception {
        PartitionLog log = tieredLog(4, Map.of()); // closed: [0, 2), [2, 4), [4, 6); active from 6

        assertThat(log.closedSegmentFiles(0, 5)).extracting(ClosedSegmentFiles::baseOffset).containsExactly(0L, 2L);
        assertThat(log.closedSegmentFiles(3, 100)).extracting(ClosedSegmentFiles::baseOffset).containsExactly(2L, 4L);
        ClosedSegmentFiles first = log.closedSegmentFiles(0, 2).get(0);
        assertThat(first.endOffset()).isEqualTo(2);
        assertThat(first.sizeInBytes()).isEqualTo(BATCH_BYTES);
        assertThat(first.log().getFileName()).hasToString("00000000000000000000.log");
        assertThat(first.offsetIndex()).exists();
        assertThat(first.timeIndex()).exists();
        assertThat(first.txnIndex()).isEmpty();
    }

    @Test
    void aClosedSegmentIsNotOfferedForCopyingBeforeTheProducerSnapshotAtItsEndIsWritten() throws Exception {
        PartitionLog log = tieredLog(1, Map.of());
        ProducerStateManager.load(log, fixture.time.milliseconds()); // snapshots at each roll, on the log's scheduler
        log.appendAsLeader(batch(2, 50, fixture.time.milliseconds()), 0); // rolls at 2

        assertThat(log.closedSegmentFiles(0, 100)).as("its copy would lack the snapshot").isEmpty();
        fixture.scheduler.runDue();
        assertThat(log.closedSegmentFiles(0, 100)).singleElement().satisfies(segment -> {
            assertThat(segment.endOffset()).isEqualTo(2);
            assertThat(segment.producerSnapshot()).isPresent();
        });
    }

    @Test
    void producerSnapshotsAtTheEndsOfSegmentsNotYetCopiedOutliveTheNewestThree() throws Exception {
        PartitionLog log = tieredLog(6, Map.of()); // segments at 0, 2, ..., 10
        ProducerStateManager state = new ProducerStateManager();
        for (long end = 2; end <= 10; end += 2) {
            state.writeSnapshot(log, end);
        }
        assertThat(log.closedSegmentFiles(0, 10)).allSatisfy(segment -> assertThat(segment.producerSnapshot()).isPresent());

        log.updateRemoteTier(0, 6);
        state.writeSnapshot(log, 12);

        assertThat(Files.exists(ProducerStateManager.snapshotFile(log.dir(), 4))).as("copied, beyond the newest three").isFalse();
        assertThat(Files.exists(ProducerStateManager.snapshotFile(log.dir(), 6))).as("copied, beyond the newest three").isFalse();
        assertThat(Files.exists(ProducerStateManager.snapshotFile(log.dir(), 8))).isTrue();
    }
}

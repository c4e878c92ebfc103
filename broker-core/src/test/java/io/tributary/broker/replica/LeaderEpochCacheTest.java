package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.replica.LeaderEpochCache.EpochEnd;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeaderEpochCacheTest {
    @TempDir
    Path dir;
    private LogManager logs;
    private PartitionLog log;

    @BeforeEach
    void open() {
        LogConfig config = LogConfig.fromBroker(Map.of(LogConfig.LOG_DIRS, dir.toString()));
        logs = LogManager.open(List.of(dir), config, Time.SYSTEM);
        log = logs.getOrCreate(new TopicPartition("epochs", 0), config);
    }

    @AfterEach
    void close() {
        logs.close();
    }

    private void append(int count, int leaderEpoch) {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            records[i] = new SimpleRecord(("v" + i).getBytes(StandardCharsets.UTF_8));
        }
        log.appendAsLeader(MemoryRecords.withRecords(Compression.NONE, records), leaderEpoch);
    }

    @Test
    void anEmptyLogKnowsNoEpoch() {
        LeaderEpochCache cache = LeaderEpochCache.load(log);
        assertThat(cache.latestEpoch()).isEqualTo(-1);
        assertThat(cache.endOffsetFor(0, 0)).isEqualTo(EpochEnd.UNDEFINED);
        assertThat(log.dir().resolve(LeaderEpochCache.FILE_NAME)).as("nothing to sync for a new partition").doesNotExist();
        cache.assign(0, 0);
        assertThat(log.dir().resolve(LeaderEpochCache.FILE_NAME)).exists();
    }

    @Test
    void aMissingFileIsRebuiltFromTheBatchesAndEachEpochEndsWhereTheNextStarts() {
        append(3, 0);
        append(2, 2);
        LeaderEpochCache cache = LeaderEpochCache.load(log);
        assertThat(cache.entries()).containsExactly(Map.entry(0, 0L), Map.entry(2, 3L));
        assertThat(cache.endOffsetFor(0, 5)).isEqualTo(new EpochEnd(0, 3));
        assertThat(cache.endOffsetFor(1, 5)).as("an epoch this log never had: the one before it").isEqualTo(new EpochEnd(0, 3));
        assertThat(cache.endOffsetFor(2, 5)).as("the latest epoch ends at the log end").isEqualTo(new EpochEnd(2, 5));
        assertThat(cache.endOffsetFor(9, 5)).as("newer than every epoch known").isEqualTo(EpochEnd.UNDEFINED);
        assertThat(cache.endOffsetFor(-1, 5)).isEqualTo(EpochEnd.UNDEFINED);
    }

    @Test
    void anEpochOlderThanEveryEpochKnownEndsWhereTheEarliestKnownStarts() {
        // A replica restarted at its leader's log start 3 (retention or DeleteRecords deleted the first epochs there).
        log.truncateFullyAndStartAt(3);
        append(4, 3);
        append(2, 5);
        LeaderEpochCache cache = LeaderEpochCache.load(log);
        assertThat(cache.entries()).containsExactly(Map.entry(3, 3L), Map.entry(5, 7L));

        assertThat(cache.endOffsetFor(0, 9)).as("a consumer's position at offset 3, last read in epoch 0, is no truncation")
                .isEqualTo(new EpochEnd(0, 3));
        assertThat(cache.endOffsetFor(2, 9)).isEqualTo(new EpochEnd(2, 3));
        assertThat(cache.endOffsetFor(4, 9)).as("between two epochs: the one below").isEqualTo(new EpochEnd(3, 7));
        assertThat(cache.endOffsetFor(5, 9)).isEqualTo(new EpochEnd(5, 9));
    }

    @Test
    void assignmentsSurviveAReloadAndOlderEpochsAreIgnored() {
        append(3, 0);
        LeaderEpochCache cache = LeaderEpochCache.load(log);
        cache.assign(4, 3);
        cache.assign(1, 3);
        append(1, 4);
        assertThat(LeaderEpochCache.load(log).entries()).containsExactly(Map.entry(0, 0L), Map.entry(4, 3L));
    }

    @Test
    void truncationForgetsTheEpochsFromTheCutOnAndALoadDropsEpochsBeyondTheLogEnd() {
        append(3, 0);
        append(2, 2);
        LeaderEpochCache cache = LeaderEpochCache.load(log);
        cache.truncateFromEnd(3);
        assertThat(cache.latestEpoch()).isZero();

        cache.assign(2, 3);
        log.truncateTo(3);
        assertThat(LeaderEpochCache.load(log).entries()).containsExactly(Map.entry(0, 0L));
    }
}

package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.metrics.IsrChanges;
import io.tributary.broker.log.AppendOrigin;
import io.tributary.broker.log.IdempotentAppender;
import io.tributary.broker.controller.PartitionState;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.testing.FakeTime;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replication-offset-checkpoint of each log dir: what is written is read back at the next start. */
class HighWatermarkCheckpointsTest {
    @TempDir
    Path first;
    @TempDir
    Path second;
    private final FakeTime time = new FakeTime();

    @Test
    void eachLogDirKeepsTheHighWatermarksOfItsOwnReplicas() throws Exception {
        List<Path> dirs = List.of(first, second);
        try (LogManager logs = LogManager.open(dirs, LogConfig.fromBroker(Map.of()), time)) {
            List<Partition> replicas = new ArrayList<>();
            for (int p = 0; p < 4; p++) {
                replicas.add(leaderWithHighWatermark(logs.getOrCreate(new TopicPartition("t", p), LogConfig.defaults()), 10 + p));
            }
            HighWatermarkCheckpoints.load(dirs).write(replicas);
        }

        HighWatermarkCheckpoints loaded = HighWatermarkCheckpoints.load(dirs);
        for (int p = 0; p < 4; p++) {
            assertThat(loaded.highWatermark(new TopicPartition("t", p))).isEqualTo(10 + p);
        }
        assertThat(loaded.highWatermark(new TopicPartition("other", 0))).as("never checkpointed").isZero();
        assertThat(Files.readAllLines(first.resolve(HighWatermarkCheckpoints.FILE_NAME)).size()
                + Files.readAllLines(second.resolve(HighWatermarkCheckpoints.FILE_NAME)).size())
                .as("every replica in exactly one dir's file, after two header lines each").isEqualTo(4 + 4);
    }

    @Test
    void anUnreadableCheckpointCountsAsEmpty() throws Exception {
        Files.writeString(first.resolve(HighWatermarkCheckpoints.FILE_NAME), "0\n2\nt 0 17\n");
        assertThat(HighWatermarkCheckpoints.load(List.of(first)).highWatermark(new TopicPartition("t", 0))).isZero();
    }

    /** A leader alone in its ISR: its high watermark is its log end. */
    private Partition leaderWithHighWatermark(PartitionLog log, int records) {
        Partition partition = new Partition(log.topicPartition(), log, new IdempotentAppender(),
                (tp, proposed) -> CompletableFuture.completedFuture(Partition.IsrWrite.lost(Optional.empty())), new IsrChanges(),
                id -> true, () -> { }, 0, 0, time);
        partition.makeLeader(new PartitionState(0, 0, PartitionState.UNKNOWN_BROKER_EPOCH, List.of(0), 0, 0, 0), List.of(0));
        SimpleRecord[] batch = new SimpleRecord[records];
        for (int i = 0; i < records; i++) {
            batch[i] = new SimpleRecord(new byte[] {(byte) i});
        }
        partition.appendAsLeader(MemoryRecords.withRecords(Compression.NONE, batch), (short) 1, AppendOrigin.CLIENT, null);
        return partition;
    }
}

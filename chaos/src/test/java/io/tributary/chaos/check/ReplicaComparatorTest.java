package io.tributary.chaos.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import io.tributary.broker.log.OffsetCheckpointFile;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplicaComparatorTest {
    private static final TopicPartition PARTITION = new TopicPartition("chaos", 0);

    @TempDir
    Path dir;

    /** A replica's log dir holding one segment of batches {@code (epoch, value)}, one record each, and its high watermark. */
    private Path replica(String name, long highWatermark, Object... epochsAndValues) throws Exception {
        Path logDir = Files.createDirectories(dir.resolve(name));
        Path partitionDir = Files.createDirectories(logDir.resolve(PARTITION.toString()));
        try (FileRecords segment = FileRecords.open(new File(partitionDir.resolve("00000000000000000000.log").toString()))) {
            for (int i = 0; i < epochsAndValues.length; i += 2) {
                segment.append(MemoryRecords.withRecords(i / 2, Compression.NONE, (Integer) epochsAndValues[i],
                        new SimpleRecord(((String) epochsAndValues[i + 1]).getBytes(StandardCharsets.UTF_8))));
            }
            segment.flush();
        }
        new OffsetCheckpointFile(logDir.resolve("replication-offset-checkpoint")).write(Map.of(PARTITION, highWatermark));
        return logDir;
    }

    @Test
    void identicalReplicasBelowTheCommonHighWatermarkAreClean() throws Exception {
        ReplicaFindings findings = ReplicaComparator.compare(List.of(
                replica("a", 2, 0, "x", 0, "y", 1, "only-in-a-above-the-watermark"),
                replica("b", 3, 0, "x", 0, "y")), "chaos", 1);
        assertThat(findings.clean()).as(findings.toString()).isTrue();
        assertThat(findings.comparedBatches()).isEqualTo(2);
    }

    @Test
    void aDifferentRecordBelowTheWatermarkIsADivergence() throws Exception {
        ReplicaFindings findings = ReplicaComparator.compare(List.of(
                replica("a", 2, 0, "x", 0, "y"),
                replica("b", 2, 0, "x", 1, "z")), "chaos", 1);
        assertThat(findings.divergentPartitions()).isEqualTo(1);
        assertThat(findings.examples()).singleElement().asString().contains("first difference at batch 1");
    }

    @Test
    void aLeaderEpochGoingDownIsFound() throws Exception {
        ReplicaFindings findings = ReplicaComparator.compare(List.of(replica("a", 2, 2, "x", 1, "y")), "chaos", 1);
        assertThat(findings.epochRegressions()).isEqualTo(1);
    }
}

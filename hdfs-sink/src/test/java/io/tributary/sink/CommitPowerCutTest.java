package io.tributary.sink;

import io.tributary.hadoop.dataset.RecordConverter;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The sink's commit protocol under a power cut at every step of two commits (the temp files'
 * writes and syncs, the intent, each rename, the ledger, the intent's removal): after the next
 * owner's recovery, every offset the ledger covers is in the dataset exactly once, in readable files.
 */
class CommitPowerCutTest {
    private static final TopicPartition TP = new TopicPartition("t", 0);
    private static final long HOUR_8 = 1_795_939_200_000L + 8 * 3_600_000L;

    @TempDir
    java.nio.file.Path dir;

    @Test
    @Timeout(300)
    void afterAPowerCutAtAnyStepTheLedgerCoversOnlyDurableFiles() throws Exception {
        int cutAt = 1;
        for (; ; cutAt++) {
            String run = "cut" + cutAt;
            java.nio.file.Path local = dir.resolve(run);
            Configuration conf = new Configuration();
            PowerCutFileSystem.Run power = PowerCutFileSystem.register(conf, run, cutAt);
            Path root = new Path("powercut://" + run + local.toAbsolutePath());
            try {
                commitTwice(root, conf);
            } catch (IOException e) {
                assertThat(power.wasCut()).as("failed without a power cut: %s", e).isTrue();
            }
            if (!power.wasCut()) {
                PowerCutFileSystem.unregister(run);
                break; // the step count ran past the last step: every one of them was cut once
            }
            // The power is back: the same paths (the intent names them), on a run that never cuts.
            Configuration after = new Configuration();
            PowerCutFileSystem.register(after, run, 0);
            try {
                assertRecoveryKeepsExactlyTheLedger(root, after, new Path(local.toUri()), cutAt);
            } finally {
                PowerCutFileSystem.unregister(run);
            }
        }
        assertThat(cutAt).as("steps of two commits").isGreaterThan(10);
    }

    @Test
    @Timeout(60)
    void aStorageThatFailedWhileFilesWereOpenFailsTheCommitWithAnIOException() throws Exception {
        Configuration conf = new Configuration();
        PowerCutFileSystem.Run power = PowerCutFileSystem.register(conf, "between", 0);
        try {
            Path root = new Path("powercut://between" + dir.toAbsolutePath());
            RecordConverter converter = RecordConverter.raw();
            PartitionFiles files = SinkFactory.dataset(config(root), conf, converter.schema()).newFiles(TP, SinkTests.NEVER_WRITTEN);
            append(files, converter, 0, 150);
            power.cutNow("an open file's write");
            // Parquet flushes and then closes the stream, and both throw the same exception object.
            assertThatThrownBy(files::closeForCommit).isInstanceOf(IOException.class).hasStackTraceContaining("power cut");
        } finally {
            PowerCutFileSystem.unregister("between");
        }
    }

    private static SinkConfig config(Path root) {
        return new SinkConfig(Map.of(SinkConfig.BOOTSTRAP_SERVERS, "127.0.0.1:9", SinkConfig.TOPICS, TP.topic(),
            SinkConfig.GROUP_ID, "g", SinkConfig.OUTPUT_DIR, root.toString()));
    }

    /** Offsets 0..149 in two hour buckets, committed; then 150..199, committed. */
    private static void commitTwice(Path root, Configuration conf) throws IOException {
        RecordConverter converter = RecordConverter.raw();
        DatasetTarget target = SinkFactory.dataset(config(root), conf, converter.schema());
        PartitionFiles first = target.newFiles(TP, SinkTests.NEVER_WRITTEN);
        append(first, converter, 0, 150);
        long version = target.protocol().publish(Map.of(TP, first.closeForCommit())).committed().get(TP);
        PartitionFiles second = target.newFiles(TP, new ResumePoint(OptionalLong.of(150), version, OptionalLong.of(150)));
        append(second, converter, 150, 200);
        target.protocol().publish(Map.of(TP, second.closeForCommit()));
    }

    private static void append(PartitionFiles files, RecordConverter converter, long from, long to) throws IOException {
        for (long offset = from; offset < to; offset++) {
            long timestamp = offset % 3 == 0 ? HOUR_8 : HOUR_8 + 3_600_000L;
            ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(TP.topic(), TP.partition(), offset, timestamp,
                TimestampType.CREATE_TIME, 0, 0, ("k" + offset).getBytes(StandardCharsets.UTF_8), TestLoad.value(),
                new RecordHeaders(), Optional.empty());
            files.append(converter.convert(record), offset, timestamp, timestamp);
        }
    }

    // Reads the files back through the plain local filesystem: its listings need file: paths.
    private static void assertRecoveryKeepsExactlyTheLedger(Path root, Configuration conf, Path localRoot, int cutAt)
            throws IOException {
        DatasetTarget target = SinkFactory.dataset(config(root), conf, RecordConverter.raw().schema());
        target.protocol().finishInterrupted(TP);
        long next = target.protocol().ledger(TP.topic()).read().nextOffset(TP.partition()).orElse(0);
        DatasetContents contents = DatasetContents.read(localRoot, TP.topic(), new Configuration());
        BitSet expected = new BitSet();
        expected.set(0, (int) next);
        assertThat(contents.duplicates()).as("cut at step %d", cutAt).isEmpty();
        assertThat(contents.offsets().getOrDefault(TP.partition(), new BitSet()))
            .as("offsets in the dataset after a cut at step %d, ledger at %d", cutAt, next).isEqualTo(expected);
    }
}

package io.tributary.sink;

import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.dataset.ParquetWriterFactory;
import io.tributary.hadoop.dataset.RecordConverter;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/** Rotation decisions over real open files of one partition. */
class RotationPolicyTest {
    private static final long HOUR = 3_600_000L;
    private static final long T0 = 1_795_939_200_000L;

    @TempDir
    java.nio.file.Path dir;

    private final RecordConverter converter = RecordConverter.raw();
    private PartitionFiles files;

    @BeforeEach
    void open() {
        Configuration conf = new Configuration();
        files = new PartitionFiles(new TopicPartition("t", 0), DatasetLayout.utc(new Path(dir.toUri())),
            new ParquetWriterFactory(conf, ParquetWriterFactory.DEFAULT_CODEC, 1 << 20, 8 * 1024), converter.schema(),
            OpenFileCost.forPageBytes(8 * 1024), SinkTests.NEVER_WRITTEN);
    }

    @AfterEach
    void close() {
        files.abandon();
    }

    private void append(long offset, long timestamp, long nowMs) throws IOException {
        files.append(converter.convert("t", 0, offset, timestamp, null, new byte[100], new RecordHeaders()),
            offset, timestamp, nowMs);
    }

    @Test
    void nothingIsDueWithoutRecords() {
        assertThat(new RotationPolicy(1, 1024, 1).isDue(files, Long.MAX_VALUE)).isFalse();
        assertThat(new RotationPolicy(1, 1024, 1).dueAtMs(files)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void theTimerCountsFromTheFirstUncommittedRecordNotTheLast() throws IOException {
        RotationPolicy policy = new RotationPolicy(1000, 1 << 30, 5_000);
        append(0, T0, 10_000);
        append(1, T0, 14_000);
        assertThat(policy.isDue(files, 14_999)).isFalse();
        assertThat(policy.isDue(files, 15_000)).isTrue();
        assertThat(policy.dueAtMs(files)).isEqualTo(15_000);
    }

    @Test
    void flushSizeCountsAllBucketsOfThePartition() throws IOException {
        RotationPolicy policy = new RotationPolicy(4, 1 << 30, 60_000);
        append(0, T0, 0);
        append(1, T0 + HOUR, 0);
        append(2, T0, 0);
        assertThat(files.files()).hasSize(2);
        assertThat(policy.isFull(files)).isFalse();
        append(3, T0 + HOUR, 0);
        assertThat(policy.isFull(files)).isTrue();
    }

    @Test
    void oneFileReachingFileMaxBytesIsEnough() throws IOException {
        RotationPolicy policy = new RotationPolicy(1_000_000, 20_000, 60_000);
        long offset = 0;
        while (files.largestFileBytes() < 20_000) {
            assertThat(policy.isDue(files, 0)).isFalse();
            append(offset++, T0, 0);
        }
        assertThat(policy.isDue(files, 0)).isTrue();
        while (!policy.isFull(files)) {
            append(offset++, T0, 0);
        }
        assertThat(offset % RotationPolicy.BYTES_CHECK_INTERVAL).as("per-record check every few records").isZero();
        assertThat(files.memoryBytes()).as("data plus the fixed cost of the open file")
            .isGreaterThanOrEqualTo(files.largestFileBytes() + 32 * 1024);
        assertThat(files.nextOffset()).isEqualTo(offset);
    }
}

package io.tributary.sink;

import io.tributary.hadoop.dataset.RecordConverter;
import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the memory budget counts for the open files against the heap they really hold, measured
 * after full GCs, with the records {@link TestLoad} produces (unique keys and offsets, random values).
 */
class OpenFileMemoryTest {
    private static final int FILES = 60;
    private static final int RECORDS_PER_FILE = 2000;

    @TempDir
    java.nio.file.Path dir;

    @Test
    @Timeout(120)
    void theBudgetCountsWhatOpenFilesHoldOnTheHeap() throws Exception {
        SinkConfig config = new SinkConfig(Map.of(SinkConfig.BOOTSTRAP_SERVERS, "127.0.0.1:9", SinkConfig.TOPICS, "t",
            SinkConfig.GROUP_ID, "g", SinkConfig.OUTPUT_DIR, dir.toUri().toString(), SinkConfig.PARQUET_PAGE_BYTES, "32768"));
        RecordConverter converter = RecordConverter.raw();
        DatasetTarget target = SinkFactory.dataset(config, new Configuration(), converter.schema());
        // Loads the classes and their jars first, so the measurement holds the files alone.
        fill(target.newFiles(new TopicPartition("t", FILES), SinkTests.NEVER_WRITTEN), converter, 10).abandon();

        long before = heapAfterFullGc();
        List<PartitionFiles> open = new ArrayList<>();
        for (int p = 0; p < FILES; p++) {
            open.add(fill(target.newFiles(new TopicPartition("t", p), SinkTests.NEVER_WRITTEN), converter, RECORDS_PER_FILE));
        }
        long held = heapAfterFullGc() - before;
        long counted = open.stream().mapToLong(PartitionFiles::memoryBytes).sum();
        open.forEach(PartitionFiles::abandon);

        assertThat(counted).as("bytes the budget counts for %d open files, against %d held", FILES, held)
            .isGreaterThanOrEqualTo(held)
            .isLessThan(held * 3 / 2); // and not so much more that the budget commits files early for nothing
    }

    private static PartitionFiles fill(PartitionFiles files, RecordConverter converter, int records) throws IOException {
        int p = files.partition().partition();
        for (int i = 0; i < records; i++) {
            long now = System.currentTimeMillis();
            ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("t", p, i, now, TimestampType.CREATE_TIME, 0, 0,
                ("k" + (p * records + i)).getBytes(StandardCharsets.UTF_8), TestLoad.value(), new RecordHeaders(), Optional.empty());
            files.append(converter.convert(record), i, now, now);
        }
        return files;
    }

    // Until a collection has certainly run: an object only a weak reference holds is gone.
    private static long heapAfterFullGc() {
        WeakReference<Object> sentinel = new WeakReference<>(new Object());
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
            System.gc();
            return sentinel.get() == null;
        });
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}

package io.tributary.broker.log;

import static io.tributary.broker.log.TestRecords.batch;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Records;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads of inactive segments through read-only mappings ({@link SegmentMappings}): the same bytes as through the
 * files, never a stale mapping after the file changed, bounded by the cap, and off when configured so.
 */
class MappedSegmentReadTest {

    private static final int BATCH_BYTES = batch(5, 40, 0).sizeInBytes();
    private static final Map<String, String> THREE_BATCH_SEGMENTS = Map.of(
            LogConfig.SEGMENT_BYTES, String.valueOf(3 * BATCH_BYTES),
            LogConfig.INDEX_INTERVAL_BYTES, String.valueOf(BATCH_BYTES));

    @TempDir
    Path root;

    /** 20 batches of 5 records (offsets 0..99) over 7 segments; the last one (offsets 90..99) is active. */
    private PartitionLog filledLog(LogFixture fixture) throws Exception {
        PartitionLog log = fixture.open();
        for (int i = 0; i < 20; i++) {
            log.appendAsLeader(batch(5, 40, 1000L * i), 0);
        }
        assertThat(log.numberOfSegments()).isEqualTo(7);
        return log;
    }

    @Test
    void inactiveSegmentsAreReadThroughMappingsWithTheFilesBytes() throws Exception {
        LogFixture fixture = new LogFixture(root, THREE_BATCH_SEGMENTS);
        PartitionLog log = filledLog(fixture);
        long activeBase = log.segments().get(6).baseOffset();
        for (long offset = 0; offset < 100; offset++) {
            Records read = log.read(offset, 2 * BATCH_BYTES, Long.MAX_VALUE, true).records();
            if (offset < activeBase) {
                assertThat(read).as("offset %d", offset).isInstanceOf(MemoryRecords.class);
                assertThat(((MemoryRecords) read).buffer().isDirect()).isTrue();
            } else {
                assertThat(read).as("offset %d", offset).isInstanceOf(FileRecords.class);
            }
            assertThat(bytesOf(read)).as("offset %d", offset).isEqualTo(fileBytesAt(log, offset, read.sizeInBytes()));
            assertThat(TestRecords.offsets(read).get(0)).isEqualTo(offset / 5 * 5);
        }
    }

    @Test
    void turnedOffEveryReadGoesThroughTheFiles() throws Exception {
        LogFixture fixture = new LogFixture(root, THREE_BATCH_SEGMENTS);
        fixture.config = LogConfig.fromBroker(Map.of(LogConfig.LOG_READ_MMAP_ENABLE, "false"))
                .withTopicOverrides(Map.of(LogConfig.SEGMENT_BYTES, String.valueOf(3 * BATCH_BYTES),
                        LogConfig.INDEX_INTERVAL_BYTES, String.valueOf(BATCH_BYTES),
                        LogConfig.SEGMENT_INDEX_BYTES, "4096"));
        PartitionLog log = filledLog(fixture);
        for (long offset = 0; offset < 100; offset += 5) {
            assertThat(log.read(offset, BATCH_BYTES, Long.MAX_VALUE, true).records()).isInstanceOf(FileRecords.class);
        }
    }

    @Test
    void afterARestartTheInactiveSegmentsAreMappedAgain() throws Exception {
        LogFixture fixture = new LogFixture(root, THREE_BATCH_SEGMENTS);
        PartitionLog log = filledLog(fixture);
        log.read(7, BATCH_BYTES, Long.MAX_VALUE, true); // maps segment 0 before the restart
        log.close();
        PartitionLog reopened = fixture.open();
        Records read = reopened.read(7, BATCH_BYTES, Long.MAX_VALUE, true).records();
        assertThat(read).isInstanceOf(MemoryRecords.class);
        assertThat(TestRecords.offsets(read)).containsExactly(5L, 6L, 7L, 8L, 9L);
        assertThat(reopened.read(95, BATCH_BYTES, Long.MAX_VALUE, true).records()).isInstanceOf(FileRecords.class);
    }

    @Test
    void truncatingIntoAMappedSegmentMakesReadsSeeTheNewAppendsNotTheOldMapping() throws Exception {
        LogFixture fixture = new LogFixture(root, THREE_BATCH_SEGMENTS);
        PartitionLog log = filledLog(fixture);
        // Segment [30, 45) is mapped by this read, then becomes the active segment again at offset 35.
        assertThat(log.read(40, BATCH_BYTES, Long.MAX_VALUE, true).records()).isInstanceOf(MemoryRecords.class);
        log.truncateTo(35);
        assertThat(log.logEndOffset()).isEqualTo(35);
        log.appendAsFollower(TestRecords.batchAt(35, 5, 77_000));
        Records read = log.read(35, BATCH_BYTES, Long.MAX_VALUE, true).records();
        assertThat(read).isInstanceOf(FileRecords.class);
        assertThat(TestRecords.records(read)).extracting(TestRecords.Read::timestamp)
                .containsExactly(77_000L, 77_001L, 77_002L, 77_003L, 77_004L);
        assertThat(TestRecords.offsets(log.read(30, 3 * BATCH_BYTES, Long.MAX_VALUE, true).records()))
                .containsExactly(30L, 31L, 32L, 33L, 34L, 35L, 36L, 37L, 38L, 39L);
    }

    @Test
    void atTheCapFurtherSegmentsAreReadThroughTheirFiles() throws Exception {
        SegmentMappings oneMapping = new SegmentMappings(1);
        LogSegment first = sealedSegment(root.resolve("a"), oneMapping);
        LogSegment second = sealedSegment(root.resolve("b"), oneMapping);
        assertThat(first.read(100, BATCH_BYTES, first.size(), true)).get().isInstanceOf(MemoryRecords.class);
        Records fromFile = second.read(100, BATCH_BYTES, second.size(), true).orElseThrow();
        assertThat(fromFile).isInstanceOf(FileRecords.class);
        assertThat(TestRecords.offsets(fromFile)).startsWith(100L);
        assertThat(oneMapping.live()).isEqualTo(1);
    }

    @Test
    void concurrentFirstReadsMapASegmentOnce() throws Exception {
        SegmentMappings mappings = new SegmentMappings(100);
        LogSegment segment = sealedSegment(root, mappings);
        int threads = 8;
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Records>> reads = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                reads.add(pool.submit(() -> {
                    start.await();
                    return segment.read(100 + 5, BATCH_BYTES, segment.size(), true).orElseThrow();
                }));
            }
            for (Future<Records> read : reads) {
                assertThat(TestRecords.offsets(read.get(30, TimeUnit.SECONDS))).startsWith(105L);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(mappings.live()).isEqualTo(1);
    }

    @Test
    void deletingAMappedSegmentEmptiesItsFileAtOnce() throws Exception {
        LogSegment segment = sealedSegment(root, new SegmentMappings(1));
        Path file = segment.records().file().toPath();
        assertThat(segment.read(100, BATCH_BYTES, segment.size(), true)).get().isInstanceOf(MemoryRecords.class);
        try (FileChannel stillOpen = FileChannel.open(file, StandardOpenOption.READ)) {
            assertThat(stillOpen.size()).isPositive();
            segment.markDeleted();
            segment.deleteFiles();
            // The mapping outlives the file until the GC collects it; the file's blocks must not.
            assertThat(stillOpen.size()).isZero();
        }
        assertThat(Files.exists(file)).isFalse();
    }

    /** A segment at base offset 100 of 10 batches of 5 records, sealed with {@code mappings}. */
    private static LogSegment sealedSegment(Path dir, SegmentMappings mappings) throws Exception {
        Files.createDirectories(dir);
        LogConfig config = LogConfig.defaults().withTopicOverrides(Map.of(
                LogConfig.INDEX_INTERVAL_BYTES, String.valueOf(BATCH_BYTES), LogConfig.SEGMENT_INDEX_BYTES, "4096"));
        LogSegment segment = LogSegment.create(dir, 100, config, 0);
        for (int i = 0; i < 10; i++) {
            MemoryRecords records = batch(5, 40, 1000L * i);
            long last = 100 + 5L * i + 4;
            for (MutableRecordBatch b : records.batches()) {
                b.setLastOffset(last);
            }
            segment.append(last, records);
        }
        segment.onBecomeInactive();
        segment.seal(mappings);
        return segment;
    }

    private static byte[] bytesOf(Records records) throws Exception {
        ByteBuffer copy = ByteBuffer.allocate(records.sizeInBytes());
        if (records instanceof FileRecords file) {
            file.readInto(copy, 0);
        } else {
            copy.put(((MemoryRecords) records).buffer().duplicate());
        }
        return copy.array();
    }

    /** {@code size} bytes of the segment file holding {@code offset}, from the batch that holds it on. */
    private static byte[] fileBytesAt(PartitionLog log, long offset, int size) throws Exception {
        LogSegment holder = log.segments().stream().filter(s -> s.baseOffset() <= offset)
                .reduce((a, b) -> b).orElseThrow();
        int position = holder.translateOffset(offset).position;
        byte[] all = Files.readAllBytes(holder.records().file().toPath());
        byte[] slice = new byte[size];
        System.arraycopy(all, position, slice, 0, size);
        return slice;
    }
}

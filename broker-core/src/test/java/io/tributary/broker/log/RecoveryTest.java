package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import io.tributary.broker.testing.CapturedLog;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Crash tests. The log holds 10 batches of 3 records (offsets 0..29) in segments of 4 batches: base offsets 0, 12
 * and 24 (active, 2 batches). A crash is simulated by copying the folder while the log is open; the copy is then
 * damaged and opened as after an unclean stop. Recovery must return exactly the valid prefix.
 */
class RecoveryTest {

    private static final int RECORDS_PER_BATCH = 3;
    private static final int VALUE_SIZE = 20;

    @TempDir
    Path root;

    private LogFixture fixture;
    private PartitionLog log;
    private int batchBytes;

    @BeforeEach
    void writeLog() throws Exception {
        batchBytes = TestRecords.batch(Compression.NONE, RECORDS_PER_BATCH, VALUE_SIZE, 0, 0).sizeInBytes();
        fixture = new LogFixture(root, Map.of(LogConfig.SEGMENT_BYTES, String.valueOf(4 * batchBytes),
                LogConfig.INDEX_INTERVAL_BYTES, "1"));
        log = fixture.open();
        for (int i = 0; i < 10; i++) {
            long first = (long) i * RECORDS_PER_BATCH;
            log.appendAsLeader(TestRecords.batch(Compression.NONE, RECORDS_PER_BATCH, VALUE_SIZE, 1000 + first, first), 0);
        }
        assertThat(log.segments()).extracting(LogSegment::baseOffset).containsExactly(0L, 12L, 24L);
    }

    @Test
    void cutAtEveryBytePositionOfTheLastBatchKeepsTheBatchesBeforeIt() throws Exception {
        Path activeLog = SegmentFiles.log(log.dir(), 24);
        long fullSize = Files.size(activeLog);
        long lastBatchStart = fullSize - batchBytes;
        for (long cut = lastBatchStart; cut < fullSize; cut++) {
            Path crashed = fixture.snapshotAsCrashed("cut-" + cut);
            truncate(SegmentFiles.log(crashed, 24), cut);
            PartitionLog recovered = fixture.recover(crashed, 0);
            assertExactPrefix(recovered, 27);
            assertThat(Files.size(SegmentFiles.log(crashed, 24))).isEqualTo(lastBatchStart);
        }
        assertExactPrefix(fixture.recover(fixture.snapshotAsCrashed("uncut"), 0), 30);
    }

    @Test
    void theTruncationIsLoggedWithPartitionOffsetAndBytes() throws Exception {
        Path crashed = fixture.snapshotAsCrashed("crashed");
        Path active = SegmentFiles.log(crashed, 24);
        truncate(active, Files.size(active) - 10);
        List<String> warnings = new ArrayList<>();
        try (CapturedLog log = CapturedLog.of(LogLoader.class)) {
            fixture.recover(crashed, 0);
            log.lines().forEach(line -> warnings.add(line.message()));
        }
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("events-3", "truncated " + (batchBytes - 10)
                + " bytes", "at offset 27"));
    }

    @Test
    void aCutInsideAnOlderBatchKeepsEverythingBeforeIt() throws Exception {
        Path crashed = fixture.snapshotAsCrashed("crashed");
        truncate(SegmentFiles.log(crashed, 24), batchBytes / 2);
        assertExactPrefix(fixture.recover(crashed, 0), 24);
    }

    /** The last byte of a batch is 0 already (the header count of the last record), so start at 2. */
    @ParameterizedTest(name = "{0} zero bytes over the tail")
    @ValueSource(ints = {2, 17, 61, 100})
    void aZeroedTailIsCutOff(int zeroBytes) throws Exception {
        Path crashed = fixture.snapshotAsCrashed("crashed");
        Path active = SegmentFiles.log(crashed, 24);
        byte[] content = Files.readAllBytes(active);
        assertThat(java.util.Arrays.copyOfRange(content, content.length - zeroBytes, content.length))
                .isNotEqualTo(new byte[zeroBytes]);
        overwrite(active, Files.size(active) - zeroBytes, new byte[zeroBytes]);
        assertExactPrefix(fixture.recover(crashed, 0), 27);
    }

    @Test
    void zeroesAfterTheLastBatchAreRemoved() throws Exception {
        Path crashed = fixture.snapshotAsCrashed("crashed");
        Path active = SegmentFiles.log(crashed, 24);
        long size = Files.size(active);
        overwrite(active, size, new byte[4096]);
        assertExactPrefix(fixture.recover(crashed, 0), 30);
        assertThat(Files.size(active)).isEqualTo(size);
    }

    /**
     * A random bit flipped anywhere in any batch cuts the log before that batch. The base offset (bytes 0-7) and
     * the partition leader epoch (bytes 12-15) are left out: record batch v2 does not cover them with its CRC, so no
     * reader can detect a flip there, in Apache Kafka either.
     */
    @Test
    void aFlippedBitCutsTheLogBeforeTheDamagedBatch() throws Exception {
        Random random = new Random(42);
        List<long[]> batches = batchLayout(); // {segment base, position, first offset}
        for (int trial = 0; trial < 150; trial++) {
            long[] batch = batches.get(random.nextInt(batches.size()));
            int byteInBatch;
            do {
                byteInBatch = random.nextInt(batchBytes);
            } while (byteInBatch < 8 || byteInBatch >= 12 && byteInBatch < 16);
            Path crashed = fixture.snapshotAsCrashed("flip-" + trial);
            Path segment = SegmentFiles.log(crashed, batch[0]);
            flipBit(segment, batch[1] + byteInBatch, random.nextInt(8));
            PartitionLog recovered = fixture.recover(crashed, 0);
            assertExactPrefix(recovered, batch[2]);
            assertThat(recovered.segments()).extracting(LogSegment::baseOffset)
                    .allMatch(base -> base <= batch[0]);
        }
    }

    @Test
    void segmentsBeforeTheRecoveryPointAreNotRescanned() throws Exception {
        Path crashed = fixture.snapshotAsCrashed("crashed");
        // Damage the records of the first segment's last batch: only a scan would notice.
        flipBit(SegmentFiles.log(crashed, 0), 4L * batchBytes - 5, 0);
        PartitionLog recovered = fixture.recover(crashed, 12);
        assertThat(recovered.logEndOffset()).isEqualTo(30);
        assertThat(recovered.segments()).hasSize(3);
    }

    @Test
    void aCleanRestartScansNothingAndReadsEverything() throws Exception {
        log.close();
        flipBit(SegmentFiles.log(log.dir(), 12), 2L * batchBytes - 5, 3);
        PartitionLog reopened = fixture.open();
        assertThat(reopened.logEndOffset()).isEqualTo(30);
        assertThat(reopened.segments()).hasSize(3);
        assertThat(TestRecords.offsets(reopened.read(27, 1 << 20, Long.MAX_VALUE, false).records()))
                .containsExactly(27L, 28L, 29L);
    }

    @ParameterizedTest(name = "delete the index files of segment {0}")
    @ValueSource(longs = {0, 24})
    void missingIndexFilesAreRebuiltAfterACleanStop(long segmentBase) throws Exception {
        log.close();
        byte[] offsetIndex = Files.readAllBytes(SegmentFiles.offsetIndex(log.dir(), segmentBase));
        byte[] timeIndex = Files.readAllBytes(SegmentFiles.timeIndex(log.dir(), segmentBase));
        Files.delete(SegmentFiles.offsetIndex(log.dir(), segmentBase));
        Files.delete(SegmentFiles.timeIndex(log.dir(), segmentBase));
        PartitionLog reopened = fixture.open();
        assertExactPrefix(reopened, 30);
        reopened.close();
        assertThat(Files.readAllBytes(SegmentFiles.offsetIndex(log.dir(), segmentBase))).isEqualTo(offsetIndex);
        assertThat(Files.readAllBytes(SegmentFiles.timeIndex(log.dir(), segmentBase))).isEqualTo(timeIndex);
    }

    @ParameterizedTest(name = "garbage in the {0} of segment 12")
    @ValueSource(strings = {SegmentFiles.INDEX_SUFFIX, SegmentFiles.TIME_INDEX_SUFFIX})
    void corruptIndexFilesAreRebuilt(String suffix) throws Exception {
        log.close();
        Path index = log.dir().resolve(SegmentFiles.baseName(12) + suffix);
        byte[] original = Files.readAllBytes(index);
        byte[] garbage = original.clone();
        new Random(7).nextBytes(garbage);
        Files.write(index, garbage);
        PartitionLog reopened = fixture.open();
        assertExactPrefix(reopened, 30);
        reopened.close();
        assertThat(Files.readAllBytes(index)).isEqualTo(original);
    }

    @Test
    void theIndexesOfAnUncleanStopAreRebuiltNotTrusted() throws Exception {
        Path crashed = fixture.snapshotAsCrashed("crashed");
        // The active segment's index was preallocated and is full of zeroes past the real entries.
        assertThat(Files.size(SegmentFiles.offsetIndex(crashed, 24))).isEqualTo(4096);
        PartitionLog recovered = fixture.recover(crashed, 0);
        assertExactPrefix(recovered, 30);
        LogSegment active = recovered.segments().get(2);
        assertThat(active.offsetIndex().entries()).isEqualTo(1);
        assertThat(active.offsetIndex().entry(0)).isEqualTo(new OffsetPosition(29, batchBytes));
    }

    @Test
    void aRecoveredLogContinuesAtItsEnd() throws Exception {
        Path crashed = fixture.snapshotAsCrashed("crashed");
        truncate(SegmentFiles.log(crashed, 24), Files.size(SegmentFiles.log(crashed, 24)) - 1);
        PartitionLog recovered = fixture.recover(crashed, 0);
        recovered.appendAsLeader(TestRecords.batch(Compression.NONE, RECORDS_PER_BATCH, VALUE_SIZE, 5000, 27), 1);
        assertExactPrefix(recovered, 30);
        recovered.close();
        assertExactPrefix(PartitionLog.open(LogFixture.TP, crashed, fixture.config, fixture.time, fixture.scheduler, new FlushTimes(),
                30, 0L, true), 30);
    }

    /** {segment base offset, file position, first offset} of every batch, oldest first. */
    private List<long[]> batchLayout() {
        List<long[]> layout = new ArrayList<>();
        for (LogSegment segment : log.segments()) {
            for (FileChannelRecordBatch batch : segment.records().batches()) {
                layout.add(new long[] {segment.baseOffset(), batch.position(), batch.baseOffset()});
            }
        }
        return layout;
    }

    /** The log ends at {@code end}, and reading it from 0 returns every record before that, intact. */
    private static void assertExactPrefix(PartitionLog log, long end) {
        assertThat(log.logEndOffset()).isEqualTo(end);
        List<TestRecords.Read> read = new ArrayList<>();
        long next = log.logStartOffset();
        while (next < log.logEndOffset()) {
            FetchDataInfo info = log.read(next, 1 << 20, Long.MAX_VALUE, false);
            for (RecordBatch batch : info.records().batches()) {
                assertThat(batch.isValid()).isTrue();
            }
            List<TestRecords.Read> chunk = TestRecords.records(info.records());
            assertThat(chunk).isNotEmpty();
            read.addAll(chunk);
            next = chunk.get(chunk.size() - 1).offset() + 1;
        }
        assertThat(read).extracting(TestRecords.Read::offset)
                .isEqualTo(LongStream.range(0, end).boxed().toList());
        assertThat(read).allSatisfy(r -> assertThat(r.value()).isEqualTo(new String(TestRecords.value(r.offset(),
                VALUE_SIZE))));
    }

    private static void truncate(Path file, long size) throws Exception {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(size);
        }
    }

    private static void overwrite(Path file, long position, byte[] bytes) throws Exception {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(position);
            raf.write(bytes);
        }
    }

    private static void flipBit(Path file, long position, int bit) throws Exception {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(position);
            int b = raf.read();
            raf.seek(position);
            raf.write(b ^ (1 << bit));
        }
    }
}

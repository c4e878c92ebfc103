package io.tributary.broker.log;

import static io.tributary.broker.log.TestRecords.batch;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lock-free reads while one thread appends, rolls and applies retention: every read returns whole, valid
 * batches starting at the batch that holds the requested offset, or an out-of-range error below the log start.
 */
class PartitionLogConcurrencyTest {

    private static final int BATCHES = 1500;
    private static final int RECORDS = 4;

    @TempDir
    Path root;

    @Test
    void readersSeeOnlyCompleteValidBatchesWhileTheLogAppendsRollsAndShrinks() throws Exception {
        int batchBytes = batch(RECORDS, 30, 0).sizeInBytes();
        LogFixture fixture = new LogFixture(root, Map.of(LogConfig.SEGMENT_BYTES, String.valueOf(20 * batchBytes),
                LogConfig.RETENTION_BYTES, String.valueOf(200L * batchBytes), LogConfig.INDEX_INTERVAL_BYTES, "0",
                LogConfig.FILE_DELETE_DELAY_MS, "0"));
        PartitionLog log = fixture.open();
        AtomicBoolean done = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<Integer>> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                readers.add(pool.submit(() -> readUntil(done, log)));
            }
            Future<?> writer = pool.submit(() -> {
                for (int i = 0; i < BATCHES; i++) {
                    log.appendAsLeader(batch(RECORDS, 30, i), 0);
                    if (i % 50 == 0) {
                        log.deleteOldSegments();
                    }
                }
                done.set(true);
                return null;
            });
            writer.get(60, TimeUnit.SECONDS);
            for (Future<Integer> reader : readers) {
                assertThat(reader.get(60, TimeUnit.SECONDS)).as("successful reads").isPositive();
            }
        } finally {
            done.set(true);
            pool.shutdownNow();
        }
        assertThat(log.logEndOffset()).isEqualTo((long) BATCHES * RECORDS);
        assertThat(log.logStartOffset()).isPositive();
    }

    private static int readUntil(AtomicBoolean done, PartitionLog log) {
        int reads = 0;
        while (!done.get()) {
            long start = log.logStartOffset();
            long end = log.logEndOffset();
            long offset = start + ThreadLocalRandom.current().nextLong(end - start + 1);
            FetchDataInfo info;
            try {
                info = log.read(offset, 4096, Long.MAX_VALUE, true);
            } catch (OffsetOutOfRangeException e) {
                assertThat(offset).isLessThan(log.logStartOffset());
                continue;
            }
            boolean first = true;
            for (RecordBatch batch : info.records().batches()) {
                assertThat(batch.isValid()).isTrue();
                if (first) {
                    assertThat(batch.baseOffset()).isLessThanOrEqualTo(offset).isEqualTo(offset / RECORDS * RECORDS);
                    first = false;
                }
            }
            if (offset < end) {
                assertThat(first).as("a read below the end returns a batch").isFalse();
            }
            reads++;
        }
        return reads;
    }
}

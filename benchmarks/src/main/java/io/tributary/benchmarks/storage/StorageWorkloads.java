package io.tributary.benchmarks.storage;

import io.tributary.broker.log.FetchDataInfo;
import io.tributary.broker.log.PartitionLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.Records;

/** The measured operations, each on one partition log through its public API. Single-threaded. */
final class StorageWorkloads {

    private static final int READ_BYTES = 1024 * 1024;

    private StorageWorkloads() {
    }

    /** Appends batches as a leader until {@code bytes} were written. */
    static Throughput append(PartitionLog log, BenchmarkBatches batches, long bytes) {
        long written = 0;
        long records = 0;
        Stopwatch watch = Stopwatch.start();
        while (written < bytes) {
            var info = log.appendAsLeader(batches.next(), 0);
            written += info.validBytes();
            records += info.recordCount();
        }
        return watch.stop(written, records);
    }

    /** Reads the whole log front to back in 1 MiB fetches, copying the bytes out and counting the records. */
    static Throughput readAll(PartitionLog log) {
        ByteBuffer buffer = ByteBuffer.allocate(READ_BYTES);
        long offset = log.logStartOffset();
        long end = log.logEndOffset();
        long bytes = 0;
        long records = 0;
        Stopwatch watch = Stopwatch.start();
        while (offset < end) {
            FetchDataInfo info = log.read(offset, READ_BYTES, end, true);
            copyOut(info.records(), buffer);
            for (RecordBatch batch : info.records().batches()) {
                bytes += batch.sizeInBytes();
                records += batch.countOrNull();
                offset = batch.nextOffset();
            }
        }
        return watch.stop(bytes, records);
    }

    /** Reads one batch at each of {@code count} random offsets; returns each read's latency in ns. */
    static long[] randomReads(PartitionLog log, int count, Random random) {
        ByteBuffer buffer = ByteBuffer.allocate(2 * BenchmarkBatches.BATCH_BYTES);
        long first = log.logStartOffset();
        long span = log.logEndOffset() - first;
        long[] nanos = new long[count];
        for (int i = 0; i < count; i++) {
            long offset = first + (long) (random.nextDouble() * span);
            long start = System.nanoTime();
            FetchDataInfo info = log.read(offset, BenchmarkBatches.BATCH_BYTES, Long.MAX_VALUE, true);
            copyOut(info.records(), buffer);
            nanos[i] = System.nanoTime() - start;
        }
        return nanos;
    }

    /**
     * Copies the bytes of a read into {@code buffer}, as a consumer reading from the page cache would: through the
     * file of the active segment, from the mapping of an inactive one.
     */
    private static void copyOut(Records records, ByteBuffer buffer) {
        buffer.clear().limit(Math.min(buffer.capacity(), records.sizeInBytes()));
        if (records instanceof FileRecords file) {
            try {
                file.readInto(buffer, 0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else if (records instanceof MemoryRecords memory) {
            buffer.put(0, memory.buffer(), 0, buffer.limit());
        } else {
            throw new IllegalStateException("unexpected records " + records.getClass());
        }
    }
}

package io.tributary.benchmarks.storage;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * Producer-like uncompressed batches of 100-byte records filling 16 KiB, built once and handed out round-robin.
 * The log assigns offsets in place, which leaves the batch valid for its next use (the CRC does not cover the
 * base offset). Not thread-safe.
 */
final class BenchmarkBatches {

    static final int BATCH_BYTES = 16 * 1024;
    static final int RECORD_VALUE_BYTES = 100;
    private static final Header[] NO_HEADERS = new Header[0];

    private final List<ByteBuffer> templates = new ArrayList<>();
    private final int recordsPerBatch;
    private int next;

    BenchmarkBatches(int distinct, long timestamp) {
        Random random = new Random(1);
        int count = 0;
        for (int i = 0; i < distinct; i++) {
            MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(BATCH_BYTES),
                    RecordBatch.MAGIC_VALUE_V2, Compression.NONE, TimestampType.CREATE_TIME, 0L);
            byte[] value = new byte[RECORD_VALUE_BYTES];
            count = 0;
            while (true) {
                random.nextBytes(value);
                if (!builder.hasRoomFor(timestamp, null, value, NO_HEADERS)) {
                    break;
                }
                builder.append(timestamp, null, value);
                count++;
            }
            templates.add(builder.build().buffer());
        }
        this.recordsPerBatch = count;
    }

    MemoryRecords next() {
        ByteBuffer template = templates.get(next);
        next = (next + 1) % templates.size();
        return MemoryRecords.readableRecords(template.duplicate());
    }

    int recordsPerBatch() {
        return recordsPerBatch;
    }

    int batchBytes() {
        return templates.get(0).remaining();
    }
}

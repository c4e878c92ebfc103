package io.tributary.broker.log;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.Records;
import org.apache.kafka.common.record.internal.SimpleRecord;

/** Builds record batches as a producer would and reads them back as (offset, value) pairs. */
final class TestRecords {

    private TestRecords() {
    }

    /** One uncompressed batch of {@code count} records with values {@code v<i>} padded to {@code valueSize}. */
    static MemoryRecords batch(int count, int valueSize, long timestamp) {
        return batch(Compression.NONE, count, valueSize, timestamp, 0);
    }

    /**
     * One batch as a producer sends it (base offset 0); record {@code i} has value "{@code first + i}" padded
     * with '.' to {@code valueSize} bytes and timestamp {@code timestamp + i}.
     */
    static MemoryRecords batch(Compression compression, int count, int valueSize, long timestamp, long first) {
        ByteBuffer buffer = ByteBuffer.allocate(Math.max(256, count * (valueSize + 64) + 128));
        MemoryRecordsBuilder builder = MemoryRecords.builder(buffer, RecordBatch.MAGIC_VALUE_V2, compression,
                TimestampType.CREATE_TIME, 0L);
        for (int i = 0; i < count; i++) {
            builder.append(new SimpleRecord(timestamp + i, String.format("k%08d", first + i).getBytes(StandardCharsets.UTF_8),
                    value(first + i, valueSize)));
        }
        return builder.build();
    }

    static byte[] value(long n, int size) {
        StringBuilder s = new StringBuilder(Long.toString(n));
        while (s.length() < size) {
            s.append('.');
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A batch whose base offset is already assigned, as a follower receives it. */
    static MemoryRecords batchAt(long baseOffset, int count, long timestamp) {
        ByteBuffer buffer = ByteBuffer.allocate(count * 100 + 128);
        MemoryRecordsBuilder builder = MemoryRecords.builder(buffer, RecordBatch.MAGIC_VALUE_V2, Compression.NONE,
                TimestampType.CREATE_TIME, baseOffset);
        for (int i = 0; i < count; i++) {
            builder.append(new SimpleRecord(timestamp + i, null, value(baseOffset + i, 10)));
        }
        return builder.build();
    }

    /** A record as read back from the log. */
    record Read(long offset, long timestamp, String value) {
    }

    /** Every record of {@code records}, decompressing where needed. */
    static List<Read> records(Records records) {
        List<Read> out = new ArrayList<>();
        for (RecordBatch batch : records.batches()) {
            for (Record record : batch) {
                out.add(new Read(record.offset(), record.timestamp(), valueOf(record)));
            }
        }
        return out;
    }

    static String valueOf(Record record) {
        ByteBuffer value = record.value();
        byte[] bytes = new byte[value.remaining()];
        value.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Every batch stored in the log's segments, read back from disk. */
    static List<RecordBatch> storedBatches(PartitionLog log) {
        List<RecordBatch> all = new ArrayList<>();
        log.segments().forEach(segment -> segment.records().batches().forEach(all::add));
        return all;
    }

    /** The offsets of the records in {@code records}. */
    static List<Long> offsets(Records records) {
        return records(records).stream().map(Read::offset).toList();
    }
}

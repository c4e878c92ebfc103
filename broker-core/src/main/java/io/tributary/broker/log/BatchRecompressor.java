package io.tributary.broker.log;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * Re-writes a producer's batches in a topic's {@code compression.type} when it names a codec the batches are
 * not in. Records, timestamps, headers and the producer's id, epoch, sequence and transactional flag stay as
 * they were; offsets are assigned afterwards like those of any leader append. A topic that keeps the
 * producer's codec never comes here, so the usual append costs nothing extra. Stateless.
 */
final class BatchRecompressor {

    private BatchRecompressor() {
    }

    /**
     * @param records       validated producer batches (magic v2, not control batches)
     * @param target        the codec and level the topic stores
     * @param maxBatchBytes max.message.bytes, which also bounds a re-written batch
     * @return {@code records} itself when every batch is in {@code target}'s codec already, else new records
     * @throws RecordTooLargeException if a re-written batch is larger than {@code maxBatchBytes}
     */
    static MemoryRecords recompress(MemoryRecords records, Compression target, int maxBatchBytes) {
        boolean needed = false;
        for (MutableRecordBatch batch : records.batches()) {
            needed |= rewritten(batch, target);
        }
        if (!needed) {
            return records;
        }
        List<ByteBuffer> rewritten = new ArrayList<>(); // null where a batch is kept as it is
        int total = 0;
        for (MutableRecordBatch batch : records.batches()) {
            ByteBuffer bytes = rewritten(batch, target) ? rewrite(batch, target, maxBatchBytes) : null;
            int size = bytes == null ? batch.sizeInBytes() : bytes.remaining();
            if (size > maxBatchBytes) {
                throw tooLarge(size, target, maxBatchBytes);
            }
            rewritten.add(bytes);
            total += size;
        }
        ByteBuffer joined = ByteBuffer.allocate(total);
        int index = 0;
        for (MutableRecordBatch batch : records.batches()) {
            ByteBuffer bytes = rewritten.get(index++);
            if (bytes == null) {
                batch.writeTo(joined);
            } else {
                joined.put(bytes);
            }
        }
        return MemoryRecords.readableRecords(joined.flip());
    }

    /** Control batches (transaction markers) are stored as written, uncompressed, as Kafka stores them. */
    private static boolean rewritten(MutableRecordBatch batch, Compression target) {
        return !batch.isControlBatch() && batch.compressionType() != target.type();
    }

    private static RecordTooLargeException tooLarge(int size, Compression target, int maxBatchBytes) {
        return new RecordTooLargeException("Batch of " + size + " bytes once re-compressed to " + target.type().name
                + " exceeds max.message.bytes " + maxBatchBytes);
    }

    private static ByteBuffer rewrite(MutableRecordBatch batch, Compression target, int maxBatchBytes) {
        MemoryRecordsBuilder builder = new MemoryRecordsBuilder(ByteBuffer.allocate(batch.sizeInBytes()),
                RecordBatch.MAGIC_VALUE_V2, target, batch.timestampType(), batch.baseOffset(), RecordBatch.NO_TIMESTAMP,
                batch.producerId(), batch.producerEpoch(), batch.baseSequence(), batch.isTransactional(), false,
                batch.partitionLeaderEpoch(), Integer.MAX_VALUE);
        for (Record record : batch) {
            builder.appendWithOffset(record.offset(), record.timestamp(), record.key(), record.value(), record.headers());
            // Refuse as soon as the batch is too large, not once it is built: a small zstd batch of zeros can
            // decompress to gigabytes.
            if (builder.estimatedSizeInBytes() > maxBatchBytes) {
                throw tooLarge(builder.estimatedSizeInBytes(), target, maxBatchBytes);
            }
        }
        return builder.build().buffer();
    }
}

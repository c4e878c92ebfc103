package io.tributary.broker.log;

import java.nio.ByteBuffer;
import java.util.function.LongPredicate;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.internals.BufferSupplier;
import org.apache.kafka.common.utils.internals.CloseableIterator;

/**
 * Checks record batches before they are appended (structure, magic v2, size, CRC-32C, record count and offset
 * deltas) and while a segment is recovered. Errors are the kafka-clients exceptions the protocol maps to codes:
 * {@link CorruptRecordException} for damaged bytes, {@link InvalidRecordException} for well-formed but
 * unacceptable batches, {@link RecordTooLargeException} for batches over max.message.bytes. Stateless.
 */
final class RecordsValidator {

    private RecordsValidator() {
    }

    /** What an append request holds once validated. Offsets are as received (the leader reassigns them). */
    record ValidatedRecords(int batchCount, int recordCount, long firstOffset, long lastOffset, int sizeInBytes) {
    }

    /**
     * Validates every batch of an append request; nothing is modified.
     *
     * @param origin a producer's request ({@link AppendOrigin#CLIENT}) may hold no control batch; offsets are checked
     *               only in a follower's copy ({@link AppendOrigin#REPLICATION}), whose offsets must increase (elsewhere
     *               the leader assigns them)
     */
    static ValidatedRecords validate(MemoryRecords records, int maxBatchBytes, AppendOrigin origin) {
        boolean fromClient = origin == AppendOrigin.CLIENT;
        boolean checkOffsets = origin == AppendOrigin.REPLICATION;
        int batchCount = 0;
        int recordCount = 0;
        int bytes = 0;
        long firstOffset = -1;
        long previousLastOffset = -1;
        ByteBuffer buffer = records.buffer(); // batches lie back to back from its position
        int batchStart = buffer.position();
        for (MutableRecordBatch batch : records.batches()) {
            checkBatch(batch, buffer.duplicate().position(batchStart).limit(batchStart + batch.sizeInBytes()),
                    maxBatchBytes, fromClient);
            if (checkOffsets && batchCount > 0 && batch.baseOffset() <= previousLastOffset) {
                throw new InvalidRecordException("Batch at offset " + batch.baseOffset()
                        + " does not follow the previous batch ending at " + previousLastOffset);
            }
            if (batchCount == 0) {
                firstOffset = batch.baseOffset();
            }
            previousLastOffset = batch.lastOffset();
            batchCount++;
            recordCount += batch.countOrNull();
            bytes += batch.sizeInBytes();
            batchStart += batch.sizeInBytes();
        }
        if (bytes != records.sizeInBytes()) {
            throw new CorruptRecordException((records.sizeInBytes() - bytes)
                    + " bytes after the last complete batch do not form a record batch");
        }
        return new ValidatedRecords(batchCount, recordCount, firstOffset, previousLastOffset, bytes);
    }

    private static void checkBatch(RecordBatch batch, ByteBuffer batchBytes, int maxBatchBytes, boolean fromClient) {
        checkMagic(batch);
        if (batch.sizeInBytes() > maxBatchBytes) {
            throw new RecordTooLargeException("Batch of " + batch.sizeInBytes()
                    + " bytes exceeds max.message.bytes " + maxBatchBytes);
        }
        batch.ensureValid();
        if (fromClient && batch.isControlBatch()) {
            throw new InvalidRecordException("Clients may not append control batches");
        }
        Integer count = batch.countOrNull();
        if (count == null || count <= 0) {
            throw new InvalidRecordException("Batch at offset " + batch.baseOffset() + " holds no records");
        }
        if (batch.lastOffset() - batch.baseOffset() + 1 != count) {
            throw new InvalidRecordException("Batch at offset " + batch.baseOffset() + " declares " + count
                    + " records but spans offsets up to " + batch.lastOffset());
        }
        if (batch.isCompressed()) {
            checkCompressedRecords(batch, count);
        } else {
            UncompressedRecordsCheck.check(batchBytes, batch.baseOffset(), count);
        }
    }

    /** Decompresses and reads every record: the count and each record's offset delta must agree. */
    private static void checkCompressedRecords(RecordBatch batch, int count) {
        int seen = 0;
        try (CloseableIterator<Record> it = ((MutableRecordBatch) batch).skipKeyValueIterator(BufferSupplier.NO_CACHING)) {
            while (it.hasNext()) {
                Record record = it.next();
                if (record.offset() != batch.baseOffset() + seen) {
                    throw new InvalidRecordException("Record " + seen + " of the batch at offset "
                            + batch.baseOffset() + " has offset delta " + (record.offset() - batch.baseOffset()));
                }
                seen++;
            }
        } catch (InvalidRecordException e) {
            throw e;
        } catch (KafkaException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new CorruptRecordException("Malformed record in the batch at offset " + batch.baseOffset()
                    + ": " + e.getMessage(), e);
        }
        if (seen != count) {
            throw new InvalidRecordException("Batch at offset " + batch.baseOffset() + " declares " + count
                    + " records but holds " + seen);
        }
    }

    private static void checkMagic(RecordBatch batch) {
        if (batch.magic() != RecordBatch.MAGIC_VALUE_V2) {
            throw new InvalidRecordException("Batch at offset " + batch.baseOffset() + " has magic "
                    + batch.magic() + "; only record batch v2 is supported");
        }
    }

    /**
     * Recovery check of a batch read back from a segment: magic v2, CRC-32C, offsets above {@code minOffset}
     * and storable relative to the segment's base offset. The record bodies are covered by the CRC.
     */
    static void checkStoredBatch(RecordBatch batch, long minOffset, LongPredicate fitsSegment) {
        checkMagic(batch);
        batch.ensureValid();
        if (batch.baseOffset() < minOffset || batch.lastOffset() < batch.baseOffset()
                || !fitsSegment.test(batch.lastOffset())) {
            throw new InvalidRecordException("Batch with offsets " + batch.baseOffset() + ".." + batch.lastOffset()
                    + " does not follow offset " + minOffset + " inside this segment");
        }
    }
}

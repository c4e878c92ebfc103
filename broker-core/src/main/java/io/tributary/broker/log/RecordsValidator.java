package io.tributary.broker.log;

import java.nio.ByteBuffer;
import java.util.function.LongPredicate;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.internals.BufferSupplier;
import org.apache.kafka.common.utils.internals.CloseableIterator;

/**
 * Checks record batches before they are appended (structure, magic v2, size, CRC-32C, and for a leader's append
 * the record count and offset deltas) and while a segment is recovered. Errors are the kafka-clients exceptions the protocol maps to codes:
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
     * @param origin a producer's request ({@link AppendOrigin#CLIENT}) may hold no control batch; a follower's copy
     *               ({@link AppendOrigin#REPLICATION}) is checked only for magic, CRC and increasing offsets (elsewhere
     *               the leader assigns them), neither its size nor its records
     * @param rules  what every record of a leader's append must meet (keys, timestamp window)
     */
    static ValidatedRecords validate(MemoryRecords records, int maxBatchBytes, AppendOrigin origin, RecordRules rules) {
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
            if (checkOffsets) {
                checkReplicatedBatch(batch);
            } else {
                checkBatch(batch, buffer.duplicate().position(batchStart).limit(batchStart + batch.sizeInBytes()),
                        maxBatchBytes, fromClient, rules);
            }
            if (checkOffsets && batchCount > 0 && batch.baseOffset() <= previousLastOffset) {
                throw new InvalidRecordException("Batch at offset " + batch.baseOffset()
                        + " does not follow the previous batch ending at " + previousLastOffset);
            }
            if (batchCount == 0) {
                firstOffset = batch.baseOffset();
            }
            previousLastOffset = batch.lastOffset();
            batchCount++;
            Integer count = batch.countOrNull();
            recordCount += count == null ? 0 : count;
            bytes += batch.sizeInBytes();
            batchStart += batch.sizeInBytes();
        }
        if (bytes != records.sizeInBytes()) {
            throw new CorruptRecordException((records.sizeInBytes() - bytes)
                    + " bytes after the last complete batch do not form a record batch");
        }
        return new ValidatedRecords(batchCount, recordCount, firstOffset, previousLastOffset, bytes);
    }

    /**
     * A follower's copy of the leader's log: magic, CRC and offsets only, as Kafka's followers check. The leader
     * validated its records when it appended them, and its cleaner may since have removed records from inside a
     * batch (its offsets then skip) or emptied one that holds a producer's last sequence: both are valid here. Nor
     * is the size checked: max.message.bytes may have been lowered since the leader took the batch, and a follower
     * that refused it would never catch up.
     */
    private static void checkReplicatedBatch(RecordBatch batch) {
        checkMagic(batch);
        batch.ensureValid();
        if (batch.lastOffset() < batch.baseOffset()) {
            throw new InvalidRecordException("Batch at offset " + batch.baseOffset() + " ends before it starts, at "
                    + batch.lastOffset());
        }
    }

    private static void checkBatch(RecordBatch batch, ByteBuffer batchBytes, int maxBatchBytes, boolean fromClient,
                                   RecordRules rules) {
        checkMagic(batch);
        checkSize(batch, maxBatchBytes);
        batch.ensureValid();
        if (fromClient && batch.isControlBatch()) {
            throw new InvalidRecordException("Clients may not append control batches");
        }
        if (fromClient && batch.timestampType() == TimestampType.LOG_APPEND_TIME) {
            throw new InvalidTimestampException("Batch at offset " + batch.baseOffset()
                    + " claims LogAppendTime: only the broker stamps the append time");
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
            checkCompressedRecords(batch, count, rules);
        } else {
            UncompressedRecordsCheck.check(batchBytes, batch.baseOffset(), count, baseTimestamp(batch), rules);
        }
    }

    /** The timestamp record deltas are added to (a magic v2 batch is a DefaultRecordBatch). */
    private static long baseTimestamp(RecordBatch batch) {
        return ((DefaultRecordBatch) batch).baseTimestamp();
    }

    /**
     * Decompresses and reads every record: the count and each record's offset delta must agree, and each
     * record must meet {@code rules}.
     */
    private static void checkCompressedRecords(RecordBatch batch, int count, RecordRules rules) {
        int seen = 0;
        try (CloseableIterator<Record> it = ((MutableRecordBatch) batch).skipKeyValueIterator(BufferSupplier.NO_CACHING)) {
            while (it.hasNext()) {
                Record record = it.next();
                if (record.offset() != batch.baseOffset() + seen) {
                    throw new InvalidRecordException("Record " + seen + " of the batch at offset "
                            + batch.baseOffset() + " has offset delta " + (record.offset() - batch.baseOffset()));
                }
                rules.checkTimestamp(record.timestamp(), seen);
                rules.checkKey(record.hasKey(), seen);
                rules.checkDecompressedSize(record.sizeInBytes(), seen);
                seen++;
            }
        } catch (InvalidRecordException | InvalidTimestampException | RecordTooLargeException e) {
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

    private static void checkSize(RecordBatch batch, int maxBatchBytes) {
        if (batch.sizeInBytes() > maxBatchBytes) {
            throw new RecordTooLargeException("Batch of " + batch.sizeInBytes()
                    + " bytes exceeds max.message.bytes " + maxBatchBytes);
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

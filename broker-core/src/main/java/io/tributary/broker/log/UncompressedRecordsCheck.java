package io.tributary.broker.log;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.apache.kafka.common.utils.internals.ByteUtils;

/**
 * Checks the records of an uncompressed v2 batch where they lie, without materialising them: every record's
 * length prefix, attributes, timestamp and offset deltas, key, value and headers must be well formed and fill
 * exactly the declared length (the checks kafka-clients' record reader makes), offset deltas must run 0, 1,
 * 2, ..., the batch must end with its last declared record, and each record must meet the topic's
 * {@link RecordRules}. Reading the records through kafka-clients
 * builds a record object and key, value and header buffers per record, the largest CPU cost of a produce on
 * the broker; this walk allocates nothing. Stateless.
 */
final class UncompressedRecordsCheck {

    private UncompressedRecordsCheck() {
    }

    /**
     * @param batchBytes the batch's bytes, from its first header byte to its end (position and limit); not modified
     * @param baseOffset the batch's base offset, for messages
     * @param count      the batch's declared record count
     * @param rules      what each record must satisfy besides being well formed; its timestamps are the batch's
     *                   {@code baseTimestamp} plus each record's delta
     * @throws InvalidRecordException naming the first record that is malformed or out of order, or has no key
     *                                where {@code rules} require one
     * @throws org.apache.kafka.common.errors.InvalidTimestampException for a timestamp {@code rules} refuse
     */
    static void check(ByteBuffer batchBytes, long baseOffset, int count, long baseTimestamp, RecordRules rules) {
        ByteBuffer in = batchBytes.duplicate();
        in.position(in.position() + DefaultRecordBatch.RECORD_BATCH_OVERHEAD);
        for (int index = 0; index < count; index++) {
            try {
                checkRecord(in, index, baseOffset, baseTimestamp, rules);
            } catch (BufferUnderflowException | IllegalArgumentException e) {
                throw new InvalidRecordException("Record " + index + " of the batch at offset " + baseOffset
                        + " is malformed: " + e, e);
            }
        }
        if (in.hasRemaining()) {
            throw new InvalidRecordException("Batch at offset " + baseOffset + " declares " + count + " records but "
                    + in.remaining() + " bytes follow the last of them");
        }
    }

    /** Reads one record from {@code in}, leaving it at the next record. */
    private static void checkRecord(ByteBuffer in, int index, long baseOffset, long baseTimestamp, RecordRules rules) {
        int size = ByteUtils.readVarint(in);
        if (size < 0 || size > in.remaining()) {
            throw malformed(index, baseOffset, "declares " + size + " bytes but " + in.remaining() + " remain in the batch");
        }
        int start = in.position();
        in.get(); // attributes: unused in v2 records
        rules.checkTimestamp(baseTimestamp + ByteUtils.readVarlong(in), index);
        int offsetDelta = ByteUtils.readVarint(in);
        if (offsetDelta != index) {
            throw new InvalidRecordException("Record " + index + " of the batch at offset " + baseOffset
                    + " has offset delta " + offsetDelta);
        }
        rules.checkKey(skipNullable(in) >= 0, index); // key
        skipNullable(in); // value
        int headers = ByteUtils.readVarint(in);
        if (headers < 0 || headers > in.remaining()) {
            throw malformed(index, baseOffset, "declares " + headers + " headers");
        }
        for (int header = 0; header < headers; header++) {
            int keySize = ByteUtils.readVarint(in);
            if (keySize < 0) {
                throw malformed(index, baseOffset, "has a header key of " + keySize + " bytes");
            }
            skip(in, keySize);
            skipNullable(in); // header value
        }
        if (in.position() - start != size) {
            throw malformed(index, baseOffset, "declares " + size + " bytes but its fields take " + (in.position() - start));
        }
    }

    /** Skips a length-prefixed field where a negative length stands for null; returns that length. */
    private static int skipNullable(ByteBuffer in) {
        int size = ByteUtils.readVarint(in);
        if (size > 0) {
            skip(in, size);
        }
        return size;
    }

    /** @throws IllegalArgumentException if fewer than {@code bytes} remain */
    private static void skip(ByteBuffer in, int bytes) {
        in.position(in.position() + bytes);
    }

    private static InvalidRecordException malformed(int index, long baseOffset, String problem) {
        return new InvalidRecordException("Record " + index + " of the batch at offset " + baseOffset + " " + problem);
    }
}

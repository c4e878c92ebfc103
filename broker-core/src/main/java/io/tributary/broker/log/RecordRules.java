package io.tributary.broker.log;

import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * What a leader requires of every record a producer sends, beyond being well formed: a key on a compacted
 * topic (the cleaner keeps the latest record per key, so a keyless one has no meaning there), and on a
 * CreateTime topic a timestamp inside [now − message.timestamp.before.max.ms, now +
 * message.timestamp.after.max.ms]; and no record larger decompressed than max.decompressed.message.bytes. A
 * follower's copy is checked against {@link #ANY}: its leader checked it.
 *
 * @param earliestTimestamp smallest accepted record timestamp, inclusive
 * @param latestTimestamp   largest accepted record timestamp, inclusive
 */
record RecordRules(String topicPartition, boolean keyRequired, long earliestTimestamp, long latestTimestamp,
                   int maxDecompressedRecordBytes) {

    /** No requirement beyond well-formedness. */
    static final RecordRules ANY = new RecordRules("", false, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE);

    /** The rules of a topic's config for records appended at broker time {@code now}. */
    static RecordRules forLeader(String topicPartition, LogConfig config, long now) {
        boolean keyRequired = config.compactionEnabled();
        int maxRecordBytes = config.maxDecompressedMessageBytes();
        if (config.storedCompression().filter(stored -> stored.type() == CompressionType.NONE).isPresent()) {
            // Stored uncompressed, a larger record can never fit a batch: refuse it before it is decompressed whole.
            maxRecordBytes = Math.min(maxRecordBytes, config.maxMessageBytes());
        }
        if (config.timestampType() != TimestampType.CREATE_TIME) {
            return new RecordRules(topicPartition, keyRequired, Long.MIN_VALUE, Long.MAX_VALUE, maxRecordBytes);
        }
        return new RecordRules(topicPartition, keyRequired,
                saturatedSubtract(now, config.timestampBeforeMaxMs()),
                saturatedAdd(now, config.timestampAfterMaxMs()), maxRecordBytes);
    }

    /** @throws RecordTooLargeException if record {@code index} of a compressed batch is too large decompressed */
    void checkDecompressedSize(int recordBytes, int index) {
        if (recordBytes > maxDecompressedRecordBytes) {
            throw new RecordTooLargeException("Record " + index + " of a compressed batch to " + topicPartition
                    + " takes " + recordBytes + " bytes decompressed, more than the " + maxDecompressedRecordBytes
                    + " a record may take here (max.decompressed.message.bytes, or max.message.bytes on a topic that "
                    + "stores batches uncompressed)");
        }
    }

    /** @throws InvalidRecordException if record {@code index} of a batch has no key and one is required */
    void checkKey(boolean hasKey, int index) {
        if (keyRequired && !hasKey) {
            throw new InvalidRecordException("Compacted topic cannot accept message without key in topic partition "
                    + topicPartition + " (record " + index + " of a batch)");
        }
    }

    /** @throws InvalidTimestampException if record {@code index} of a batch has a timestamp outside the window */
    void checkTimestamp(long timestamp, int index) {
        if (timestamp == RecordBatch.NO_TIMESTAMP) {
            return; // a record without a timestamp is not checked, as in Kafka
        }
        if (timestamp < earliestTimestamp || timestamp > latestTimestamp) {
            throw new InvalidTimestampException("Timestamp " + timestamp + " of record " + index + " of a batch to "
                    + topicPartition + " is out of range: it must lie within [" + earliestTimestamp + ", "
                    + latestTimestamp + "] (message.timestamp.before.max.ms, message.timestamp.after.max.ms)");
        }
    }

    private static long saturatedSubtract(long a, long b) {
        long r = a - b;
        return ((a ^ b) & (a ^ r)) < 0 ? Long.MIN_VALUE : r;
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }
}

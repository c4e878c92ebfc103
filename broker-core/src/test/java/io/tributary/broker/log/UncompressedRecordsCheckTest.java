package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.internals.ByteUtils;
import org.junit.jupiter.api.Test;

class UncompressedRecordsCheckTest {

    @Test
    void acceptsWhatAProducerWritesWithNullAndEmptyKeysValuesAndHeaders() {
        ByteBuffer batch = batch(new Random(1), 50);
        assertThatCode(() -> UncompressedRecordsCheck.check(batch, 0, 50, 0, RecordRules.ANY)).doesNotThrowAnyException();
        assertThat(batch.position()).isZero();
    }

    @Test
    void rejectsAnOffsetDeltaOutOfSequence() {
        ByteBuffer batch = singleRecordBatch(3);
        assertThatThrownBy(() -> UncompressedRecordsCheck.check(batch, 100, 1, 0, RecordRules.ANY))
                .isInstanceOf(InvalidRecordException.class).hasMessageContaining("Record 0 of the batch at offset 100 has offset delta 3");
    }

    @Test
    void rejectsFewerRecordsThanDeclared() {
        ByteBuffer batch = batch(new Random(2), 5);
        assertThatThrownBy(() -> UncompressedRecordsCheck.check(batch, 0, 6, 0, RecordRules.ANY))
                .isInstanceOf(InvalidRecordException.class).hasMessageContaining("Record 5");
    }

    @Test
    void rejectsBytesAfterTheLastDeclaredRecord() {
        ByteBuffer batch = batch(new Random(3), 5);
        assertThatThrownBy(() -> UncompressedRecordsCheck.check(batch, 0, 4, 0, RecordRules.ANY))
                .isInstanceOf(InvalidRecordException.class).hasMessageContaining("follow the last of them");
    }

    /**
     * Damaged record bytes (the CRC is not this class's business) are rejected exactly when kafka-clients' own
     * record reader, plus the offset-delta rule, rejects them.
     */
    @Test
    void agreesWithKafkaClientsReaderOnThousandsOfDamagedBatches() {
        Random random = new Random(42);
        List<String> disagreements = new ArrayList<>();
        int rejected = 0;
        for (int trial = 0; trial < 4_000; trial++) {
            int count = 1 + random.nextInt(6);
            ByteBuffer batch = batch(random, count);
            int damages = 1 + random.nextInt(3);
            for (int i = 0; i < damages; i++) {
                int position = DefaultRecordBatch.RECORD_BATCH_OVERHEAD
                        + random.nextInt(batch.limit() - DefaultRecordBatch.RECORD_BATCH_OVERHEAD);
                batch.put(position, random.nextBoolean() ? (byte) random.nextInt() : (byte) (batch.get(position) + random.nextInt(3) - 1));
            }
            boolean reference = readerAccepts(batch.duplicate(), count);
            boolean ours = checkAccepts(batch, count);
            rejected += ours ? 0 : 1;
            if (reference != ours) {
                disagreements.add("trial " + trial + ": kafka-clients " + reference + ", ours " + ours);
            }
        }
        assertThat(disagreements).isEmpty();
        assertThat(rejected).as("most damage is detected").isGreaterThan(1_000);
    }

    private static boolean checkAccepts(ByteBuffer batch, int count) {
        try {
            UncompressedRecordsCheck.check(batch, 0, count, 0, RecordRules.ANY);
            return true;
        } catch (InvalidRecordException e) {
            return false;
        }
    }

    /** What the validator did before: read every record with kafka-clients and check its offset. */
    private static boolean readerAccepts(ByteBuffer batch, int count) {
        try {
            RecordBatch parsed = MemoryRecords.readableRecords(batch).batches().iterator().next();
            int seen = 0;
            for (Record record : parsed) {
                if (record.offset() != seen) {
                    return false;
                }
                seen++;
            }
            return seen == count;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** One uncompressed batch (base offset 0) of {@code count} records with random keys, values and headers. */
    private static ByteBuffer batch(Random random, int count) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(64 * 1024), RecordBatch.MAGIC_VALUE_V2,
                Compression.NONE, TimestampType.CREATE_TIME, 0L);
        for (int i = 0; i < count; i++) {
            Header[] headers = new Header[random.nextInt(3)];
            for (int h = 0; h < headers.length; h++) {
                headers[h] = new RecordHeader("h" + h, random.nextBoolean() ? null : bytes(random));
            }
            builder.append(new SimpleRecord(1_000L + random.nextInt(1_000), random.nextBoolean() ? null : bytes(random),
                    random.nextInt(5) == 0 ? null : bytes(random), headers));
        }
        return builder.build().buffer();
    }

    private static byte[] bytes(Random random) {
        byte[] bytes = new byte[random.nextInt(40)];
        random.nextBytes(bytes);
        return bytes;
    }

    /** A one-record batch whose record claims offset delta {@code offsetDelta}. */
    private static ByteBuffer singleRecordBatch(int offsetDelta) {
        ByteBuffer batch = MemoryRecords.withRecords(Compression.NONE,
                new SimpleRecord(1L, null, "v".getBytes(StandardCharsets.UTF_8))).buffer();
        // Record layout: length varint (1 byte here), attributes, timestamp delta (0: 1 byte), offset delta.
        int offsetDeltaPosition = DefaultRecordBatch.RECORD_BATCH_OVERHEAD + 3;
        assertThat(batch.get(offsetDeltaPosition)).isZero();
        ByteBuffer delta = ByteBuffer.allocate(1);
        ByteUtils.writeVarint(offsetDelta, delta);
        batch.put(offsetDeltaPosition, delta.get(0));
        return batch;
    }
}

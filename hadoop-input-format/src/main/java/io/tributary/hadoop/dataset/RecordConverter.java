package io.tributary.hadoop.dataset;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a Kafka record into a dataset row of {@link #schema()}. Without a value schema the row
 * has the raw columns; with one, the value is decoded and its fields fill the extra columns
 * (all null for a tombstone). Not thread-safe: use one per writer thread.
 */
public final class RecordConverter {
    private final Schema schema;
    private final Schema headerSchema;
    private final ValueFormat.Decoder decoder; // null when values stay raw
    private final List<Schema.Field> decodedFields;
    // Field positions, looked up once: put(String, ...) would hash the name on every record.
    private final int topicPos;
    private final int partitionPos;
    private final int offsetPos;
    private final int timestampPos;
    private final int keyPos;
    private final int valuePos;
    private final int headersPos;
    private final int decodedPos;

    private RecordConverter(Schema schema, ValueFormat.Decoder decoder, List<Schema.Field> decodedFields) {
        this.schema = schema;
        this.headerSchema = schema.getField(RecordSchema.HEADERS).schema().getElementType();
        this.decoder = decoder;
        this.decodedFields = decodedFields;
        this.topicPos = schema.getField(RecordSchema.TOPIC).pos();
        this.partitionPos = schema.getField(RecordSchema.PARTITION).pos();
        this.offsetPos = schema.getField(RecordSchema.OFFSET).pos();
        this.timestampPos = schema.getField(RecordSchema.TIMESTAMP).pos();
        this.keyPos = schema.getField(RecordSchema.KEY).pos();
        this.valuePos = schema.getField(RecordSchema.VALUE).pos();
        this.headersPos = schema.getField(RecordSchema.HEADERS).pos();
        this.decodedPos = headersPos + 1; // decoded fields follow the raw columns in their own order
    }

    /** Rows with the raw columns only. */
    public static RecordConverter raw() {
        return new RecordConverter(RecordSchema.raw(), null, List.of());
    }

    /** Rows whose values are decoded with {@code valueSchema} in {@code format} into extra columns. */
    public static RecordConverter decoding(Schema valueSchema, ValueFormat format) {
        return new RecordConverter(RecordSchema.withDecodedValue(valueSchema), format.decoder(valueSchema),
            valueSchema.getFields());
    }

    public Schema schema() {
        return schema;
    }

    /** @throws ValueDecodingException if a value schema is set and the value does not decode */
    public GenericRecord convert(ConsumerRecord<byte[], byte[]> record) {
        return convert(record.topic(), record.partition(), record.offset(), record.timestamp(),
            record.key(), record.value(), record.headers());
    }

    /** As {@link #convert(ConsumerRecord)}, from the parts of a record. */
    public GenericRecord convert(String topic, int partition, long offset, long timestamp,
                                 byte[] key, byte[] value, Headers headers) {
        GenericData.Record row = new GenericData.Record(schema);
        row.put(topicPos, topic);
        row.put(partitionPos, partition);
        row.put(offsetPos, offset);
        row.put(timestampPos, timestamp);
        row.put(keyPos, wrap(key));
        row.put(valuePos, wrap(value));
        row.put(headersPos, headers(headers));
        if (decoder != null && value != null) {
            GenericRecord decoded;
            try {
                decoded = decoder.decode(value);
            } catch (IOException | RuntimeException e) {
                throw new ValueDecodingException(topic, partition, offset, e);
            }
            for (Schema.Field f : decodedFields) {
                row.put(decodedPos + f.pos(), decoded.get(f.pos()));
            }
        }
        return row;
    }

    private List<GenericRecord> headers(Headers headers) {
        if (headers == null) {
            return List.of();
        }
        List<GenericRecord> out = new ArrayList<>();
        for (Header h : headers) {
            GenericData.Record header = new GenericData.Record(headerSchema);
            header.put(0, h.key()); // RecordSchema builds headers as {key, value}
            header.put(1, wrap(h.value()));
            out.add(header);
        }
        return out;
    }

    private static ByteBuffer wrap(byte[] bytes) {
        return bytes == null ? null : ByteBuffer.wrap(bytes);
    }
}

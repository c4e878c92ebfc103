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

    private RecordConverter(Schema schema, ValueFormat.Decoder decoder, List<Schema.Field> decodedFields) {
        this.schema = schema;
        this.headerSchema = schema.getField(RecordSchema.HEADERS).schema().getElementType();
        this.decoder = decoder;
        this.decodedFields = decodedFields;
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
        row.put(RecordSchema.TOPIC, topic);
        row.put(RecordSchema.PARTITION, partition);
        row.put(RecordSchema.OFFSET, offset);
        row.put(RecordSchema.TIMESTAMP, timestamp);
        row.put(RecordSchema.KEY, wrap(key));
        row.put(RecordSchema.VALUE, wrap(value));
        row.put(RecordSchema.HEADERS, headers(headers));
        if (decoder != null && value != null) {
            GenericRecord decoded;
            try {
                decoded = decoder.decode(value);
            } catch (IOException | RuntimeException e) {
                throw new ValueDecodingException(topic, partition, offset, e);
            }
            for (Schema.Field f : decodedFields) {
                row.put(f.name(), decoded.get(f.pos()));
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
            header.put(RecordSchema.HEADER_KEY, h.key());
            header.put(RecordSchema.HEADER_VALUE, wrap(h.value()));
            out.add(header);
        }
        return out;
    }

    private static ByteBuffer wrap(byte[] bytes) {
        return bytes == null ? null : ByteBuffer.wrap(bytes);
    }
}

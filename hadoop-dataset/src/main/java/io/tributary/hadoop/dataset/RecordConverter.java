package io.tributary.hadoop.dataset;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a Kafka record into a dataset row of {@link #schema()}. Without a value schema the row
 * has the raw columns; with one, the value is decoded and its fields fill the extra columns
 * (all null for a tombstone). Not thread-safe: use one per writer thread.
 *
 * <p>Rows are shaped for parquet-avro, the only writer they go to, so writing costs no
 * conversion: bytes columns hold the record's {@code byte[]} itself (parquet-avro writes an
 * array without copying it, and its array-backed values hash and compare faster than
 * {@code ByteBuffer}-backed ones in the dictionary and statistics), and strings are {@link Utf8}
 * (written as they are, where a {@code String} would be UTF-8 encoded again for every row): the
 * topic's once per converter, header keys from a small cache.
 */
public final class RecordConverter {
    private static final int MAX_CACHED_HEADER_KEYS = 1024;

    private final Schema schema;
    private final Schema valueSchema; // null when values stay raw
    private final ValueFormat format;
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
    private final Map<String, Utf8> headerKeys = new HashMap<>();
    private String topic;
    private Utf8 topicUtf8;
    private final RowReuse reuse; // null: a new row per record

    private RecordConverter(Schema valueSchema, ValueFormat format, boolean reuseRows) {
        this.schema = valueSchema == null ? RecordSchema.raw() : RecordSchema.withDecodedValue(valueSchema);
        this.valueSchema = valueSchema;
        this.format = format;
        this.headerSchema = schema.getField(RecordSchema.HEADERS).schema().getElementType();
        this.decoder = valueSchema == null ? null : format.decoder(valueSchema);
        this.decodedFields = valueSchema == null ? List.of() : valueSchema.getFields();
        this.topicPos = schema.getField(RecordSchema.TOPIC).pos();
        this.partitionPos = schema.getField(RecordSchema.PARTITION).pos();
        this.offsetPos = schema.getField(RecordSchema.OFFSET).pos();
        this.timestampPos = schema.getField(RecordSchema.TIMESTAMP).pos();
        this.keyPos = schema.getField(RecordSchema.KEY).pos();
        this.valuePos = schema.getField(RecordSchema.VALUE).pos();
        this.headersPos = schema.getField(RecordSchema.HEADERS).pos();
        this.decodedPos = headersPos + 1; // decoded fields follow the raw columns in their own order
        this.reuse = reuseRows ? new RowReuse(schema) : null;
    }

    /** Rows with the raw columns only. */
    public static RecordConverter raw() {
        return new RecordConverter(null, null, false);
    }

    /** Rows whose values are decoded with {@code valueSchema} in {@code format} into extra columns. */
    public static RecordConverter decoding(Schema valueSchema, ValueFormat format) {
        return new RecordConverter(valueSchema, format, false);
    }

    /**
     * A converter for the same rows that refills one row object (and its header records) on every
     * call instead of allocating: for a caller that writes or shreds each row before converting the
     * next. The values it puts in rows are never changed afterwards (the cached topic and header-key
     * {@code Utf8}s included), so shredded rows may keep pointing into them.
     */
    public RecordConverter reusingRows() {
        return new RecordConverter(valueSchema, format, true);
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
        GenericData.Record row = reuse == null ? new GenericData.Record(schema) : reuse.row;
        row.put(topicPos, topicUtf8(topic));
        row.put(partitionPos, partition);
        row.put(offsetPos, offset);
        row.put(timestampPos, timestamp);
        row.put(keyPos, key);
        row.put(valuePos, value);
        row.put(headersPos, headers(headers));
        if (decoder != null) {
            GenericRecord decoded = value == null ? null : decode(topic, partition, offset, value);
            for (Schema.Field f : decodedFields) {
                row.put(decodedPos + f.pos(), decoded == null ? null : decoded.get(f.pos())); // all null for a tombstone
            }
        }
        return row;
    }

    private GenericRecord decode(String topic, int partition, long offset, byte[] value) {
        try {
            return decoder.decode(value);
        } catch (IOException | RuntimeException e) {
            throw new ValueDecodingException(topic, partition, offset, e);
        }
    }

    private Utf8 topicUtf8(String topic) {
        if (!topic.equals(this.topic)) {
            this.topic = topic;
            this.topicUtf8 = new Utf8(topic);
        }
        return topicUtf8;
    }

    private List<GenericRecord> headers(Headers headers) {
        List<GenericRecord> out = reuse == null ? new ArrayList<>() : reuse.headerList();
        if (headers == null) {
            return out;
        }
        for (Header h : headers) {
            GenericData.Record header = reuse == null ? new GenericData.Record(headerSchema) : reuse.header(out.size(), headerSchema);
            header.put(0, headerKey(h.key())); // RecordSchema builds headers as {key, value}
            header.put(1, h.value());
            out.add(header);
        }
        return out;
    }

    private Utf8 headerKey(String key) {
        Utf8 utf8 = headerKeys.get(key);
        if (utf8 == null) {
            if (headerKeys.size() >= MAX_CACHED_HEADER_KEYS) {
                headerKeys.clear(); // keys are few in practice; this only bounds a pathological topic
            }
            utf8 = new Utf8(key);
            headerKeys.put(key, utf8);
        }
        return utf8;
    }

    /** The one row, header list and header records a reusing converter refills. */
    private static final class RowReuse {
        final GenericData.Record row;
        final List<GenericRecord> headerList = new ArrayList<>();
        final List<GenericData.Record> headerPool = new ArrayList<>();

        RowReuse(Schema schema) {
            this.row = new GenericData.Record(schema);
        }

        List<GenericRecord> headerList() {
            headerList.clear();
            return headerList;
        }

        GenericData.Record header(int index, Schema headerSchema) {
            if (index == headerPool.size()) {
                headerPool.add(new GenericData.Record(headerSchema));
            }
            return headerPool.get(index);
        }
    }
}

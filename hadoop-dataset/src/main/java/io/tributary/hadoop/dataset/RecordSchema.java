package io.tributary.hadoop.dataset;

import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The Avro schema of a dataset row: {@code topic, partition, offset, timestamp, key, value,
 * headers} (headers as an array of {@code {key: string, value: bytes or null}}), optionally
 * followed by the fields of a user-given value record schema, each made nullable so a
 * tombstone (null value) still fits. The raw {@code value} bytes are always kept.
 */
public final class RecordSchema {
    public static final String TOPIC = "topic";
    public static final String PARTITION = "partition";
    public static final String OFFSET = "offset";
    public static final String TIMESTAMP = "timestamp";
    public static final String KEY = "key";
    public static final String VALUE = "value";
    public static final String HEADERS = "headers";
    public static final String HEADER_KEY = "key";
    public static final String HEADER_VALUE = "value";

    private static final Set<String> RESERVED = Set.of(TOPIC, PARTITION, OFFSET, TIMESTAMP, KEY, VALUE, HEADERS);
    private static final String NAMESPACE = "io.tributary";

    private RecordSchema() {
    }

    /** The row schema with the raw columns only. */
    public static Schema raw() {
        return build(List.of());
    }

    /**
     * The row schema with the fields of {@code valueSchema} (an Avro record) as extra columns.
     *
     * @throws IllegalArgumentException if it is not a record or a field name is one of the raw columns
     */
    public static Schema withDecodedValue(Schema valueSchema) {
        if (valueSchema.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException("the value schema must be an Avro record, not " + valueSchema.getType());
        }
        List<Schema.Field> extra = new ArrayList<>();
        for (Schema.Field f : valueSchema.getFields()) {
            if (RESERVED.contains(f.name())) {
                throw new IllegalArgumentException("value schema field '" + f.name()
                    + "' clashes with a raw column; rename it (reserved: " + RESERVED + ")");
            }
            extra.add(new Schema.Field(f.name(), nullable(f.schema()), f.doc(), Schema.Field.NULL_DEFAULT_VALUE));
        }
        return build(extra);
    }

    private static Schema build(List<Schema.Field> extra) {
        Schema header = SchemaBuilder.record("Header").namespace(NAMESPACE).fields()
            .requiredString(HEADER_KEY)
            .optionalBytes(HEADER_VALUE)
            .endRecord();
        Schema timestamp = LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG));
        List<Schema.Field> fields = new ArrayList<>();
        fields.add(new Schema.Field(TOPIC, Schema.create(Schema.Type.STRING)));
        fields.add(new Schema.Field(PARTITION, Schema.create(Schema.Type.INT)));
        fields.add(new Schema.Field(OFFSET, Schema.create(Schema.Type.LONG)));
        fields.add(new Schema.Field(TIMESTAMP, timestamp));
        fields.add(new Schema.Field(KEY, nullable(Schema.create(Schema.Type.BYTES)), null, Schema.Field.NULL_DEFAULT_VALUE));
        fields.add(new Schema.Field(VALUE, nullable(Schema.create(Schema.Type.BYTES)), null, Schema.Field.NULL_DEFAULT_VALUE));
        fields.add(new Schema.Field(HEADERS, Schema.createArray(header)));
        fields.addAll(extra);
        return Schema.createRecord("TopicRecord", "One record of a topic partition", NAMESPACE, false, fields);
    }

    private static Schema nullable(Schema schema) {
        if (schema.isNullable()) {
            return schema;
        }
        return Schema.createUnion(Schema.create(Schema.Type.NULL), schema);
    }
}

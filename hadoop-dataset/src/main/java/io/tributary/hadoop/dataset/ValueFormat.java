package io.tributary.hadoop.dataset;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** How record values are encoded when a value schema is given. */
public enum ValueFormat {
    /** Plain Avro binary encoding of the value schema (no container header, no registry prefix). */
    AVRO_BINARY,
    /** Avro's JSON encoding of the value schema (unions written as {@code {"type": value}}). */
    JSON;

    /** Parses {@code avro}, {@code avro_binary} or {@code json}, ignoring case. */
    public static ValueFormat parse(String text) {
        switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "avro":
            case "avro_binary":
            case "avro-binary":
                return AVRO_BINARY;
            case "json":
                return JSON;
            default:
                throw new IllegalArgumentException("unknown value format '" + text + "' (use avro or json)");
        }
    }

    /** A decoder for this format; not thread-safe (it reuses its buffers). */
    public Decoder decoder(Schema valueSchema) {
        return new Decoder(this, valueSchema);
    }

    /** Decodes values of one schema; one per thread. */
    public static final class Decoder {
        private final ValueFormat format;
        private final Schema schema;
        private final GenericDatumReader<GenericRecord> reader;
        private BinaryDecoder binary;

        private Decoder(ValueFormat format, Schema schema) {
            this.format = format;
            this.schema = schema;
            this.reader = new GenericDatumReader<>(schema);
        }

        // A new datum every time (reader.read(null, ...)): the loader's shredded rows point into the
        // decoded strings, bytes and fixeds until the map thread has written them.
        public GenericRecord decode(byte[] value) throws IOException {
            if (format == JSON) {
                return reader.read(null, DecoderFactory.get().jsonDecoder(schema, new String(value, StandardCharsets.UTF_8)));
            }
            binary = DecoderFactory.get().binaryDecoder(value, binary);
            GenericRecord record = reader.read(null, binary);
            if (!binary.isEnd()) {
                throw new IOException((value.length - binary.inputStream().available()) + " of " + value.length
                    + " bytes decoded: trailing bytes do not fit the value schema");
            }
            return record;
        }
    }
}

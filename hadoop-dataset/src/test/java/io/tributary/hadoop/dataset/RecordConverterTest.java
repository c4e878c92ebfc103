package io.tributary.hadoop.dataset;

import io.tributary.hadoop.testing.Datasets;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.parquet.hadoop.ParquetWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordConverterTest {
    private static final Schema ORDER = SchemaBuilder.record("Order").fields()
        .requiredLong("id").optionalString("customer").requiredDouble("amount").endRecord();

    @TempDir
    java.nio.file.Path dir;

    @Test
    void rawColumnsAreNamedExactly() {
        assertThat(RecordSchema.raw().getFields()).extracting(Schema.Field::name)
            .containsExactly("topic", "partition", "offset", "timestamp", "key", "value", "headers");
    }

    @Test
    void convertsEveryPartOfARecord() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("h1", bytes("v1"));
        headers.add("h2", null);
        GenericRecord row = RecordConverter.raw().convert(record(bytes("k"), bytes("v"), headers));

        assertThat(row.get("topic")).hasToString("t");
        assertThat(row.get("partition")).isEqualTo(2);
        assertThat(row.get("offset")).isEqualTo(42L);
        assertThat(row.get("timestamp")).isEqualTo(1_000L);
        assertThat(row.get("key")).isEqualTo(bytes("k"));
        assertThat(row.get("value")).isEqualTo(bytes("v"));
        @SuppressWarnings("unchecked")
        List<GenericRecord> hs = (List<GenericRecord>) row.get("headers");
        assertThat(hs).extracting(h -> h.get("key").toString()).containsExactly("h1", "h2");
        assertThat(hs.get(1).get("value")).isNull();
    }

    @Test
    void aReusingConverterRefillsOneRowAndWritesTheSameParquet() throws IOException {
        RecordConverter converter = RecordConverter.decoding(ORDER, ValueFormat.AVRO_BINARY).reusingRows();
        GenericRecord order = new GenericData.Record(ORDER);
        order.put("id", 7L);
        order.put("customer", "ada");
        order.put("amount", 9.5);
        RecordHeaders two = new RecordHeaders();
        two.add("h1", bytes("v1"));
        two.add("h2", bytes("v2"));
        RecordHeaders one = new RecordHeaders();
        one.add("h3", null);

        Path file = new Path(dir.toUri().toString(), "reused.parquet");
        GenericRecord first;
        GenericRecord second;
        try (ParquetWriter<GenericRecord> writer = writerFactory().open(file, converter.schema())) {
            first = converter.convert(record(bytes("k"), avroBinary(order), two));
            writer.write(first);
            second = converter.convert(record(null, null, one)); // a tombstone with fewer headers
            writer.write(second);
        }

        assertThat(second).isSameAs(first);
        List<GenericRecord> back = read(file);
        assertThat(back.get(0).get("id")).isEqualTo(7L);
        assertThat(back.get(0).get("customer")).hasToString("ada");
        assertThat(back.get(0).get("headers").toString()).contains("h1", "h2");
        assertThat(back.get(1).get("id")).isNull();
        assertThat(back.get(1).get("customer")).isNull();
        assertThat(back.get(1).get("key")).isNull();
        @SuppressWarnings("unchecked")
        List<GenericRecord> headers = (List<GenericRecord>) back.get(1).get("headers");
        assertThat(headers).extracting(h -> h.get("key").toString()).containsExactly("h3");
    }

    @Test
    void decodesAvroBinaryValuesIntoColumnsAndWritesParquet() throws IOException {
        RecordConverter converter = RecordConverter.decoding(ORDER, ValueFormat.AVRO_BINARY);
        GenericRecord order = new GenericData.Record(ORDER);
        order.put("id", 7L);
        order.put("customer", "ada");
        order.put("amount", 9.5);

        List<GenericRecord> rows = List.of(
            converter.convert(record(null, avroBinary(order), new RecordHeaders())),
            converter.convert(record(bytes("k"), null, new RecordHeaders()))); // tombstone
        List<GenericRecord> back = writeAndRead(converter.schema(), rows);

        assertThat(back.get(0).get("id")).isEqualTo(7L);
        assertThat(back.get(0).get("customer")).hasToString("ada");
        assertThat(back.get(0).get("amount")).isEqualTo(9.5);
        assertThat(back.get(0).get("key")).isNull();
        assertThat(back.get(1).get("id")).isNull();
        assertThat(back.get(1).get("value")).isNull();
        assertThat(back.get(1).get("offset")).isEqualTo(42L);
    }

    @Test
    void decodesJsonValues() {
        RecordConverter converter = RecordConverter.decoding(ORDER, ValueFormat.parse("json"));
        byte[] json = bytes("{\"id\": 3, \"customer\": {\"string\": \"bo\"}, \"amount\": 1.25}");
        GenericRecord row = converter.convert(record(null, json, new RecordHeaders()));
        assertThat(row.get("id")).isEqualTo(3L);
        assertThat(row.get("customer")).hasToString("bo");
        assertThat(row.get("amount")).isEqualTo(1.25);
    }

    @Test
    void undecodableValueNamesTheRecord() {
        RecordConverter converter = RecordConverter.decoding(ORDER, ValueFormat.JSON);
        assertThatThrownBy(() -> converter.convert(record(null, bytes("not json"), new RecordHeaders())))
            .isInstanceOf(ValueDecodingException.class)
            .hasMessageContaining("t-2 at offset 42");
        RecordConverter binary = RecordConverter.decoding(ORDER, ValueFormat.AVRO_BINARY);
        assertThatThrownBy(() -> binary.convert(record(null, new byte[] {2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 9}, new RecordHeaders())))
            .isInstanceOf(ValueDecodingException.class)
            .hasMessageContaining("trailing bytes");
    }

    @Test
    void valueSchemaMustNotShadowRawColumns() {
        Schema clash = SchemaBuilder.record("V").fields().requiredLong("offset").endRecord();
        assertThatThrownBy(() -> RecordSchema.withDecodedValue(clash)).hasMessageContaining("'offset' clashes");
        assertThatThrownBy(() -> RecordSchema.withDecodedValue(Schema.create(Schema.Type.STRING)))
            .hasMessageContaining("must be an Avro record");
    }

    private List<GenericRecord> writeAndRead(Schema schema, List<GenericRecord> rows) throws IOException {
        Path file = new Path(dir.toUri().toString(), "rows.parquet");
        try (ParquetWriter<GenericRecord> writer = writerFactory().open(file, schema)) {
            for (GenericRecord row : rows) {
                writer.write(row);
            }
        }
        return read(file);
    }

    private static ParquetWriterFactory writerFactory() {
        return new ParquetWriterFactory(new Configuration(), ParquetWriterFactory.codec("snappy"), ParquetWriterFactory.DEFAULT_ROW_GROUP_BYTES);
    }

    private static List<GenericRecord> read(Path file) throws IOException {
        return Datasets.rows(file, new Configuration());
    }

    private static ConsumerRecord<byte[], byte[]> record(byte[] key, byte[] value, RecordHeaders headers) {
        return new ConsumerRecord<>("t", 2, 42L, 1_000L, TimestampType.CREATE_TIME, -1, -1, key, value, headers, Optional.empty());
    }

    private static byte[] avroBinary(GenericRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

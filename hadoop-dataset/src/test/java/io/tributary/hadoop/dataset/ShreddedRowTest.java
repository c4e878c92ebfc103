package io.tributary.hadoop.dataset;

import io.tributary.hadoop.testing.Datasets;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.util.Utf8;
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
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShreddedRowTest {
    /** Every kind of value parquet-avro writes: each primitive, enum, fixed, nested record, array, map, nullable union, a logical type. */
    private static final Schema EVERYTHING = SchemaBuilder.record("Everything").namespace("test").fields()
        .requiredInt("i").requiredLong("l").requiredFloat("f").requiredDouble("d").requiredBoolean("b")
        .requiredString("s").requiredBytes("raw")
        .name("color").type().enumeration("Color").symbols("RED", "GREEN").noDefault()
        .name("four").type().fixed("Four").size(4).noDefault()
        .name("inner").type().record("Inner").fields().requiredInt("x").optionalString("y").endRecord().noDefault()
        .name("list").type().array().items().longType().noDefault()
        .name("map").type().map().values().stringType().noDefault()
        .optionalLong("maybe")
        .name("at").type(LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG))).noDefault()
        .endRecord();

    /** A value schema with a union of four branches, an array of nullable strings and bytes. */
    private static final Schema DECODED = new Schema.Parser().parse("""
        {"type": "record", "name": "V", "fields": [
          {"name": "id", "type": "long"},
          {"name": "u", "type": ["null", "int", "string", {"type": "record", "name": "R", "fields": [{"name": "q", "type": "string"}]}]},
          {"name": "xs", "type": {"type": "array", "items": ["null", "string"]}},
          {"name": "b", "type": "bytes"}]}""");

    @TempDir
    java.nio.file.Path dir;

    private final ParquetWriterFactory writers = new ParquetWriterFactory(new Configuration(), ParquetWriterFactory.codec("snappy"),
        ParquetWriterFactory.DEFAULT_ROW_GROUP_BYTES);

    @Test
    void shreddedRowsMakeTheFileParquetAvroMakesFromTheRows() throws IOException {
        List<GenericRecord> rows = new ArrayList<>();
        for (int n = 0; n < 1_000; n++) {
            rows.add(everything(n));
        }

        Path direct = writeDirect("direct.parquet", EVERYTHING, rows);
        Path shredded = writeShredded("shredded.parquet", EVERYTHING, rows);

        assertThat(Files.readAllBytes(dir.resolve("shredded.parquet"))).as("byte for byte, footer included")
            .isEqualTo(Files.readAllBytes(dir.resolve("direct.parquet")));
        assertThat(read(shredded)).hasSize(1_000).isEqualTo(read(direct));
    }

    @Test
    void decodedRowsShreddedAheadOfWritingMakeTheSameFileOverManyPagesAndRowGroups() throws IOException {
        Configuration conf = new Configuration();
        conf.setBoolean("parquet.avro.write-old-list-structure", false); // three-level lists, with null elements
        ParquetWriterFactory small = new ParquetWriterFactory(conf, ParquetWriterFactory.codec("snappy"), 64 * 1024, 4096);
        RecordConverter reusing = RecordConverter.decoding(DECODED, ValueFormat.AVRO_BINARY).reusingRows();
        RecordConverter fresh = RecordConverter.decoding(DECODED, ValueFormat.AVRO_BINARY);
        RowShredder shredder = small.shredder(reusing.schema());
        List<ShreddedRow> shredded = new ArrayList<>();
        List<GenericRecord> rows = new ArrayList<>();
        for (int n = 0; n < 20_000; n++) { // as the fetch thread does: all shredded from one refilled row before any is written
            ConsumerRecord<byte[], byte[]> record = decodable(n);
            shredded.add(shredder.shred(reusing.convert(record)));
            rows.add(fresh.convert(record));
        }

        Path direct = new Path(dir.resolve("direct-decoded.parquet").toUri());
        try (ParquetWriter<GenericRecord> writer = small.open(direct, fresh.schema())) {
            for (GenericRecord row : rows) {
                writer.write(row);
            }
        }
        Path file = new Path(dir.resolve("shredded-decoded.parquet").toUri());
        try (ParquetWriter<ShreddedRow> writer = small.openShredded(file, reusing.schema())) {
            for (ShreddedRow row : shredded) {
                writer.write(row);
            }
        }

        assertThat(Files.size(dir.resolve("direct-decoded.parquet"))).as("several row groups").isGreaterThan(128 * 1024);
        assertThat(Files.readAllBytes(dir.resolve("shredded-decoded.parquet"))).isEqualTo(Files.readAllBytes(dir.resolve("direct-decoded.parquet")));
    }

    @Test
    void theRowObjectCanBeRefilledOnceItIsShredded() throws IOException {
        RecordConverter reusing = RecordConverter.raw().reusingRows();
        RowShredder shredder = writers.shredder(reusing.schema());
        ConsumerRecord<byte[], byte[]> first = record(1, "k1", "v1", "h", "one");
        ConsumerRecord<byte[], byte[]> second = record(2, null, "v2", "h", null);

        ShreddedRow one = shredder.shred(reusing.convert(first));
        ShreddedRow two = shredder.shred(reusing.convert(second)); // refills the row object the first came from

        Path file = new Path(dir.resolve("raw.parquet").toUri());
        try (ParquetWriter<ShreddedRow> writer = writers.openShredded(file, reusing.schema())) {
            writer.write(one);
            writer.write(two);
        }
        RecordConverter fresh = RecordConverter.raw();
        Path direct = writeDirect("raw-direct.parquet", fresh.schema(), List.of(fresh.convert(first), fresh.convert(second)));
        assertThat(read(file)).hasSize(2).isEqualTo(read(direct));
    }

    @Test
    void aRowThatDoesNotFitItsSchemaFailsWhenShreddedAndTheShredderGoesOn() throws IOException {
        RowShredder shredder = writers.shredder(EVERYTHING);
        GenericRecord broken = everything(1);
        broken.put("inner", null); // a required record

        assertThatThrownBy(() -> shredder.shred(broken)).hasMessageContaining("Null-value for required field: inner");
        assertThatThrownBy(() -> shredder.shred(broken, "orders", 3, 42L)).isInstanceOf(UnwritableRowException.class)
            .hasMessageContaining("row of orders-3 at offset 42 cannot be written as Parquet");

        GenericRecord good = everything(2);
        Path file = new Path(dir.resolve("after-failure.parquet").toUri());
        try (ParquetWriter<ShreddedRow> writer = writers.openShredded(file, EVERYTHING)) {
            writer.write(shredder.shred(good));
        }
        assertThat(read(file)).isEqualTo(read(writeDirect("good.parquet", EVERYTHING, List.of(good))));
    }

    /** Record n: an Avro-binary value of DECODED, 0-2 headers (some null), two topics, some null keys. */
    private static ConsumerRecord<byte[], byte[]> decodable(int n) throws IOException {
        Object u = switch (n % 4) {
            case 0 -> null;
            case 1 -> n;
            case 2 -> "s" + n;
            default -> new GenericRecordBuilder(DECODED.getField("u").schema().getTypes().get(3)).set("q", "q" + n).build();
        };
        GenericRecord value = new GenericRecordBuilder(DECODED).set("id", (long) n).set("u", u)
            .set("xs", n % 3 == 0 ? List.of() : Arrays.asList("a" + n, null, "c"))
            .set("b", ByteBuffer.wrap(("b" + n).getBytes(StandardCharsets.UTF_8))).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(DECODED).write(value, encoder);
        encoder.flush();
        RecordHeaders headers = new RecordHeaders();
        for (int i = 0; i < n % 3; i++) {
            headers.add("h" + (n % 7) + i, i == 1 ? null : ("v" + n).getBytes(StandardCharsets.UTF_8));
        }
        return new ConsumerRecord<>("t" + (n % 2), n % 3, n, 1_000L + n, TimestampType.CREATE_TIME, -1, -1,
            n % 5 == 0 ? null : ("k" + n).getBytes(StandardCharsets.UTF_8), out.toByteArray(), headers, Optional.empty());
    }

    private Path writeDirect(String name, Schema schema, List<GenericRecord> rows) throws IOException {
        Path file = new Path(dir.resolve(name).toUri());
        try (ParquetWriter<GenericRecord> writer = writers.open(file, schema)) {
            for (GenericRecord row : rows) {
                writer.write(row);
            }
        }
        return file;
    }

    private Path writeShredded(String name, Schema schema, List<GenericRecord> rows) throws IOException {
        RowShredder shredder = writers.shredder(schema);
        Path file = new Path(dir.resolve(name).toUri());
        try (ParquetWriter<ShreddedRow> writer = writers.openShredded(file, schema)) {
            for (GenericRecord row : rows) {
                writer.write(shredder.shred(row));
            }
        }
        return file;
    }

    private static GenericRecord everything(int n) {
        Schema inner = EVERYTHING.getField("inner").schema();
        return new GenericRecordBuilder(EVERYTHING)
            .set("i", n).set("l", n * 1_000_000_007L).set("f", n / 3f).set("d", n / 7d).set("b", n % 2 == 0)
            .set("s", new Utf8("s" + n)).set("raw", ByteBuffer.wrap(("r" + n).getBytes(StandardCharsets.UTF_8)))
            .set("color", new GenericData.EnumSymbol(EVERYTHING.getField("color").schema(), n % 3 == 0 ? "RED" : "GREEN"))
            .set("four", new GenericData.Fixed(EVERYTHING.getField("four").schema(), new byte[] {(byte) n, 1, 2, 3}))
            .set("inner", new GenericRecordBuilder(inner).set("x", -n).set("y", n % 4 == 0 ? null : new Utf8("y" + n)).build())
            .set("list", n % 5 == 0 ? List.of() : List.of((long) n, n + 1L))
            .set("map", n % 6 == 0 ? Map.of() : Map.of(new Utf8("m"), new Utf8("v" + n)))
            .set("maybe", n % 2 == 0 ? null : (long) n)
            .set("at", 1_700_000_000_000L + n)
            .build();
    }

    private static ConsumerRecord<byte[], byte[]> record(long offset, String key, String value, String headerKey, String headerValue) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(headerKey, headerValue == null ? null : headerValue.getBytes(StandardCharsets.UTF_8));
        return new ConsumerRecord<>("t", 0, offset, 1_000L + offset, TimestampType.CREATE_TIME, -1, -1,
            key == null ? null : key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8), headers, Optional.empty());
    }

    private static List<GenericRecord> read(Path file) throws IOException {
        return Datasets.rows(file, new Configuration());
    }
}

package io.tributary.hadoop.dataset;

import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.util.Utf8;
import org.apache.hadoop.conf.Configuration;
import io.tributary.hadoop.testing.Datasets;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.parquet.hadoop.ParquetWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
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

        assertThatThrownBy(() -> shredder.shred(broken)).isInstanceOf(RuntimeException.class);

        GenericRecord good = everything(2);
        Path file = new Path(dir.resolve("after-failure.parquet").toUri());
        try (ParquetWriter<ShreddedRow> writer = writers.openShredded(file, EVERYTHING)) {
            writer.write(shredder.shred(good));
        }
        assertThat(read(file)).isEqualTo(read(writeDirect("good.parquet", EVERYTHING, List.of(good))));
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

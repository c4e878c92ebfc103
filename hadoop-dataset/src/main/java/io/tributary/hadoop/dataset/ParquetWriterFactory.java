package io.tributary.hadoop.dataset;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.avro.AvroSchemaConverter;
import org.apache.parquet.avro.AvroWriteSupport;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;

import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Opens the dataset's Parquet writers (parquet-avro), with one codec and row-group size for a
 * whole writer process. Thread-safe; each writer it opens is not.
 */
public final class ParquetWriterFactory {
    public static final CompressionCodecName DEFAULT_CODEC = CompressionCodecName.SNAPPY;
    public static final long DEFAULT_ROW_GROUP_BYTES = ParquetWriter.DEFAULT_BLOCK_SIZE;
    public static final int DEFAULT_PAGE_BYTES = ParquetWriter.DEFAULT_PAGE_SIZE;

    private final Configuration conf;
    private final CompressionCodecName codec;
    private final long rowGroupBytes;
    private final int pageBytes;
    private final Optional<Set<String>> dictionaryColumns; // empty: Parquet's default, every column

    public ParquetWriterFactory(Configuration conf, CompressionCodecName codec, long rowGroupBytes) {
        this(conf, codec, rowGroupBytes, DEFAULT_PAGE_BYTES);
    }

    /**
     * As {@link #ParquetWriterFactory(Configuration, CompressionCodecName, long)} with a page size.
     * Each open writer allocates about one page per compressed column up front, so a process
     * that keeps many writers open (the sink) wants small pages.
     */
    public ParquetWriterFactory(Configuration conf, CompressionCodecName codec, long rowGroupBytes, int pageBytes) {
        this(conf, codec, rowGroupBytes, pageBytes, Optional.empty());
    }

    private ParquetWriterFactory(Configuration conf, CompressionCodecName codec, long rowGroupBytes, int pageBytes,
                                 Optional<Set<String>> dictionaryColumns) {
        if (rowGroupBytes < 1024) {
            throw new IllegalArgumentException("row group size too small: " + rowGroupBytes);
        }
        if (pageBytes < 1024) {
            throw new IllegalArgumentException("page size too small: " + pageBytes);
        }
        this.conf = conf;
        this.codec = codec;
        this.rowGroupBytes = rowGroupBytes;
        this.pageBytes = pageBytes;
        this.dictionaryColumns = dictionaryColumns.map(Set::copyOf);
    }

    /**
     * The same factory with dictionary encoding for the top-level {@code columns} only. A
     * dictionary encoder keeps every distinct value of its column on the heap for as long as the
     * file is open, and {@link ParquetWriter#getDataSize()} does not count it: a process that
     * bounds the memory of many open writers by their data size (the sink) must leave it off
     * wherever values are many.
     */
    public ParquetWriterFactory withDictionaryOnly(Set<String> columns) {
        return new ParquetWriterFactory(conf, codec, rowGroupBytes, pageBytes, Optional.of(columns));
    }

    /** Parses a codec name such as {@code snappy}, {@code zstd}, {@code gzip} or {@code uncompressed}. */
    public static CompressionCodecName codec(String name) {
        try {
            return CompressionCodecName.valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown Parquet codec '" + name + "', use one of "
                + Arrays.toString(CompressionCodecName.values()).toLowerCase(Locale.ROOT), e);
        }
    }

    public CompressionCodecName codec() {
        return codec;
    }

    /** Creates {@code path} (which must not exist) for rows of {@code schema}; its bytes are durable once the writer is closed. */
    public ParquetWriter<GenericRecord> open(Path path, Schema schema) throws IOException {
        return configured(AvroParquetWriter.<GenericRecord>builder(new DurableOutputFile(path, conf))
            .withSchema(schema)
            .withDataModel(GenericData.get()))
            .build();
    }

    /**
     * Creates {@code path} (which must not exist) for rows of {@code schema} that come already
     * shredded by {@link #shredder(Schema)}: the same file as {@link #open} writes from the rows.
     */
    public ParquetWriter<ShreddedRow> openShredded(Path path, Schema schema) throws IOException {
        return configured(new ShreddedWriterBuilder(new DurableOutputFile(path, conf), avroWriteSupport(schema))).build();
    }

    /** Shreds rows of {@code schema} for {@link #openShredded}'s writers, as parquet-avro does for {@link #open}'s. */
    public RowShredder shredder(Schema schema) {
        AvroWriteSupport<GenericRecord> avro = avroWriteSupport(schema);
        avro.init(conf); // picks the list layout from the configuration, as a writer's does
        return new RowShredder(avro);
    }

    /** What parquet-avro's own builder makes for {@code schema} and the generic data model. */
    private AvroWriteSupport<GenericRecord> avroWriteSupport(Schema schema) {
        return new AvroWriteSupport<>(new AvroSchemaConverter(conf).convert(schema), schema, GenericData.get());
    }

    private <T, B extends ParquetWriter.Builder<T, B>> B configured(B builder) {
        builder.withConf(conf)
            .withCompressionCodec(codec)
            .withRowGroupSize(rowGroupBytes)
            .withPageSize(pageBytes)
            .withWriteMode(ParquetFileWriter.Mode.CREATE);
        dictionaryColumns.ifPresent(columns -> {
            builder.withDictionaryEncoding(false);
            columns.forEach(column -> builder.withDictionaryEncoding(column, true));
        });
        return builder;
    }

    private static final class ShreddedWriterBuilder extends ParquetWriter.Builder<ShreddedRow, ShreddedWriterBuilder> {
        private final AvroWriteSupport<GenericRecord> avro;

        ShreddedWriterBuilder(OutputFile file, AvroWriteSupport<GenericRecord> avro) {
            super(file);
            this.avro = avro;
        }

        @Override
        protected ShreddedWriterBuilder self() {
            return this;
        }

        @Override
        protected WriteSupport<ShreddedRow> getWriteSupport(Configuration conf) {
            return new ShreddedRowWriteSupport(avro);
        }

        @Override
        protected WriteSupport<ShreddedRow> getWriteSupport(ParquetConfiguration conf) {
            return new ShreddedRowWriteSupport(avro);
        }
    }
}

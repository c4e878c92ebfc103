package io.tributary.hadoop.dataset;

import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.avro.AvroWriteSupport;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * Writes {@link ShreddedRow}s by replaying them. The file's schema and metadata come from
 * parquet-avro's {@link AvroWriteSupport} for the same Avro schema, so readers see the file
 * parquet-avro would have written from the rows.
 */
final class ShreddedRowWriteSupport extends WriteSupport<ShreddedRow> {
    private final AvroWriteSupport<GenericRecord> avro;
    private RecordConsumer consumer;

    ShreddedRowWriteSupport(AvroWriteSupport<GenericRecord> avro) {
        this.avro = avro;
    }

    @Override
    public WriteContext init(Configuration conf) {
        return avro.init(conf);
    }

    @Override
    public WriteContext init(ParquetConfiguration conf) {
        return avro.init(conf);
    }

    @Override
    public String getName() {
        return avro.getName();
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
        this.consumer = recordConsumer;
    }

    @Override
    public void write(ShreddedRow row) {
        row.replayTo(consumer);
    }

    @Override
    public FinalizedWriteContext finalizeWrite() {
        return avro.finalizeWrite();
    }
}

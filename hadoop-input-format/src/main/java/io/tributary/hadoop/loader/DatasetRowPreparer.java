package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.RecordConverter;
import io.tributary.hadoop.input.RecordPreparer;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The loader's {@link RecordPreparer}: builds each record's dataset row (value decoding included)
 * on the record reader's fetch thread, so that the map thread's {@link DatasetRecordWriter} only
 * encodes Parquet. A new row per record, since rows cross to the map thread; a value that does
 * not decode fails the read at that record.
 */
public final class DatasetRowPreparer implements RecordPreparer {
    private final RecordConverter converter;

    DatasetRowPreparer(RecordConverter converter) {
        this.converter = converter;
    }

    @Override
    public GenericRecord prepare(ConsumerRecord<byte[], byte[]> record) {
        return converter.convert(record);
    }

    /** Named in the loader's job configuration; makes a preparer for the configured value decoding. */
    public static final class Factory implements RecordPreparer.Factory {
        @Override
        public RecordPreparer create(Configuration conf) {
            return new DatasetRowPreparer(new LoaderConfig(conf).converter());
        }
    }
}

package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.RecordConverter;
import io.tributary.hadoop.dataset.RowShredder;
import io.tributary.hadoop.dataset.ShreddedRow;
import io.tributary.hadoop.input.RecordPreparer;
import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The loader's {@link RecordPreparer}: on the record reader's fetch thread, builds each record's
 * dataset row (value decoding included) and shreds it into Parquet's column events, so that the
 * map thread's {@link DatasetRecordWriter} only encodes columns. The row object itself does not
 * cross threads (one is reused); the shredded row does. A value that does not decode, or does not
 * fit its schema, fails the read at that record.
 */
public final class DatasetRowPreparer implements RecordPreparer {
    private final RecordConverter converter;
    private final RowShredder shredder;

    DatasetRowPreparer(RecordConverter converter, RowShredder shredder) {
        this.converter = converter;
        this.shredder = shredder;
    }

    @Override
    public ShreddedRow prepare(ConsumerRecord<byte[], byte[]> record) {
        return shredder.shred(converter.convert(record), record.topic(), record.partition(), record.offset());
    }

    /** Named in the loader's job configuration; makes a preparer for the configured value decoding. */
    public static final class Factory implements RecordPreparer.Factory {
        @Override
        public RecordPreparer create(Configuration conf) {
            LoaderConfig config = new LoaderConfig(conf);
            RecordConverter converter = config.converter();
            return new DatasetRowPreparer(converter, config.writerFactory().shredder(converter.schema()));
        }
    }
}

package io.tributary.hadoop.input;

import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.io.IOException;

/**
 * Per-record work a job wants done before its map thread sees the record, e.g. building the row
 * its output format writes. The record reader runs it right after reading each record — on the
 * fetch thread when prefetching, so it overlaps with the map thread's own work — and hands the
 * result over with the record as {@link TopicRecordWritable#prepared()}. Optional: a job names a
 * {@link Factory} in {@link InputConfig#RECORD_PREPARER}; without one nothing is prepared.
 *
 * <p>A preparer is used by one thread at a time, but its results are read on another: they must
 * not be reused or changed after {@link #prepare} returned them.
 */
public interface RecordPreparer {
    /** Prepares nothing: {@link TopicRecordWritable#prepared()} stays null. */
    RecordPreparer NONE = record -> null;

    /**
     * What the job's map side wants of {@code record}. A failure fails the read at this record,
     * after the records before it were handed over.
     */
    Object prepare(ConsumerRecord<byte[], byte[]> record) throws IOException;

    /**
     * Makes one preparer per split being read. Named by class in the job configuration, so it
     * needs a public no-argument constructor.
     */
    interface Factory {
        RecordPreparer create(Configuration conf);
    }
}

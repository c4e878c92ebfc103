package io.tributary.hadoop.input;

import io.tributary.hadoop.dataset.LostRange;
import io.tributary.hadoop.dataset.MissingPolicy;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;

/**
 * The records of a split's offset ranges, in offset order within each range, as a record reader
 * pulls them: {@link OffsetRangeReader} on the caller's thread, or {@link PrefetchingRangeReader}
 * fetching ahead on a thread of its own. Used from one thread.
 */
public interface RangeReader extends Closeable {
    /** Moves to the next record of the split; false once every range is read. */
    boolean next() throws IOException;

    /** The record {@link #next()} moved to; stays valid until the next call of {@link #next()}. */
    ConsumerRecord<byte[], byte[]> current();

    /** What the reader's {@link RecordPreparer} made of {@link #current()}; null without one. */
    Object prepared();

    /** The payload size of {@link #current()} as {@link RecordSizes} counts it. */
    long currentSize();

    /** The fraction of the split's offsets the caller has read so far, 0 to 1. */
    float progress();

    /** Ranges retention deleted before they were read (only with {@link MissingPolicy#SKIP}). */
    List<LostRange> lostRanges();

    /** Stops reading and closes the consumer. */
    @Override
    void close();
}

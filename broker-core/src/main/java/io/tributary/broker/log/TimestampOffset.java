package io.tributary.broker.log;

import org.apache.kafka.common.record.internal.RecordBatch;

/** A time index entry: the batches up to {@code offset} hold no timestamp larger than {@code timestamp}. */
record TimestampOffset(long timestamp, long offset) {

    static final TimestampOffset UNKNOWN = new TimestampOffset(RecordBatch.NO_TIMESTAMP, -1);
}

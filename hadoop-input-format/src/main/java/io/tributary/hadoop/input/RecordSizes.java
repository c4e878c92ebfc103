package io.tributary.hadoop.input;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/** The payload size of a record as counted by split limits and the bytes counter. */
final class RecordSizes {
    private RecordSizes() {
    }

    static long of(ConsumerRecord<byte[], byte[]> record) {
        long size = Math.max(0, record.serializedKeySize()) + Math.max(0, record.serializedValueSize());
        for (Header h : record.headers()) {
            size += h.key().length() + (h.value() == null ? 0 : h.value().length);
        }
        return size;
    }
}

package io.tributary.sink;

import io.tributary.hadoop.dataset.RecordConverter;
import io.tributary.hadoop.dataset.ValueDecodingException;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Time;

import java.io.IOException;
import java.util.List;

/**
 * Converts a partition's records and appends them to its open files, stopping where the files
 * are full (flush.size, file.max.bytes), a write fails or a bad record stops the sink. One per
 * writer thread: it owns a {@link RecordConverter}, which is not thread-safe.
 */
final class PartitionWriter {
    private final RecordConverter converter;
    private final BadRecords badRecords;
    private final RotationPolicy rotation;
    private final Time time;

    PartitionWriter(RecordConverter converter, BadRecords badRecords, RotationPolicy rotation, Time time) {
        this.converter = converter;
        this.badRecords = badRecords;
        this.rotation = rotation;
        this.time = time;
    }

    WriteOutcome write(PartitionState state, List<ConsumerRecord<byte[], byte[]>> records) {
        PartitionFiles files = state.files();
        long now = time.milliseconds();
        for (int i = 0; i < records.size(); i++) {
            ConsumerRecord<byte[], byte[]> record = records.get(i);
            if (record.offset() < files.nextOffset()) {
                continue; // already in the dataset
            }
            GenericRecord row;
            try {
                row = converter.convert(record);
            } catch (ValueDecodingException e) {
                try {
                    badRecords.handle(record, e);
                } catch (BadRecordException stop) {
                    return WriteOutcome.stopped(state, stop);
                }
                files.skip(record.offset(), now);
                continue;
            }
            try {
                files.append(row, record.offset(), record.timestamp(), now);
            } catch (IOException e) {
                return WriteOutcome.failed(state, e);
            }
            state.recordWritten();
            if (rotation.isFull(files)) {
                return WriteOutcome.full(state, records.subList(i + 1, records.size()));
            }
        }
        return WriteOutcome.written(state);
    }
}

package io.tributary.sink;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.io.IOException;
import java.util.List;

/**
 * How writing one partition's share of a batch ended: all written, stopped because its files are
 * full (they must commit before {@code remaining} is written), or stopped by a storage error or by
 * a bad record under the fail policy (nothing after it was written).
 */
record WriteOutcome(PartitionState state, boolean full, List<ConsumerRecord<byte[], byte[]>> remaining,
                    IOException failure, BadRecordException badRecord) {
    static WriteOutcome written(PartitionState state) {
        return new WriteOutcome(state, false, List.of(), null, null);
    }

    static WriteOutcome full(PartitionState state, List<ConsumerRecord<byte[], byte[]>> remaining) {
        return new WriteOutcome(state, true, remaining, null, null);
    }

    static WriteOutcome failed(PartitionState state, IOException failure) {
        return new WriteOutcome(state, false, List.of(), failure, null);
    }

    static WriteOutcome stopped(PartitionState state, BadRecordException badRecord) {
        return new WriteOutcome(state, false, List.of(), null, badRecord);
    }
}

package io.tributary.broker.txn;

import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;

/** The COMMIT or ABORT marker of one producer's transaction, as the coordinator at {@code coordinatorEpoch} decided it. */
public record TxnMarker(long producerId, short producerEpoch, boolean commit, int coordinatorEpoch) {

    /** The control batch Kafka writes for it: one control record, key (version 0, type), value (version 0, coordinator epoch). */
    MemoryRecords controlBatch(long timestampMs) {
        return MemoryRecords.withEndTransactionMarker(timestampMs, producerId, producerEpoch,
                new EndTransactionMarker(commit ? ControlRecordType.COMMIT : ControlRecordType.ABORT, coordinatorEpoch));
    }
}

package io.tributary.broker.log.cleaner;

import java.util.Map;
import io.tributary.broker.log.ProducerStateManager.LastRecord;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * The batches a clean keeps, emptied if need be, because they hold a remembered producer's state (as Kafka's
 * cleaner does): its last data batch, whose sequence range lets a replica that replays the cleaned log recognise
 * retries; or, if a marker of a newer epoch came after that, the marker, which carries the epoch that fences.
 */
final class ProducerLastBatches {
    private final Map<Long, LastRecord> lastRecords;

    ProducerLastBatches(Map<Long, LastRecord> lastRecords) {
        this.lastRecords = lastRecords;
    }

    boolean holdsProducerState(RecordBatch batch) {
        if (!batch.hasProducerId()) {
            return false;
        }
        LastRecord last = lastRecords.get(batch.producerId());
        if (last == null) {
            return false;
        }
        return last.lastDataOffset() >= 0
                ? batch.lastOffset() == last.lastDataOffset()
                : batch.isControlBatch() && batch.producerEpoch() == last.epoch();
    }
}

package io.tributary.broker.log.cleaner;

import java.util.OptionalLong;
import org.apache.kafka.common.record.internal.MemoryRecords.RecordFilter;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * Decides batch by batch, then record by record, what a clean keeps, as Kafka's cleaner does:
 * <ul>
 *   <li>the latest record of each key, except tombstones whose delete horizon has passed. The first clean that keeps
 *       a tombstone stamps its batch with the horizon now + delete.retention.ms (kafka-clients' filter does that); a
 *       later clean past the horizon drops it;</li>
 *   <li>no record of an aborted transaction;</li>
 *   <li>a transaction marker (control batch) while any data of its transaction is left: a read_committed reader
 *       needs it to end the transaction's records, the offsets coordinator to apply a transaction's commits when
 *       it loads. The first clean that finds none left stamps the marker with a delete horizon, like a tombstone,
 *       and a clean past it drops the marker;</li>
 *   <li>the batch holding each remembered producer's state ({@link ProducerLastBatches}), emptied if nothing else
 *       of it is kept.</li>
 * </ul>
 * Other batches left empty are dropped; the offsets of what is kept never change. Batches must be offered in
 * offset order, from the log's first segment: {@link CleanedTransactions} follows the transactions through them.
 */
final class CompactionFilter extends RecordFilter {
    private final LatestOffsets latest;
    private final CleanedTransactions transactions;
    private final ProducerLastBatches producerState;
    private long earliestRetainedHorizonMs = Long.MAX_VALUE;
    /** The current batch's records all go (aborted data, or a marker past its horizon). */
    private boolean dropRecords;

    CompactionFilter(LatestOffsets latest, CleanedTransactions transactions, ProducerLastBatches producerState,
                     long nowMs, long deleteRetentionMs) {
        super(nowMs, deleteRetentionMs);
        this.latest = latest;
        this.transactions = transactions;
        this.producerState = producerState;
    }

    @Override
    protected BatchRetentionResult checkBatchRetention(RecordBatch batch) {
        boolean markerWithoutData = false;
        if (batch.isControlBatch()) {
            markerWithoutData = transactions.onMarker(batch);
            dropRecords = markerWithoutData && horizonPassed(batch);
            if (markerWithoutData && !dropRecords) {
                retainUntil(horizonOf(batch));
            }
        } else {
            dropRecords = transactions.onDataBatch(batch);
        }
        BatchRetention retention = producerState.holdsProducerState(batch) ? BatchRetention.RETAIN_EMPTY
                : dropRecords ? BatchRetention.DELETE : BatchRetention.DELETE_EMPTY;
        // The flag has kafka-clients' filter stamp the horizon on a marker the first time it may go.
        return new BatchRetentionResult(retention, markerWithoutData);
    }

    @Override
    protected boolean shouldRetainRecord(RecordBatch batch, Record record) {
        if (dropRecords) {
            return false;
        }
        if (batch.isControlBatch()) {
            return true;
        }
        if (!latest.isLatest(record)) {
            return false;
        }
        if (record.hasValue()) {
            return true;
        }
        long horizon = horizonOf(batch);
        if (currentTime >= horizon) {
            return false;
        }
        retainUntil(horizon);
        return true;
    }

    /** The delete horizon stamped on {@code batch}, or the one this clean stamps on it. */
    private long horizonOf(RecordBatch batch) {
        OptionalLong stamped = batch.deleteHorizonMs();
        return stamped.isPresent() ? stamped.getAsLong() : currentTime + deleteRetentionMs;
    }

    private boolean horizonPassed(RecordBatch batch) {
        OptionalLong stamped = batch.deleteHorizonMs();
        return stamped.isPresent() && currentTime >= stamped.getAsLong();
    }

    private void retainUntil(long horizonMs) {
        earliestRetainedHorizonMs = Math.min(earliestRetainedHorizonMs, horizonMs);
    }

    /** When the earliest tombstone or marker kept so far may be dropped; Long.MAX_VALUE if none was kept. */
    long earliestRetainedHorizonMs() {
        return earliestRetainedHorizonMs;
    }
}

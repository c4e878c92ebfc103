package io.tributary.broker.log.cleaner;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import io.tributary.broker.log.AbortedTxn;
import io.tributary.broker.log.ProducerStateManager;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * The transactions a clean walks through, batch by batch in offset order (Kafka's CleanedTransactionMetadata): which
 * data batches belong to an aborted transaction (the aborted list comes from the {@code .txnindex} files), whether
 * any data of a marker's transaction is still in the log, and which aborted transactions the cleaned segments must
 * keep in their index (those whose marker stays because some of their data, emptied or not, does). A producer has
 * at most one transaction open at a time, so a producer id names it until its marker.
 */
final class CleanedTransactions {
    private final PriorityQueue<AbortedTxn> notStarted = new PriorityQueue<>(Comparator.comparingLong(AbortedTxn::firstOffset));
    /** The aborted transactions begun by the offset reached whose marker is still ahead, by producer id. */
    private final Map<Long, OngoingAbort> ongoingAborts = new HashMap<>();
    /** Producers with a batch of a not-aborted transaction seen since their last marker. */
    private final Set<Long> committedDataSeen = new HashSet<>();
    private final List<AbortedTxn> indexEntries = new ArrayList<>();

    CleanedTransactions(List<AbortedTxn> aborted) {
        notStarted.addAll(aborted);
    }

    /** @return true if {@code batch} (not a control batch) belongs to an aborted transaction: its records go */
    boolean onDataBatch(RecordBatch batch) {
        startAbortedUpTo(batch.lastOffset());
        if (!batch.isTransactional()) {
            return false;
        }
        OngoingAbort abort = ongoingAborts.get(batch.producerId());
        if (abort != null) {
            abort.dataSeen = true;
            return true;
        }
        committedDataSeen.add(batch.producerId());
        return false;
    }

    /**
     * @return true if no data of the transaction {@code marker} ends is left in the log (or the marker was emptied
     *         by an earlier clean): it may go once its delete horizon has passed
     */
    boolean onMarker(RecordBatch marker) {
        startAbortedUpTo(marker.lastOffset());
        if (!marker.iterator().hasNext()) {
            return true;
        }
        long producerId = marker.producerId();
        ControlRecordType type = ProducerStateManager.markerType(marker);
        if (type == ControlRecordType.ABORT) {
            OngoingAbort abort = ongoingAborts.remove(producerId);
            if (abort != null && abort.dataSeen) {
                indexEntries.add(abort.txn);
                return false;
            }
            return true;
        }
        if (type == ControlRecordType.COMMIT) {
            return !committedDataSeen.remove(producerId);
        }
        return false;
    }

    private void startAbortedUpTo(long offset) {
        while (!notStarted.isEmpty() && notStarted.peek().firstOffset() <= offset) {
            AbortedTxn txn = notStarted.poll();
            ongoingAborts.put(txn.producerId(), new OngoingAbort(txn));
        }
    }

    private static final class OngoingAbort {
        final AbortedTxn txn;
        boolean dataSeen;

        OngoingAbort(AbortedTxn txn) {
            this.txn = txn;
        }
    }

    /** The aborted transactions whose markers were kept since the last call: the index of the segment just cleaned. */
    List<AbortedTxn> takeIndexEntries() {
        List<AbortedTxn> taken = List.copyOf(indexEntries);
        indexEntries.clear();
        return taken;
    }
}

package io.tributary.broker.log.cleaner;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.tributary.broker.log.AbortedTxn;
import io.tributary.broker.log.ClosedSegment;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Utils;

/**
 * The offset of the latest record of every key in a set of closed segments: a record whose offset is not
 * its key's latest has been overwritten. Records of aborted transactions overwrite nothing. Keys are copied, so the map holds every distinct key of the
 * segments in memory (Kafka bounds this with a fixed-size dedupe buffer; we do not yet).
 */
final class LatestOffsets {
    private final Map<ByteBuffer, Long> latest = new HashMap<>();

    /** @param aborted the aborted transactions of the segments, from their {@code .txnindex} files */
    static LatestOffsets of(List<ClosedSegment> segments, List<AbortedTxn> aborted) {
        LatestOffsets offsets = new LatestOffsets();
        CleanedTransactions transactions = new CleanedTransactions(aborted);
        for (ClosedSegment segment : segments) {
            for (RecordBatch batch : segment.records().batches()) {
                if (batch.isControlBatch()) {
                    transactions.onMarker(batch); // a marker's key is not a record key (see CompactionFilter)
                    continue;
                }
                if (transactions.onDataBatch(batch)) {
                    continue;
                }
                for (Record record : batch) {
                    // A key seen before keeps its stored copy; only new keys are copied out of the batch.
                    if (record.hasKey() && offsets.latest.replace(record.key(), record.offset()) == null) {
                        offsets.latest.put(ByteBuffer.wrap(Utils.toArray(record.key())), record.offset());
                    }
                }
            }
        }
        return offsets;
    }

    /** True if no later record in the segments has the same key. Records without a key are always latest. */
    boolean isLatest(Record record) {
        if (!record.hasKey()) {
            return true;
        }
        Long offset = latest.get(record.key());
        return offset == null || offset == record.offset();
    }

    int size() {
        return latest.size();
    }
}

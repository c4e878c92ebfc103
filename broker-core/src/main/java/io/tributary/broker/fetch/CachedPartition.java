package io.tributary.broker.fetch;

import org.apache.kafka.common.message.FetchRequestData.FetchPartition;
import org.apache.kafka.common.message.FetchResponseData.PartitionData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchResponse;

/**
 * One partition of a fetch session: the fetcher's latest request for it (an incremental fetch names only the
 * partitions whose request changed, the others are read as last asked) and what the fetcher was last told about
 * it, so that an answer may leave it out while nothing changed. Guarded by its session's lock.
 */
final class CachedPartition {
    /** Nothing told yet, or an error: the next answer goes out whatever it says. */
    private static final long UNTOLD = -1;

    private final SessionPartition key;
    private FetchPartition request;
    private long highWatermark = UNTOLD;
    private long lastStableOffset = UNTOLD;
    private long logStartOffset = UNTOLD;

    CachedPartition(SessionPartition key, FetchPartition request) {
        this.key = key;
        this.request = request;
    }

    SessionPartition key() {
        return key;
    }

    FetchPartition request() {
        return request;
    }

    void update(FetchPartition request) {
        this.request = request;
    }

    /**
     * Whether {@code data} must go to the fetcher, as in Kafka: records, an error, a diverging epoch or a preferred
     * replica, or positions other than those last told (we compare the last stable offset too, which Kafka does
     * not: it costs nothing). What is answered is remembered as told.
     */
    boolean mustRespond(PartitionData data) {
        boolean error = data.errorCode() != Errors.NONE.code();
        boolean changed = error || FetchResponse.recordsSize(data) > 0
                || data.highWatermark() != highWatermark
                || data.lastStableOffset() != lastStableOffset
                || data.logStartOffset() != logStartOffset
                || FetchResponse.isDivergingEpoch(data)
                || FetchResponse.isPreferredReplica(data);
        highWatermark = error ? UNTOLD : data.highWatermark();
        lastStableOffset = data.lastStableOffset();
        logStartOffset = data.logStartOffset();
        return changed;
    }

    /** The last answer never reached the fetcher (a throttled fetch gets none): the next one goes out. */
    void untold() {
        highWatermark = UNTOLD;
    }
}

package io.tributary.broker.log.remote;

/** The files of a segment copy, each named as the local file it was copied from (see {@link RemoteStorage}). */
public enum RemoteFile {
    /** {@code <base>.log}: the record batches. */
    LOG,
    /** {@code <base>.index}: the sparse offset index. */
    OFFSET_INDEX,
    /** {@code <base>.timeindex}: the sparse time index. */
    TIME_INDEX,
    /** {@code <base>.txnindex}: the aborted transactions whose markers the segment holds; only if it has any. */
    TXN_INDEX,
    /** {@code <end>.snapshot}: the producer state at the segment's end, in Kafka's format; only if the broker still had it. */
    PRODUCER_SNAPSHOT,
    /** {@code leader-epoch-checkpoint}: the leader epochs from the log's start up to the segment's end. */
    LEADER_EPOCH_CHECKPOINT
}

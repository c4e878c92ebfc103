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
    LEADER_EPOCH_CHECKPOINT;

    /** The file's name in {@code copy}'s folder, as the local file it was copied from was named. */
    public String fileName(RemoteSegment copy) {
        return switch (this) {
            case LOG -> String.format("%020d.log", copy.baseOffset());
            case OFFSET_INDEX -> String.format("%020d.index", copy.baseOffset());
            case TIME_INDEX -> String.format("%020d.timeindex", copy.baseOffset());
            case TXN_INDEX -> String.format("%020d.txnindex", copy.baseOffset());
            case PRODUCER_SNAPSHOT -> String.format("%020d.snapshot", copy.endOffset());
            case LEADER_EPOCH_CHECKPOINT -> "leader-epoch-checkpoint";
        };
    }
}

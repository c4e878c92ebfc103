package io.tributary.broker.txn;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.log.AppendOrigin;
import io.tributary.broker.log.LogAppendInfo;
import io.tributary.broker.replica.ReplicaManager;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;

/**
 * The partition side of WriteTxnMarkers: appends a transaction's marker to a partition this broker leads, as an
 * acks=-1 write, and tells the group coordinator when the partition is one of {@code __consumer_offsets}, so the
 * transaction's offset commits count (or are dropped). Thread-safe.
 */
public final class MarkerAppender {
    private static final short ACKS_ALL = -1;

    private final ReplicaManager replicas;
    private final TransactionalOffsets offsets;
    private final long timeoutMs;
    private final Time time;

    /** The group coordinator's part in a transaction: offset commits that wait for the marker. */
    public interface TransactionalOffsets {
        /** A marker of {@code producerId}'s transaction is in offsets partition {@code partition}. */
        void transactionCompleted(int partition, long producerId, boolean committed);
    }

    public MarkerAppender(ReplicaManager replicas, TransactionalOffsets offsets, long timeoutMs, Time time) {
        this.replicas = replicas;
        this.offsets = offsets;
        this.timeoutMs = timeoutMs;
        this.time = time;
    }

    /** Completes with NONE once the partition's ISR has the marker, or with the partition's error. */
    public CompletableFuture<Errors> append(TopicPartition partition, TxnMarker marker) {
        LogAppendInfo info;
        try {
            info = replicas.appendAsLeader(partition, marker.controlBatch(time.milliseconds()), ACKS_ALL, AppendOrigin.COORDINATOR);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(Errors.forException(e));
        }
        if (partition.topic().equals(Topic.GROUP_METADATA_TOPIC_NAME)) {
            offsets.transactionCompleted(partition.partition(), marker.producerId(), marker.commit());
        }
        return replicas.awaitReplication(Map.of(partition, info.lastOffset() + 1), timeoutMs)
                .thenApply(errors -> errors.get(partition));
    }
}

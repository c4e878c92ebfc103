package io.tributary.broker.api;

import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * The leader-epoch check of Fetch and ListOffsets: a client that names an epoch must name ours.
 * Every partition is led by this broker at {@link MetadataHandler#LEADER_EPOCH}.
 */
final class LeaderEpochs {
    private LeaderEpochs() {
    }

    static Errors check(int clientEpoch) {
        if (clientEpoch == RecordBatch.NO_PARTITION_LEADER_EPOCH || clientEpoch == MetadataHandler.LEADER_EPOCH) {
            return Errors.NONE;
        }
        return clientEpoch > MetadataHandler.LEADER_EPOCH ? Errors.UNKNOWN_LEADER_EPOCH : Errors.FENCED_LEADER_EPOCH;
    }
}

package io.tributary.broker.group.consumer;

import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;

/** The answer to a ConsumerGroupHeartbeat; {@code assignment} is null when the member's assignment is not (re)sent. */
public record HeartbeatResult(Errors error, String errorMessage, String memberId, int memberEpoch, int heartbeatIntervalMs,
                              Map<Uuid, Set<Integer>> assignment) {
    public static HeartbeatResult error(Errors error, String message) {
        return new HeartbeatResult(error, message, null, 0, 0, null);
    }
}

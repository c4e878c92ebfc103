package io.tributary.broker.group;

import java.util.List;
import org.apache.kafka.common.protocol.Errors;

/**
 * The answer to a JoinGroup: the new generation, its protocol and leader; the leader alone also
 * gets every member with its metadata for the selected protocol.
 */
public record JoinResult(Errors error, String memberId, int generationId, String protocolType, String protocolName,
                         String leaderId, List<JoinedMember> members) {

    /** A member as the leader sees it in its JoinGroup response. */
    public record JoinedMember(String memberId, String groupInstanceId, byte[] metadata) {
    }

    static JoinResult error(Errors error, String memberId) {
        return new JoinResult(error, memberId, -1, null, null, "", List.of());
    }
}

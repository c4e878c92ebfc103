package io.tributary.broker.group;

import java.util.List;
import org.apache.kafka.common.protocol.Errors;

/** The outcome of a LeaveGroup, per member named in it. */
public record LeaveResult(List<MemberLeft> members) {

    /** One member's outcome. */
    public record MemberLeft(String memberId, String groupInstanceId, Errors error) {
    }
}

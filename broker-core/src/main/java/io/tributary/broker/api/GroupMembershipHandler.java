package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.group.JoinRequest;
import io.tributary.broker.group.JoinResult;
import io.tributary.broker.group.LeaveResult;
import io.tributary.broker.group.MemberIdentity;
import io.tributary.broker.group.Protocol;
import io.tributary.broker.group.SyncRequest;
import io.tributary.broker.network.Request;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.HeartbeatResponseData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData.JoinGroupRequestProtocol;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.JoinGroupResponseData.JoinGroupResponseMember;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupResponseData;
import org.apache.kafka.common.message.LeaveGroupResponseData.MemberResponse;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupRequestData.SyncGroupRequestAssignment;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;

/**
 * JoinGroup, SyncGroup, Heartbeat and LeaveGroup: translate between the wire messages and the
 * {@link GroupCoordinator}. JoinGroup and SyncGroup answer when the rebalance gets there, so they
 * return futures.
 */
final class GroupMembershipHandler {
    private static final short FIRST_VERSION_REQUIRING_MEMBER_ID = 4;
    private static final short FIRST_LEAVE_VERSION_WITH_MEMBERS = 3;

    private final GroupCoordinator coordinator;

    GroupMembershipHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    CompletableFuture<JoinGroupResponseData> join(JoinGroupRequestData data, Request request) {
        List<Protocol> protocols = new ArrayList<>();
        for (JoinGroupRequestProtocol protocol : data.protocols()) {
            protocols.add(new Protocol(protocol.name(), protocol.metadata()));
        }
        // Before v1 the session timeout was also the rebalance timeout.
        int rebalanceTimeoutMs = data.rebalanceTimeoutMs() < 0 ? data.sessionTimeoutMs() : data.rebalanceTimeoutMs();
        JoinRequest join = new JoinRequest(data.groupId(), data.memberId(), data.groupInstanceId(),
                request.header().clientId(), clientHost(request), data.sessionTimeoutMs(), rebalanceTimeoutMs,
                data.protocolType(), protocols, request.version() >= FIRST_VERSION_REQUIRING_MEMBER_ID);
        return coordinator.join(join).thenApply(GroupMembershipHandler::joinResponse);
    }

    private static JoinGroupResponseData joinResponse(JoinResult result) {
        List<JoinGroupResponseMember> members = new ArrayList<>();
        for (JoinResult.JoinedMember member : result.members()) {
            members.add(new JoinGroupResponseMember().setMemberId(member.memberId())
                    .setGroupInstanceId(member.groupInstanceId()).setMetadata(member.metadata()));
        }
        return new JoinGroupResponseData()
                .setErrorCode(result.error().code())
                .setGenerationId(result.generationId())
                .setProtocolType(result.protocolType())
                .setProtocolName(result.protocolName() == null ? "" : result.protocolName())
                .setLeader(result.leaderId() == null ? "" : result.leaderId())
                .setMemberId(result.memberId())
                .setMembers(members);
    }

    /** The client's address as Kafka reports it ("/127.0.0.1"), from the connection id "local-remote-...". */
    static String clientHost(Request request) {
        String[] parts = request.connectionId().split("-");
        if (parts.length < 2) {
            return "";
        }
        String remote = parts[1];
        int colon = remote.lastIndexOf(':');
        return colon > 0 ? remote.substring(0, colon) : remote;
    }

    CompletableFuture<SyncGroupResponseData> sync(SyncGroupRequestData data) {
        Map<String, byte[]> assignments = new HashMap<>();
        for (SyncGroupRequestAssignment assignment : data.assignments()) {
            assignments.put(assignment.memberId(), assignment.assignment());
        }
        SyncRequest sync = new SyncRequest(data.groupId(), data.generationId(), data.memberId(), data.groupInstanceId(),
                data.protocolType(), data.protocolName(), assignments);
        return coordinator.sync(sync).thenApply(result -> new SyncGroupResponseData()
                .setErrorCode(result.error().code())
                .setProtocolType(result.protocolType())
                .setProtocolName(result.protocolName())
                .setAssignment(result.assignment()));
    }

    HeartbeatResponseData heartbeat(HeartbeatRequestData data) {
        Errors error = coordinator.heartbeat(data.groupId(), data.memberId(), data.groupInstanceId(), data.generationId());
        return new HeartbeatResponseData().setErrorCode(error.code());
    }

    CompletableFuture<LeaveGroupResponseData> leave(LeaveGroupRequestData data, short version) {
        List<MemberIdentity> leaving = new ArrayList<>();
        if (version < FIRST_LEAVE_VERSION_WITH_MEMBERS) {
            leaving.add(new MemberIdentity(data.memberId(), null));
        } else {
            data.members().forEach(m -> leaving.add(new MemberIdentity(m.memberId(), m.groupInstanceId())));
        }
        return coordinator.leave(data.groupId(), leaving).thenApply(result -> leaveResponse(result, version));
    }

    private static LeaveGroupResponseData leaveResponse(LeaveResult result, short version) {
        LeaveGroupResponseData response = new LeaveGroupResponseData();
        if (version < FIRST_LEAVE_VERSION_WITH_MEMBERS) {
            return response.setErrorCode(result.members().get(0).error().code());
        }
        for (LeaveResult.MemberLeft member : result.members()) {
            response.members().add(new MemberResponse().setMemberId(member.memberId())
                    .setGroupInstanceId(member.groupInstanceId()).setErrorCode(member.error().code()));
        }
        return response;
    }
}

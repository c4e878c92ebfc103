package io.tributary.broker.group;

import java.util.List;

/**
 * A JoinGroup as the coordinator sees it.
 *
 * @param memberId            empty for a member joining for the first time
 * @param groupInstanceId     null unless the member is static
 * @param requireKnownMemberId JoinGroup v4+: a new member first gets MEMBER_ID_REQUIRED and an id to join with
 */
public record JoinRequest(String groupId, String memberId, String groupInstanceId, String clientId, String clientHost,
                          int sessionTimeoutMs, int rebalanceTimeoutMs, String protocolType, List<Protocol> protocols,
                          boolean requireKnownMemberId) {
}

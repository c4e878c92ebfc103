package io.tributary.broker.group;

/** Who a LeaveGroup names: a member id, a static instance id, or both. */
public record MemberIdentity(String memberId, String groupInstanceId) {
}

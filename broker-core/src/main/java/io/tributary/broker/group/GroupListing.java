package io.tributary.broker.group;

/** A group as ListGroups reports it. */
public record GroupListing(String groupId, String protocolType, GroupState state) {
}

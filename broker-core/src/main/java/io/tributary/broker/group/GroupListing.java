package io.tributary.broker.group;

/**
 * A group as ListGroups reports it: its protocol type, its state's wire name (a classic
 * {@link GroupState} or a consumer group's state) and its type.
 */
public record GroupListing(String groupId, String protocolType, String state, String type) {
    public static final String CLASSIC = "classic";
    public static final String CONSUMER = "consumer";
}

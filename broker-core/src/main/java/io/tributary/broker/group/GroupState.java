package io.tributary.broker.group;

/**
 * The classic group protocol's states, named as DescribeGroups and ListGroups report them.
 * Empty → PreparingRebalance (a member joins) → CompletingRebalance (every member rejoined or
 * the rebalance timed out) → Stable (the leader sent the assignment); any membership change goes
 * back to PreparingRebalance. Dead: the group was deleted or its last offsets expired.
 */
public enum GroupState {
    EMPTY("Empty"),
    PREPARING_REBALANCE("PreparingRebalance"),
    COMPLETING_REBALANCE("CompletingRebalance"),
    STABLE("Stable"),
    DEAD("Dead");

    private final String wireName;

    GroupState(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}

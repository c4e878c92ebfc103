package io.tributary.broker.group.consumer;

/**
 * The state of a consumer (KIP-848) group, named as ListGroups and ConsumerGroupDescribe report it.
 * Empty: no members. Assigning: the group epoch moved past the target assignment's (here only for
 * the instant the assignor runs, since it runs at once). Reconciling: some member has not reached
 * its target yet. Stable: every member owns its target at the target epoch.
 */
public enum ConsumerGroupState {
    EMPTY("Empty"),
    ASSIGNING("Assigning"),
    RECONCILING("Reconciling"),
    STABLE("Stable"),
    DEAD("Dead");

    private final String wireName;

    ConsumerGroupState(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}

package io.tributary.broker.group.consumer;

/**
 * Where a member is in reconciling its assignment with its target (Kafka's values, as stored in
 * ConsumerGroupCurrentMemberAssignment records). Stable: it owns its target at the target
 * epoch. Unrevoked partitions: it must give some partitions up before it may move to the target
 * epoch. Unreleased partitions: it is at the target epoch but some of its target partitions are
 * still owned by members that have not revoked them yet.
 */
public enum MemberState {
    STABLE((byte) 0, "stable"),
    UNREVOKED_PARTITIONS((byte) 1, "unrevoked_partitions"),
    UNRELEASED_PARTITIONS((byte) 2, "unreleased_partitions"),
    UNKNOWN((byte) 127, "unknown");

    private final byte value;
    private final String displayName;

    MemberState(byte value, String displayName) {
        this.value = value;
        this.displayName = displayName;
    }

    public byte value() {
        return value;
    }

    @Override
    public String toString() {
        return displayName;
    }

    public static MemberState of(byte value) {
        for (MemberState state : values()) {
            if (state.value == value) {
                return state;
            }
        }
        return UNKNOWN;
    }
}

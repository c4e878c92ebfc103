package io.tributary.broker.group.consumer;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataValue.ClassicMemberMetadata;

/**
 * One member of a consumer group: what it subscribes to (as its last full heartbeat said), its
 * epoch, what it owns, what it still has to revoke, and its deadlines. A member that speaks the
 * classic protocol (JoinGroup, SyncGroup, Heartbeat) inside the group also has its classic session
 * timeout and protocols. Mutable; the group's monitor guards it.
 */
public final class ConsumerMember {
    /** The epoch of a static member that left temporarily and keeps its assignment (Kafka's -2). */
    public static final int LEFT_STATIC_EPOCH = -2;

    private final String memberId;
    private String instanceId;
    private String rackId;
    private String clientId = "";
    private String clientHost = "";
    private List<String> subscribedTopicNames = List.of();
    private String subscribedTopicRegex;
    private String serverAssignor;
    private int rebalanceTimeoutMs;
    private int memberEpoch;
    private int previousMemberEpoch;
    private MemberState state = MemberState.STABLE;
    private Map<Uuid, Set<Integer>> assigned = Map.of();
    private Map<Uuid, Set<Integer>> pendingRevocation = Map.of();
    /** The member epoch at which each partition it owns became its own (KIP-1251's assignment epochs). */
    private Map<Uuid, Map<Integer, Integer>> assignmentEpochs = Map.of();
    /** Kafka's record of a classic member's JoinGroup (session timeout, protocols); null for a consumer-protocol member. */
    private ClassicMemberMetadata classic;
    private long sessionDeadlineMs = Long.MAX_VALUE;
    private long revocationDeadlineMs = Long.MAX_VALUE;
    /** A classic member told to rejoin must do so by then. */
    private long rejoinDeadlineMs = Long.MAX_VALUE;
    /** A classic member that joined must send its SyncGroup by then. */
    private long syncDeadlineMs = Long.MAX_VALUE;

    public ConsumerMember(String memberId) {
        this.memberId = memberId;
    }

    /** A member taking over another's state under its own id (a static member's new incarnation). */
    public ConsumerMember copyAs(String newMemberId) {
        ConsumerMember copy = new ConsumerMember(newMemberId);
        copy.instanceId = instanceId;
        copy.rackId = rackId;
        copy.clientId = clientId;
        copy.clientHost = clientHost;
        copy.subscribedTopicNames = subscribedTopicNames;
        copy.subscribedTopicRegex = subscribedTopicRegex;
        copy.serverAssignor = serverAssignor;
        copy.rebalanceTimeoutMs = rebalanceTimeoutMs;
        copy.memberEpoch = memberEpoch;
        copy.previousMemberEpoch = previousMemberEpoch;
        copy.state = state;
        copy.assigned = assigned;
        copy.pendingRevocation = pendingRevocation;
        copy.assignmentEpochs = assignmentEpochs;
        copy.classic = classic;
        return copy;
    }

    public String memberId() {
        return memberId;
    }

    public String instanceId() {
        return instanceId;
    }

    public void instanceId(String instanceId) {
        this.instanceId = instanceId;
    }

    public boolean isStatic() {
        return instanceId != null;
    }

    public String rackId() {
        return rackId;
    }

    public void rackId(String rackId) {
        this.rackId = rackId;
    }

    public String clientId() {
        return clientId;
    }

    public String clientHost() {
        return clientHost;
    }

    public void client(String clientId, String clientHost) {
        this.clientId = clientId;
        this.clientHost = clientHost;
    }

    public List<String> subscribedTopicNames() {
        return subscribedTopicNames;
    }

    public void subscribedTopicNames(List<String> names) {
        this.subscribedTopicNames = List.copyOf(names);
    }

    /** True if it subscribes to exactly {@code names}, in any order: Kafka compares subscriptions as sets. */
    public boolean subscribesTo(List<String> names) {
        return Set.copyOf(names).equals(Set.copyOf(subscribedTopicNames));
    }

    /** Null if the member subscribes by names only. */
    public String subscribedTopicRegex() {
        return subscribedTopicRegex;
    }

    public void subscribedTopicRegex(String regex) {
        this.subscribedTopicRegex = regex == null || regex.isEmpty() ? null : regex;
    }

    /** The assignor the member asked for, or null for the group's default. */
    public String serverAssignor() {
        return serverAssignor;
    }

    public void serverAssignor(String assignor) {
        this.serverAssignor = assignor;
    }

    public int rebalanceTimeoutMs() {
        return rebalanceTimeoutMs;
    }

    public void rebalanceTimeoutMs(int timeoutMs) {
        this.rebalanceTimeoutMs = timeoutMs;
    }

    public int memberEpoch() {
        return memberEpoch;
    }

    public int previousMemberEpoch() {
        return previousMemberEpoch;
    }

    public MemberState state() {
        return state;
    }

    /** What the member owns (and may fetch) at its epoch. */
    public Map<Uuid, Set<Integer>> assigned() {
        return assigned;
    }

    /** What the member was asked to give up and has not confirmed yet. */
    public Map<Uuid, Set<Integer>> pendingRevocation() {
        return pendingRevocation;
    }

    /** Sets the member's epoch, state and partitions (as reconciliation or a stored record decided). */
    public void update(int epoch, int previousEpoch, MemberState newState, Map<Uuid, Set<Integer>> newAssigned,
                       Map<Uuid, Set<Integer>> newPendingRevocation) {
        this.memberEpoch = epoch;
        this.previousMemberEpoch = previousEpoch;
        this.state = newState;
        this.assigned = Partitions.copy(newAssigned);
        this.pendingRevocation = Partitions.copy(newPendingRevocation);
        Map<Uuid, Map<Integer, Integer>> epochs = new HashMap<>();
        Partitions.union(assigned, pendingRevocation).forEach((topic, partitions) -> partitions.forEach(partition ->
                epochs.computeIfAbsent(topic, t -> new HashMap<>()).put(partition,
                        assignmentEpochs.getOrDefault(topic, Map.of()).getOrDefault(partition, epoch))));
        this.assignmentEpochs = epochs;
    }

    /** The epoch at which the member got a partition it owns, or -1 if it does not own it. */
    public int assignmentEpoch(Uuid topicId, int partition) {
        return assignmentEpochs.getOrDefault(topicId, Map.of()).getOrDefault(partition, -1);
    }

    /** Restores the assignment epochs a stored record names (after {@link #update}). */
    public void restoreAssignmentEpochs(Map<Uuid, Map<Integer, Integer>> epochs) {
        epochs.forEach((topic, byPartition) -> byPartition.forEach((partition, epoch) -> {
            Map<Integer, Integer> known = assignmentEpochs.get(topic);
            if (known != null && known.containsKey(partition)) {
                known.put(partition, epoch);
            }
        }));
    }

    /**
     * A static member left for now: it keeps its assigned partitions under the epoch -2 until its session ends, gives up
     * those it was to revoke, and the epochs at which it got its partitions become 0, as Kafka records such a member
     * (its next incarnation starts at epoch 0 with them). Its previous epoch is left as it was.
     */
    void leaveTemporarily() {
        memberEpoch = LEFT_STATIC_EPOCH;
        pendingRevocation = Map.of();
        revocationDeadlineMs = Long.MAX_VALUE;
        Map<Uuid, Map<Integer, Integer>> epochs = new HashMap<>();
        assigned.forEach((topic, partitions) -> partitions.forEach(partition ->
                epochs.computeIfAbsent(topic, t -> new HashMap<>()).put(partition, 0)));
        assignmentEpochs = epochs;
    }

    public boolean hasLeftTemporarily() {
        return memberEpoch == LEFT_STATIC_EPOCH;
    }

    public void sessionDeadline(long deadlineMs) {
        this.sessionDeadlineMs = deadlineMs;
    }

    public long sessionDeadlineMs() {
        return sessionDeadlineMs;
    }

    /** The member must confirm its revocation by then or be fenced. */
    public void revocationDeadline(long deadlineMs) {
        this.revocationDeadlineMs = deadlineMs;
    }

    public long revocationDeadlineMs() {
        return revocationDeadlineMs;
    }

    // ---- a member that speaks the classic protocol

    public boolean usesClassicProtocol() {
        return classic != null;
    }

    /** The session timeout and protocols of its last JoinGroup; null for a consumer-protocol member. */
    public ClassicMemberMetadata classicMetadata() {
        return classic;
    }

    public void classicMetadata(ClassicMemberMetadata metadata) {
        this.classic = metadata;
    }

    /** It speaks the consumer protocol (from now on): no classic metadata, no rejoin or sync deadline. */
    public void useConsumerProtocol() {
        classic = null;
        rejoinDeadlineMs = Long.MAX_VALUE;
        syncDeadlineMs = Long.MAX_VALUE;
    }

    /** The protocol (assignor) it is told it uses: the first it offered, as Kafka answers. */
    public String classicProtocolName() {
        return classic.supportedProtocols().get(0).name();
    }

    /** Told to rejoin: it must, within its rebalance timeout (a deadline already running is not moved). */
    public void rejoinBy(long deadlineMs) {
        rejoinDeadlineMs = Math.min(rejoinDeadlineMs, deadlineMs);
    }

    /** It rejoined: it must now sync by {@code deadlineMs}. */
    public void rejoined(long syncDeadlineMs) {
        this.rejoinDeadlineMs = Long.MAX_VALUE;
        this.syncDeadlineMs = syncDeadlineMs;
    }

    public void synced() {
        this.syncDeadlineMs = Long.MAX_VALUE;
    }

    /** The earliest of its deadlines, {@link Long#MAX_VALUE} if none. */
    public long nextDeadlineMs() {
        return Math.min(Math.min(sessionDeadlineMs, revocationDeadlineMs), Math.min(rejoinDeadlineMs, syncDeadlineMs));
    }

    /** Why it is to be fenced at {@code nowMs}, or null if no deadline of it has passed. */
    public String missedDeadline(long nowMs) {
        if (nowMs >= sessionDeadlineMs) {
            return "missed its session timeout";
        }
        if (nowMs >= revocationDeadlineMs) {
            return "did not revoke its partitions within its rebalance timeout";
        }
        if (nowMs >= rejoinDeadlineMs) {
            return "did not rejoin within its rebalance timeout";
        }
        return nowMs >= syncDeadlineMs ? "did not sync within its rebalance timeout" : null;
    }
}

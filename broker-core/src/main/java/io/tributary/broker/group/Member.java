package io.tributary.broker.group;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * One member of a group and what it is waiting for. Guarded by its group's monitor.
 */
final class Member {
    private static final byte[] NO_ASSIGNMENT = new byte[0];

    private String memberId;
    private final String groupInstanceId;
    private final String clientId;
    private final String clientHost;
    private int sessionTimeoutMs;
    private int rebalanceTimeoutMs;
    private List<Protocol> protocols;
    private byte[] assignment = NO_ASSIGNMENT;
    private CompletableFuture<JoinResult> awaitingJoin;
    private CompletableFuture<SyncResult> awaitingSync;
    private long sessionDeadlineMs;

    Member(String memberId, JoinRequest join) {
        this.memberId = memberId;
        this.groupInstanceId = join.groupInstanceId();
        this.clientId = join.clientId();
        this.clientHost = join.clientHost();
        update(join);
    }

    /** Takes the timeouts and protocols of a (re)join. */
    void update(JoinRequest join) {
        update(join.sessionTimeoutMs(), join.rebalanceTimeoutMs(), join.protocols());
    }

    void update(int sessionTimeoutMs, int rebalanceTimeoutMs, List<Protocol> protocols) {
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.rebalanceTimeoutMs = rebalanceTimeoutMs;
        this.protocols = List.copyOf(protocols);
    }

    String memberId() {
        return memberId;
    }

    /** A static member that rejoined under a new member id; the old id is fenced from now on. */
    void replaceMemberId(String newMemberId) {
        this.memberId = newMemberId;
    }

    String groupInstanceId() {
        return groupInstanceId;
    }

    boolean isStatic() {
        return groupInstanceId != null;
    }

    String clientId() {
        return clientId;
    }

    String clientHost() {
        return clientHost;
    }

    int sessionTimeoutMs() {
        return sessionTimeoutMs;
    }

    int rebalanceTimeoutMs() {
        return rebalanceTimeoutMs;
    }

    List<Protocol> protocols() {
        return protocols;
    }

    /** True if this member lists the same protocols, in the same order, with the same metadata. */
    boolean sameProtocols(List<Protocol> other) {
        if (other.size() != protocols.size()) {
            return false;
        }
        for (int i = 0; i < other.size(); i++) {
            Protocol mine = protocols.get(i);
            Protocol theirs = other.get(i);
            if (!mine.name().equals(theirs.name()) || !java.util.Arrays.equals(mine.metadata(), theirs.metadata())) {
                return false;
            }
        }
        return true;
    }

    boolean supports(String protocolName) {
        return protocols.stream().anyMatch(p -> p.name().equals(protocolName));
    }

    /** The member's metadata for {@code protocolName}, or empty if it does not support it. */
    byte[] metadata(String protocolName) {
        return protocols.stream().filter(p -> Objects.equals(p.name(), protocolName)).map(Protocol::metadata)
                .findFirst().orElse(NO_ASSIGNMENT);
    }

    byte[] assignment() {
        return assignment;
    }

    void assign(byte[] assignment) {
        this.assignment = assignment == null ? NO_ASSIGNMENT : assignment;
    }

    void clearAssignment() {
        this.assignment = NO_ASSIGNMENT;
    }

    boolean isAwaitingJoin() {
        return awaitingJoin != null;
    }

    void awaitJoin(CompletableFuture<JoinResult> future) {
        this.awaitingJoin = future;
    }

    /** Completes the pending JoinGroup, if any. */
    void completeJoin(JoinResult result) {
        if (awaitingJoin != null) {
            CompletableFuture<JoinResult> future = awaitingJoin;
            awaitingJoin = null;
            future.complete(result);
        }
    }

    void awaitSync(CompletableFuture<SyncResult> future) {
        this.awaitingSync = future;
    }

    /** Completes the pending SyncGroup, if any. */
    void completeSync(SyncResult result) {
        if (awaitingSync != null) {
            CompletableFuture<SyncResult> future = awaitingSync;
            awaitingSync = null;
            future.complete(result);
        }
    }

    /** A heartbeat (or any request of the member) arrived: the session lasts another session timeout. @return its end */
    long touch(long nowMs) {
        this.sessionDeadlineMs = nowMs + sessionTimeoutMs;
        return sessionDeadlineMs;
    }

    /** When the session runs out, or never while the member waits for a JoinGroup or SyncGroup answer. */
    long sessionDeadlineMs() {
        return awaitingJoin == null && awaitingSync == null ? sessionDeadlineMs : Long.MAX_VALUE;
    }

    /**
     * True if the session ran out. A member waiting for a JoinGroup or SyncGroup answer is alive:
     * its client cannot heartbeat until the coordinator answers.
     */
    boolean sessionExpired(long nowMs) {
        return nowMs >= sessionDeadlineMs();
    }
}

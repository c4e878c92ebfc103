package io.tributary.broker.group.consumer;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Uuid;

/**
 * Moves one member from what it owns towards its target assignment, KIP-848's incremental
 * reconciliation. A member first gives up the partitions that are no longer its own (it stays at
 * its epoch until it confirms; a member that says it no longer owns them, as a classic member
 * rejoining after an eager revocation does, has nothing to confirm); then it moves to the target
 * epoch and gets the new partitions that no other member still owns; the rest follow, on a later
 * heartbeat, once their owners have revoked them. So a partition never has two owners.
 */
public final class Reconciliation {
    /** Who owns a partition now (assigned or pending revocation), or null. */
    public interface Owners {
        String ownerOf(Uuid topicId, int partition);
    }

    /** The member's next epoch, state and partitions. */
    public record Next(int memberEpoch, int previousMemberEpoch, MemberState state, Map<Uuid, Set<Integer>> assigned,
                       Map<Uuid, Set<Integer>> pendingRevocation) {
    }

    private Reconciliation() {
    }

    /**
     * @param owned the partitions the member says it owns, or null if its heartbeat did not say
     * @return the member's next state, equal to its current one if nothing moves
     */
    public static Next next(ConsumerMember member, int targetEpoch, Map<Uuid, Set<Integer>> target,
                            Map<Uuid, Set<Integer>> owned, Owners owners) {
        return switch (member.state()) {
            case STABLE -> member.memberEpoch() == targetEpoch ? current(member) : advance(member, targetEpoch, target, owned, owners);
            case UNREVOKED_PARTITIONS -> ownsAny(owned, member.pendingRevocation())
                    ? current(member) : advance(member, targetEpoch, target, owned, owners);
            case UNRELEASED_PARTITIONS, UNKNOWN -> advance(member, targetEpoch, target, owned, owners);
        };
    }

    private static Next current(ConsumerMember member) {
        return new Next(member.memberEpoch(), member.previousMemberEpoch(), member.state(), member.assigned(),
                member.pendingRevocation());
    }

    /** True if the member may still own some of {@code partitions}: it did not say what it owns, or it named one. */
    private static boolean ownsAny(Map<Uuid, Set<Integer>> owned, Map<Uuid, Set<Integer>> partitions) {
        return owned == null || !Partitions.intersection(owned, partitions).isEmpty();
    }

    private static Next advance(ConsumerMember member, int targetEpoch, Map<Uuid, Set<Integer>> target,
                                Map<Uuid, Set<Integer>> owned, Owners owners) {
        Map<Uuid, Set<Integer>> kept = Partitions.intersection(member.assigned(), target);
        Map<Uuid, Set<Integer>> revoked = Partitions.difference(member.assigned(), target);
        if (!revoked.isEmpty() && ownsAny(owned, revoked)) {
            return new Next(member.memberEpoch(), member.previousMemberEpoch(), MemberState.UNREVOKED_PARTITIONS, kept, revoked);
        }
        Map<Uuid, Set<Integer>> added = Partitions.difference(target, member.assigned());
        Map<Uuid, Set<Integer>> free = new HashMap<>();
        boolean unreleased = false;
        for (Map.Entry<Uuid, Set<Integer>> topic : added.entrySet()) {
            Set<Integer> partitions = new HashSet<>();
            for (int partition : topic.getValue()) {
                String owner = owners.ownerOf(topic.getKey(), partition);
                if (owner == null || owner.equals(member.memberId())) {
                    partitions.add(partition);
                } else {
                    unreleased = true;
                }
            }
            free.put(topic.getKey(), partitions);
        }
        int previous = targetEpoch == member.memberEpoch() ? member.previousMemberEpoch() : member.memberEpoch();
        return new Next(targetEpoch, previous, unreleased ? MemberState.UNRELEASED_PARTITIONS : MemberState.STABLE,
                Partitions.union(kept, free), Map.of());
    }
}

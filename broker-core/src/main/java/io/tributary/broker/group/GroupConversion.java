package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import io.tributary.broker.group.consumer.ConsumerGroupRecords;
import io.tributary.broker.group.consumer.ConsumerGroupSettings;
import io.tributary.broker.group.consumer.ConsumerMember;
import io.tributary.broker.group.consumer.ConsumerMembership;
import io.tributary.broker.group.consumer.MemberState;
import io.tributary.broker.group.consumer.Partitions;
import io.tributary.broker.group.consumer.SubscribableTopics;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.coordinator.group.ConsumerGroupMigrationPolicy;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataValue.ClassicMemberMetadata;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataValue.ClassicProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * KIP-848's online migration of a non-empty group from one protocol to the other, as Kafka 4.x does it and as
 * {@code group.consumer.migration.policy} allows (empty groups change type whatever the policy).
 * <ul>
 * <li>Upgrade: a consumer-protocol member joins a classic group of consumers. The group becomes a consumer group at
 *     group epoch = the classic generation; each classic member becomes a member of that epoch owning (and targeted
 *     with) the partitions the classic leader last gave it, and goes on through JoinGroup, SyncGroup and Heartbeat.
 *     Members waiting for a JoinGroup or SyncGroup answer are told REBALANCE_IN_PROGRESS and rejoin.</li>
 * <li>Downgrade: the last consumer-protocol member leaves (or is fenced) and classic members remain, or a static one
 *     is replaced by a classic member with its instance id. They become a classic group of generation = the group
 *     epoch, each holding its target assignment, which rebalances at once (after a replacement only if the target
 *     assignment is stale: the newcomer subscribes to other topics, or the subscribed topics changed).</li>
 * </ul>
 * An upgrade deletes the classic group's record and writes the consumer group's records, a downgrade the reverse, in
 * one batch each as Kafka does. Callers hold the group's monitor.
 */
final class GroupConversion {
    private static final Logger log = LoggerFactory.getLogger(GroupConversion.class);

    private final ConsumerGroupMigrationPolicy policy;
    private final int consumerMaxSize;
    private final SubscribableTopics topics;
    private final ClassicRebalance classicRebalance;
    private final Time time;

    GroupConversion(ConsumerGroupSettings settings, SubscribableTopics topics, ClassicRebalance rebalance, Time time) {
        this.policy = settings.migrationPolicy();
        this.consumerMaxSize = settings.maxSize();
        this.topics = topics;
        this.classicRebalance = rebalance;
        this.time = time;
    }

    /**
     * Turns the non-empty classic {@code group} into a consumer group of its members; {@code changes} gets the whole
     * group's records.
     *
     * @param admission checks the consumer group it would be before anything changes (the member joining must fit in)
     * @throws GroupIdNotFoundException if it may not be upgraded (the policy, a group that is not of consumers, more
     *         members than {@code group.consumer.max.size}, an unreadable subscription or assignment), with Kafka's
     *         message; the group is unchanged then, as it is when {@code admission} throws
     */
    ConsumerMembership upgrade(Group group, Consumer<ConsumerMembership> admission, ConsumerGroupRecords changes) {
        String groupId = group.groupId();
        if (!policy.isUpgradeEnabled()) {
            throw refusal("Cannot upgrade classic group " + groupId + " to consumer group because online upgrade is disabled.");
        }
        if (!ConsumerProtocol.PROTOCOL_TYPE.equals(group.protocolType())) {
            throw refusal("Cannot upgrade classic group " + groupId
                    + " to consumer group because the group does not use the consumer embedded protocol.");
        }
        if (group.members().size() > consumerMaxSize) {
            throw refusal("Cannot upgrade classic group " + groupId
                    + " to consumer group because the group size exceeds the consumer group maximum size.");
        }
        ConsumerMembership membership = new ConsumerMembership();
        Map<Uuid, Set<Integer>> owned = Map.of();
        for (Member classic : group.members()) {
            ConsumerMember member = consumerMember(group, classic);
            if (!Partitions.intersection(owned, member.assigned()).isEmpty()) {
                throw refusal("Cannot upgrade classic group " + groupId + " to consumer group because its members' assignments overlap.");
            }
            owned = Partitions.union(owned, member.assigned());
            membership.add(member);
            membership.target(member.memberId(), member.assigned());
        }
        membership.restore(group.generationId(), group.generationId(), 0);
        membership.refreshSubscriptionHash(topics);
        admission.accept(membership);
        for (Member classic : group.members()) {
            classic.completeJoin(JoinResult.error(Errors.REBALANCE_IN_PROGRESS, classic.memberId()));
            classic.completeSync(SyncResult.error(Errors.REBALANCE_IN_PROGRESS));
        }
        group.forgetClassicGroup(time.milliseconds());
        group.consumer(membership);
        changes.append(ClassicGroupRecords.tombstone(groupId, time.milliseconds())).wholeGroup(membership);
        log.info("classic group {} of generation {} becomes a consumer group of its {} member(s)", groupId,
                membership.groupEpoch(), membership.members().size());
        return membership;
    }

    /** A classic member as a member of the consumer group at the classic generation, owning its last assignment. */
    private ConsumerMember consumerMember(Group group, Member classic) {
        String protocol = group.protocolName() != null ? group.protocolName() : classic.protocols().get(0).name();
        EmbeddedConsumerProtocol.Subscription subscription;
        Map<Uuid, Set<Integer>> assigned;
        try {
            subscription = EmbeddedConsumerProtocol.subscription(classic.metadata(protocol), topics);
            assigned = EmbeddedConsumerProtocol.assignedPartitions(classic.assignment(), topics);
        } catch (UnsupportedVersionException e) {
            throw refusal("Cannot upgrade classic group " + group.groupId() + " to consumer group because an unsupported "
                    + "custom assignor is in use. Please refer to the documentation or switch to a default assignor before "
                    + "re-attempting the upgrade.");
        } catch (RuntimeException e) {
            throw refusal("Cannot upgrade classic group " + group.groupId()
                    + " to consumer group because the embedded consumer protocol is malformed.");
        }
        ConsumerMember member = new ConsumerMember(classic.memberId());
        member.instanceId(classic.groupInstanceId());
        member.rackId(subscription.rackId());
        member.client(classic.clientId(), classic.clientHost());
        member.subscribedTopicNames(subscription.topics());
        member.rebalanceTimeoutMs(classic.rebalanceTimeoutMs());
        member.classicMetadata(classicMetadata(classic.sessionTimeoutMs(), classic.protocols()));
        member.update(group.generationId(), group.generationId(), MemberState.STABLE, assigned, Map.of());
        return member;
    }

    /** What a consumer group keeps of a classic member's JoinGroup: its session timeout and protocols. */
    static ClassicMemberMetadata classicMetadata(int sessionTimeoutMs, List<Protocol> protocols) {
        List<ClassicProtocol> supported = new ArrayList<>();
        protocols.forEach(protocol -> supported.add(new ClassicProtocol().setName(protocol.name()).setMetadata(protocol.metadata())));
        return new ClassicMemberMetadata().setSessionTimeoutMs(sessionTimeoutMs).setSupportedProtocols(supported);
    }

    /**
     * False if the policy is {@code disabled}: a classic member must not join a consumer group with members, since the
     * group could never become classic again and would stay mixed (Kafka 4.4, KAFKA-20640).
     */
    boolean admitsClassicMembers(String groupId) {
        if (policy == ConsumerGroupMigrationPolicy.DISABLED) {
            log.info("Cannot join the consumer group {} with the classic protocol because the group migration is disabled.", groupId);
            return false;
        }
        return true;
    }

    /**
     * Kafka's first downgrade rule: true if the group is to become classic once {@code leaving} are gone, because
     * only classic members remain and the policy allows it.
     */
    boolean mayDowngrade(ConsumerMembership membership, Collection<ConsumerMember> leaving) {
        List<ConsumerMember> remaining = remaining(membership, leaving);
        return !remaining.isEmpty() && allClassic(remaining) && downgradeEnabled() && fitsClassicGroup(remaining.size());
    }

    /**
     * Kafka's second downgrade rule: true if the group is to become classic when a classic member takes over the
     * static member {@code replaced}, because that was the last member to use the consumer protocol and the policy
     * allows it.
     */
    boolean mayDowngradeReplacing(ConsumerMembership membership, ConsumerMember replaced) {
        return !replaced.usesClassicProtocol() && allClassic(remaining(membership, List.of(replaced))) && downgradeEnabled()
                && fitsClassicGroup(membership.members().size());
    }

    private static boolean allClassic(List<ConsumerMember> members) {
        return members.stream().allMatch(ConsumerMember::usesClassicProtocol);
    }

    /** Kafka refuses to downgrade a group that would have more members than {@code group.max.size}. */
    private boolean fitsClassicGroup(int members) {
        boolean fits = classicRebalance.fits(members);
        if (!fits) {
            log.info("consumer group of {} classic members is not downgraded to a classic group: group.max.size is smaller", members);
        }
        return fits;
    }

    private boolean downgradeEnabled() {
        if (!policy.isDowngradeEnabled()) {
            log.info("consumer group of classic members only is not downgraded to a classic group: online downgrade is disabled");
        }
        return policy.isDowngradeEnabled();
    }

    /**
     * Turns the consumer group into a classic group of its members but {@code leaving} (all classic), which
     * rebalances if {@code rebalance}; {@code changes} gets the tombstones of the whole consumer group.
     */
    void downgrade(Group group, ConsumerMembership membership, Collection<ConsumerMember> leaving, ConsumerGroupRecords changes,
                   boolean rebalance) {
        long now = time.milliseconds();
        changes.groupRemoved(membership);
        group.consumer(null);
        group.protocolType(ConsumerProtocol.PROTOCOL_TYPE);
        List<ConsumerMember> remaining = remaining(membership, leaving);
        for (ConsumerMember member : remaining) {
            group.add(new Member(member.memberId(), joinOf(group.groupId(), member)));
        }
        group.generation(membership.groupEpoch(), group.selectProtocol());
        for (Member member : group.members()) {
            member.assign(EmbeddedConsumerProtocol.assignment(membership.targetOf(member.memberId()), topics,
                    member.metadata(group.protocolName())));
            classicRebalance.touch(member, now);
        }
        group.transitionTo(GroupState.STABLE, now);
        changes.append(ClassicGroupRecords.of(group, now));
        log.info("consumer group {} of epoch {} becomes a classic group of its {} classic member(s){}", group.groupId(),
                membership.groupEpoch(), remaining.size(), rebalance ? ", which rebalance" : "");
        if (rebalance) {
            classicRebalance.prepare(group);
        }
    }

    /** The JoinGroup a classic member of a consumer group sent, as the classic group takes it over. */
    private static JoinRequest joinOf(String groupId, ConsumerMember member) {
        List<Protocol> protocols = new ArrayList<>();
        member.classicMetadata().supportedProtocols().forEach(p -> protocols.add(new Protocol(p.name(), p.metadata())));
        return new JoinRequest(groupId, member.memberId(), member.instanceId(), member.clientId(), member.clientHost(),
                member.classicMetadata().sessionTimeoutMs(), member.rebalanceTimeoutMs(), ConsumerProtocol.PROTOCOL_TYPE,
                protocols, false);
    }

    private static List<ConsumerMember> remaining(ConsumerMembership membership, Collection<ConsumerMember> leaving) {
        Set<String> gone = new HashSet<>();
        leaving.forEach(member -> gone.add(member.memberId()));
        return membership.members().stream().filter(member -> !gone.contains(member.memberId())).toList();
    }

    private static GroupIdNotFoundException refusal(String message) {
        log.info(message);
        return new GroupIdNotFoundException(message);
    }
}

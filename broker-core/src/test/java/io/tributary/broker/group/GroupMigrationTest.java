package io.tributary.broker.group;

import static io.tributary.broker.group.GroupFixture.INITIAL_DELAY_MS;
import static io.tributary.broker.group.GroupFixture.REBALANCE_TIMEOUT_MS;
import static io.tributary.broker.group.GroupFixture.SESSION_TIMEOUT_MS;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.group.consumer.ConsumerGroupState;
import io.tributary.broker.group.consumer.HeartbeatResult;
import io.tributary.broker.group.consumer.Partitions;
import io.tributary.broker.group.consumer.SubscribableTopics.Topic;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.coordinator.group.ConsumerGroupMigrationPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The conversion rules between classic and consumer groups (KIP-848's online migration), on the fake clock: a
 * consumer-protocol member upgrades a non-empty classic group, whose members go on through JoinGroup, SyncGroup and
 * Heartbeat inside the consumer group; the last consumer-protocol member leaving, or a classic member taking over its
 * static instance id, turns the group classic again; a restarted static member takes its predecessor's place in
 * either protocol; {@code group.consumer.migration.policy} decides which conversions may happen (and, disabled, keeps
 * classic members out of consumer groups); a restart replays a mixed group.
 */
// A separate thread: a CompletableFuture.join() that never completes ignores the interrupt of the same-thread mode.
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GroupMigrationTest {
    private static final String GROUP = "g";
    private static final String TOPIC = "t";

    @TempDir
    Path dir;
    private GroupFixture fixture;
    private Topic topic;

    private void open(ConsumerGroupMigrationPolicy policy) {
        fixture = new GroupFixture(dir, policy);
        topic = fixture.topics.create(TOPIC, 6);
    }

    @AfterEach
    void close() {
        if (fixture != null) {
            fixture.close();
        }
    }

    // ---- classic members, as a classic Java consumer speaks (the range assignor, the consumer protocol's metadata)

    private static byte[] subscription(Set<Integer> owned) {
        return subscription(List.of(TOPIC), owned);
    }

    private static byte[] subscription(List<String> topics, Set<Integer> owned) {
        List<TopicPartition> partitions = owned.stream().sorted().map(p -> new TopicPartition(TOPIC, p)).toList();
        return Utils.toArray(ConsumerProtocol.serializeSubscription(new Subscription(topics, null, partitions)));
    }

    private static byte[] assignment(Set<Integer> partitions) {
        return Utils.toArray(ConsumerProtocol.serializeAssignment(
                new Assignment(partitions.stream().sorted().map(p -> new TopicPartition(TOPIC, p)).toList())));
    }

    private static Set<Integer> partitionsOf(byte[] assignment) {
        Set<Integer> partitions = new HashSet<>();
        ConsumerProtocol.deserializeAssignment(ByteBuffer.wrap(assignment)).partitions().forEach(tp -> partitions.add(tp.partition()));
        return partitions;
    }

    private static JoinRequest classicJoin(String memberId, Set<Integer> owned) {
        return new JoinRequest(GROUP, memberId, null, "classic", "/127.0.0.1", SESSION_TIMEOUT_MS, REBALANCE_TIMEOUT_MS,
                "consumer", List.of(new Protocol("range", subscription(owned))), true);
    }

    /** The JoinGroup of a classic static member, {@code memberId} "" when it (re)starts, subscribed to {@code topics}. */
    private JoinResult staticJoin(String memberId, String instanceId, List<String> topics) {
        CompletableFuture<JoinResult> joined = fixture.coordinator.join(staticJoinRequest(memberId, instanceId, topics));
        assertThat(joined).as("a join into a consumer group is answered at once").isDone();
        return joined.join();
    }

    private static JoinRequest staticJoinRequest(String memberId, String instanceId, List<String> topics) {
        return new JoinRequest(GROUP, memberId, instanceId, "classic", "/127.0.0.1", SESSION_TIMEOUT_MS, REBALANCE_TIMEOUT_MS,
                "consumer", List.of(new Protocol("range", subscription(topics, Set.of()))), true);
    }

    /** A classic member's JoinGroup, answered at once (as inside a consumer group). */
    private JoinResult rejoin(String memberId, Set<Integer> owned) {
        CompletableFuture<JoinResult> joined = fixture.coordinator.join(classicJoin(memberId, owned));
        assertThat(joined).as("a join into a consumer group is answered at once").isDone();
        return joined.join();
    }

    /** JoinGroup v4+ of a new classic member: MEMBER_ID_REQUIRED first, then the join with the id handed out. */
    private CompletableFuture<JoinResult> joinNew() {
        return fixture.joinNew(memberId -> classicJoin(memberId, Set.of()));
    }

    private SyncResult sync(JoinResult joined, Map<String, byte[]> assignments) {
        return fixture.coordinator.sync(new SyncRequest(GROUP, joined.generationId(), joined.memberId(), null, "consumer",
                joined.protocolName(), assignments)).join();
    }

    private Errors classicHeartbeat(String memberId, int generation) {
        return fixture.coordinator.heartbeat(GROUP, memberId, null, generation);
    }

    /** A stable classic group of two: the leader gets partitions 0-2, the follower 3-5. */
    private List<JoinResult> stableClassicGroupOfTwo() {
        return stableClassicGroupOfTwo(joinNew(), joinNew());
    }

    /** A stable classic group of the two joining: the first (the leader) gets partitions 0-2, the second 3-5. */
    private List<JoinResult> stableClassicGroupOfTwo(CompletableFuture<JoinResult> first, CompletableFuture<JoinResult> second) {
        fixture.advance(2 * INITIAL_DELAY_MS);
        JoinResult leader = first.join();
        JoinResult follower = second.join();
        syncClassicGroupOfTwo(leader, follower);
        return List.of(leader, follower);
    }

    /** The classic leader gives itself partitions 0-2 and the follower 3-5: the group is stable. */
    private void syncClassicGroupOfTwo(JoinResult leader, JoinResult follower) {
        CompletableFuture<SyncResult> followerSync = fixture.coordinator.sync(new SyncRequest(GROUP, follower.generationId(),
                follower.memberId(), null, "consumer", "range", Map.of()));
        sync(leader, Map.of(leader.memberId(), assignment(Set.of(0, 1, 2)), follower.memberId(), assignment(Set.of(3, 4, 5))));
        assertThat(partitionsOf(followerSync.join().assignment())).containsExactlyInAnyOrder(3, 4, 5);
        assertThat(fixture.coordinator.describe(GROUP).orElseThrow().state()).isEqualTo(GroupState.STABLE);
    }

    // ---- consumer-protocol members

    private ConsumerGroupCoordinator.Description consumerGroup() {
        return fixture.consumerGroups.describe(GROUP).orElseThrow();
    }

    private ConsumerGroupCoordinator.DescribedMember member(String memberId) {
        return consumerGroup().members().stream().filter(m -> m.memberId().equals(memberId)).findFirst().orElseThrow();
    }

    private Set<Integer> partitions(Map<Uuid, Set<Integer>> assignment) {
        return assignment.getOrDefault(topic.id(), Set.of());
    }

    private Errors commit(String memberId, int generation, int partition) {
        TopicPartition tp = new TopicPartition(TOPIC, partition);
        return fixture.offsets.commit(new OffsetCommit(GROUP, memberId, null, generation,
                Map.of(tp, new OffsetCommit.Position(5, -1, null)))).join().get(tp);
    }

    /** A consumer group of one consumer-protocol member "c" (owning all six partitions) and classic members m1 and m2. */
    private Map<String, Integer> mixedGroup() {
        HeartbeatResult c = fixture.consumerGroupJoin(GROUP, "c", null, TOPIC);
        String m1 = joinNew().join().memberId();
        String m2 = joinNew().join().memberId();
        Map<String, Integer> epochs = settle(Map.of("c", c.memberEpoch()), List.of(m1, m2));
        assertThat(consumerGroup().members()).hasSize(3);
        return epochs;
    }

    /**
     * Runs heartbeats (consumer-protocol members reporting what they own; classic members rejoining when told to and
     * syncing) until the group is stable. @return each member's epoch (a classic member's generation)
     */
    private Map<String, Integer> settle(Map<String, Integer> consumers, List<String> classics) {
        Map<String, Integer> epochs = new HashMap<>(consumers);
        Map<String, Set<Integer>> owned = new HashMap<>();
        for (int round = 0; round < 6; round++) {
            for (String memberId : consumers.keySet()) {
                HeartbeatResult beat = fixture.consumerGroupHeartbeat(GROUP, memberId, null, epochs.get(memberId), Map.of(topic.id(),
                        owned.getOrDefault(memberId, partitions(member(memberId).assignment()))));
                assertThat(beat.error()).as(memberId).isEqualTo(Errors.NONE);
                epochs.put(memberId, beat.memberEpoch());
                if (beat.assignment() != null) {
                    owned.put(memberId, partitions(beat.assignment()));
                }
            }
            for (String memberId : classics) {
                Errors beat = epochs.containsKey(memberId) ? classicHeartbeat(memberId, epochs.get(memberId)) : Errors.REBALANCE_IN_PROGRESS;
                if (beat == Errors.REBALANCE_IN_PROGRESS) {
                    // an eager (range) member gives up everything before it rejoins
                    JoinResult joined = rejoin(memberId, Set.of());
                    assertThat(joined.error()).as(memberId).isEqualTo(Errors.NONE);
                    SyncResult synced = sync(joined, Map.of());
                    assertThat(synced.error()).as(memberId).isEqualTo(Errors.NONE);
                    epochs.put(memberId, joined.generationId());
                    owned.put(memberId, partitionsOf(synced.assignment()));
                } else {
                    assertThat(beat).as(memberId).isEqualTo(Errors.NONE);
                }
            }
        }
        assertThat(consumerGroup().state()).isEqualTo(ConsumerGroupState.STABLE);
        Set<Integer> all = new HashSet<>();
        owned.values().forEach(partitions -> partitions.forEach(p -> assertThat(all.add(p)).as("partition %d owned twice", p).isTrue()));
        assertThat(all).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5);
        return epochs;
    }

    // ---- upgrade

    @Test
    void aConsumerProtocolMemberUpgradesANonEmptyClassicGroupWhoseMembersKeepTheirPartitions() {
        open(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        List<JoinResult> classic = stableClassicGroupOfTwo();
        String m1 = classic.get(0).memberId();
        String m2 = classic.get(1).memberId();
        int generation = classic.get(0).generationId();

        HeartbeatResult c = fixture.consumerGroupJoin(GROUP, "c", null, TOPIC);

        assertThat(c.error()).isEqualTo(Errors.NONE);
        assertThat(c.memberEpoch()).isEqualTo(generation + 1);
        assertThat(c.assignment()).as("its partitions are still the classic members'").isEmpty();
        assertThat(fixture.coordinator.listGroups()).extracting(GroupListing::type).containsExactly(GroupListing.CONSUMER);
        assertThat(fixture.coordinator.describe(GROUP)).as("no longer a classic group").isEmpty();
        assertThat(consumerGroup().groupEpoch()).isEqualTo(generation + 1);
        assertThat(member(m1).memberEpoch()).isEqualTo(generation);
        assertThat(partitions(member(m1).assignment())).containsExactlyInAnyOrder(0, 1, 2);
        assertThat(partitions(member(m2).assignment())).containsExactlyInAnyOrder(3, 4, 5);
        assertThat(commit(m1, generation, 0)).as("a classic member commits with its generation").isEqualTo(Errors.NONE);

        assertThat(classicHeartbeat(m1, generation)).as("told to rejoin: the group epoch moved on").isEqualTo(Errors.REBALANCE_IN_PROGRESS);
        JoinResult m1Joined = rejoin(m1, Set.of());
        assertThat(m1Joined.error()).isEqualTo(Errors.NONE);
        assertThat(m1Joined.generationId()).as("the member epoch is its generation").isEqualTo(generation + 1);
        assertThat(m1Joined.protocolName()).isEqualTo("range");
        assertThat(m1Joined.leaderId()).as("no classic member assigns").isNotEqualTo(m1);
        assertThat(m1Joined.members()).isEmpty();
        assertThat(commit(m1, generation, 0)).as("an old generation").isEqualTo(Errors.ILLEGAL_GENERATION);
        SyncResult m1Synced = sync(m1Joined, Map.of());
        assertThat(m1Synced.error()).isEqualTo(Errors.NONE);
        assertThat(partitionsOf(m1Synced.assignment())).hasSize(2).isSubsetOf(0, 1, 2);
        assertThat(classicHeartbeat(m1, m1Joined.generationId())).isEqualTo(Errors.NONE);

        Map<String, Integer> epochs = settle(Map.of("c", c.memberEpoch()), List.of(m1, m2));
        assertThat(partitions(member("c").assignment())).hasSize(2);
        assertThat(epochs.values()).containsOnly(generation + 1);
    }

    @Test
    void consumerProtocolMembersTakeOverTheInstanceIdsOfClassicStaticMembersAtOnceAndUseTheirProtocol() {
        open(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        List<JoinResult> classic = stableClassicGroupOfTwo(fixture.coordinator.join(staticJoinRequest("", "i-1", List.of(TOPIC))),
                fixture.coordinator.join(staticJoinRequest("", "i-2", List.of(TOPIC))));
        String m2 = classic.get(1).memberId();

        // i-1 restarts with group.protocol=consumer: a classic member never says it left, so nothing is unreleased
        HeartbeatResult n1 = fixture.consumerGroupJoin(GROUP, "n1", "i-1", TOPIC);

        assertThat(n1.error()).isEqualTo(Errors.NONE);
        assertThat(partitions(n1.assignment())).as("the partitions of the member it replaced").containsExactlyInAnyOrder(0, 1, 2);
        assertThat(consumerGroup().members()).extracting(ConsumerGroupCoordinator.DescribedMember::memberId)
                .containsExactlyInAnyOrder("n1", m2);
        assertThat(member("n1").classic()).as("it uses the consumer protocol").isFalse();
        fixture.reopen();
        assertThat(member("n1").classic()).as("as its record says").isFalse();

        HeartbeatResult n2 = fixture.consumerGroupJoin(GROUP, "n2", "i-2", TOPIC);
        assertThat(n2.error()).isEqualTo(Errors.NONE);
        assertThat(partitions(n2.assignment())).containsExactlyInAnyOrder(3, 4, 5);
        assertThat(consumerGroup().members()).extracting(ConsumerGroupCoordinator.DescribedMember::memberId)
                .containsExactlyInAnyOrder("n1", "n2");
        assertThat(consumerGroup().members()).noneMatch(ConsumerGroupCoordinator.DescribedMember::classic);
    }

    @Test
    void aClassicGroupThatDoesNotUseTheConsumerProtocolIsNotUpgraded() {
        open(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        JoinRequest connect = new JoinRequest(GROUP, "", null, "worker", "/127.0.0.1", SESSION_TIMEOUT_MS, REBALANCE_TIMEOUT_MS,
                "connect", List.of(new Protocol("sessioned", new byte[]{1})), false);
        fixture.coordinator.join(connect);

        HeartbeatResult c = fixture.consumerGroupJoin(GROUP, "c", null, TOPIC);

        assertThat(c.error()).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        assertThat(c.errorMessage()).contains("consumer embedded protocol");
        assertThat(fixture.coordinator.describe(GROUP)).as("still classic").isPresent();
    }

    @Test
    void aClassicGroupWithAnUnreadableSubscriptionIsNotUpgraded() {
        open(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        fixture.coordinator.join(new JoinRequest(GROUP, "", null, "classic", "/127.0.0.1", SESSION_TIMEOUT_MS, REBALANCE_TIMEOUT_MS,
                "consumer", List.of(new Protocol("range", new byte[]{0, 9, 9})), false));

        HeartbeatResult c = fixture.consumerGroupJoin(GROUP, "c", null, TOPIC);

        assertThat(c.error()).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        assertThat(fixture.coordinator.describe(GROUP)).isPresent();
    }

    @Test
    void classicMembersThatAreWaitingForARebalanceAreToldToRejoinTheConsumerGroup() {
        open(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        List<JoinResult> classic = stableClassicGroupOfTwo();
        CompletableFuture<JoinResult> leaderRejoins = fixture.coordinator.join(classicJoin(classic.get(0).memberId(), Set.of()));
        assertThat(leaderRejoins).as("the classic group rebalances").isNotDone();

        assertThat(fixture.consumerGroupJoin(GROUP, "c", null, TOPIC).error()).isEqualTo(Errors.NONE);

        assertThat(leaderRejoins.join().error()).isEqualTo(Errors.REBALANCE_IN_PROGRESS);
        settle(Map.of("c", consumerGroup().groupEpoch()), List.of(classic.get(0).memberId(), classic.get(1).memberId()));
    }

    // ---- classic members in a consumer group

    @Test
    void aClassicMemberJoinsAConsumerGroupAndGetsItsPartitionsOnceTheirOwnerRevokedThem() {
        open(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        HeartbeatResult c = fixture.consumerGroupJoin(GROUP, "c", null, TOPIC);
        assertThat(partitions(c.assignment())).hasSize(6);

        JoinResult m = joinNew().join();

        assertThat(m.error()).isEqualTo(Errors.NONE);
        assertThat(m.generationId()).isEqualTo(c.memberEpoch() + 1);
        assertThat(m.protocolName()).isEqualTo("range");
        SyncResult nothingYet = sync(m, Map.of());
        assertThat(partitionsOf(nothingYet.assignment())).as("c still owns them all").isEmpty();
        assertThat(classicHeartbeat(m.memberId(), m.generationId())).as("waiting for c").isEqualTo(Errors.NONE);
        assertThat(member(m.memberId()).subscribedTopicNames()).containsExactly(TOPIC);
        assertThat(member(m.memberId()).classic()).isTrue();
        assertThat(member("c").classic()).isFalse();

        HeartbeatResult revoking = fixture.consumerGroupHeartbeat(GROUP, "c", null, c.memberEpoch(), c.assignment());
        fixture.consumerGroupHeartbeat(GROUP, "c", null, c.memberEpoch(), revoking.assignment());
        assertThat(classicHeartbeat(m.memberId(), m.generationId())).as("its partitions are free: rejoin to get them")
                .isEqualTo(Errors.REBALANCE_IN_PROGRESS);
        JoinResult again = rejoin(m.memberId(), Set.of());
        assertThat(partitionsOf(sync(again, Map.of()).assignment())).hasSize(3)
                .doesNotContainAnyElementsOf(partitions(revoking.assignment()));
        assertThat(consumerGroup().state()).isEqualTo(ConsumerGroupState.STABLE);
    }

    @Test
    void aClassicMemberWhoseProtocolsTheGroupCannotUseIsRefused() {
        open(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        fixture.consumerGroupJoin(GROUP, "c", null, TOPIC);
        joinNew().join();

        JoinRequest other = new JoinRequest(GROUP, "x", null, "worker", "/127.0.0.1", SESSION_TIMEOUT_MS, REBALANCE_TIMEOUT_MS,
                "consumer", List.of(new Protocol("roundrobin", subscription(Set.of()))), true);
        assertThat(fixture.coordinator.join(other).join().error()).as("m supports only range")
                .isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL);
        JoinRequest connect = new JoinRequest(GROUP, "y", null, "worker", "/127.0.0.1", SESSION_TIMEOUT_MS, REBALANCE_TIMEOUT_MS,
                "connect", List.of(new Protocol("range", new byte[0])), true);
        assertThat(fixture.coordinator.join(connect).join().error()).isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL);
    }

    @Test
    void classicMembersOfAConsumerGroupAreFencedByTheirOwnSessionRejoinAndSyncDeadlines() {
        open(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        Map<String, Integer> epochs = mixedGroup();
        List<String> classics = epochs.keySet().stream().filter(id -> !id.equals("c")).sorted().toList();
        String silent = classics.get(0);
        String stubborn = classics.get(1);

        // silent stops heartbeating: it is gone after its own 10 s session, long before the consumer protocol's 45 s
        for (int waited = 0; waited <= SESSION_TIMEOUT_MS; waited += 3000) {
            fixture.advance(3000);
            fixture.consumerGroupHeartbeat(GROUP, "c", null, epochs.get("c"), null);
            classicHeartbeat(stubborn, epochs.get(stubborn));
        }
        assertThat(consumerGroup().members()).extracting(ConsumerGroupCoordinator.DescribedMember::memberId)
                .containsExactlyInAnyOrder("c", stubborn);

        // stubborn is told to rejoin, heartbeats on but never rejoins: gone after its rebalance timeout
        assertThat(classicHeartbeat(stubborn, epochs.get(stubborn))).isEqualTo(Errors.REBALANCE_IN_PROGRESS);
        for (int waited = 0; waited <= REBALANCE_TIMEOUT_MS; waited += 3000) {
            fixture.advance(3000);
            fixture.consumerGroupHeartbeat(GROUP, "c", null,
                    consumerGroup().members().stream().filter(m -> m.memberId().equals("c")).findFirst()
                    .orElseThrow().memberEpoch(), null);
            if (consumerGroup().members().size() == 2) {
                assertThat(classicHeartbeat(stubborn, epochs.get(stubborn))).isEqualTo(Errors.REBALANCE_IN_PROGRESS);
            }
        }
        assertThat(consumerGroup().members()).extracting(ConsumerGroupCoordinator.DescribedMember::memberId).containsExactly("c");

        // a member that joins but never syncs is gone after its rebalance timeout, heartbeats or not
        JoinResult lazy = joinNew().join();
        for (int waited = 0; waited <= REBALANCE_TIMEOUT_MS; waited += 3000) {
            fixture.advance(3000);
            classicHeartbeat(lazy.memberId(), lazy.generationId());
        }
        assertThat(consumerGroup().members()).extracting(ConsumerGroupCoordinator.DescribedMember::memberId).containsExactly("c");
        assertThat(classicHeartbeat(lazy.memberId(), lazy.generationId())).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
    }

    @Test
    void aClassicLeaveGroupRemovesTheMemberFromTheConsumerGroup() {
        open(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        Map<String, Integer> epochs = mixedGroup();
        String leaving = epochs.keySet().stream().filter(id -> !id.equals("c")).findFirst().orElseThrow();
        int groupEpoch = consumerGroup().groupEpoch();

        LeaveResult left = fixture.coordinator.leave(GROUP, List.of(new MemberIdentity(leaving, null), new MemberIdentity("nobody", null))).join();

        assertThat(left.members()).extracting(LeaveResult.MemberLeft::error).containsExactly(Errors.NONE, Errors.UNKNOWN_MEMBER_ID);
        assertThat(consumerGroup().members()).hasSize(2);
        assertThat(consumerGroup().groupEpoch()).isEqualTo(groupEpoch + 1);
    }

    // ---- downgrade

    @Test
    void whenTheLastConsumerProtocolMemberLeavesTheClassicMembersRebalanceAsAClassicGroup() {
        open(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        Map<String, Integer> epochs = mixedGroup();
        List<String> classics = epochs.keySet().stream().filter(id -> !id.equals("c")).sorted().toList();
        int groupEpoch = consumerGroup().groupEpoch();

        assertThat(fixture.consumerGroupHeartbeat(GROUP, "c", null, -1, null).error()).isEqualTo(Errors.NONE);

        assertThat(fixture.consumerGroups.describe(GROUP)).as("no longer a consumer group").isEmpty();
        GroupDescription classic = fixture.coordinator.describe(GROUP).orElseThrow();
        assertThat(classic.state()).isEqualTo(GroupState.PREPARING_REBALANCE);
        assertThat(classic.protocolType()).isEqualTo("consumer");
        assertThat(classic.members()).extracting(GroupDescription.DescribedMember::memberId).containsExactlyInAnyOrderElementsOf(classics);
        assertThat(fixture.coordinator.listGroups()).extracting(GroupListing::type).containsExactly(GroupListing.CLASSIC);
        assertThat(classicHeartbeat(classics.get(0), epochs.get(classics.get(0)))).isEqualTo(Errors.REBALANCE_IN_PROGRESS);

        CompletableFuture<JoinResult> first = fixture.coordinator.join(classicJoin(classics.get(0), Set.of()));
        CompletableFuture<JoinResult> second = fixture.coordinator.join(classicJoin(classics.get(1), Set.of()));
        JoinResult leader = first.join().leaderId().equals(classics.get(0)) ? first.join() : second.join();
        assertThat(leader.generationId()).as("classic generations go on from the group epoch").isEqualTo(groupEpoch + 1);
        assertThat(leader.members()).hasSize(2);
        JoinResult follower = leader == first.join() ? second.join() : first.join();
        syncClassicGroupOfTwo(leader, follower);
    }

    /** A stable consumer group of the static consumer-protocol member "c" (instance "i-c") and a classic member. */
    private Map<String, Integer> groupOfAStaticConsumerProtocolMemberAndAClassicMember() {
        HeartbeatResult c = fixture.consumerGroupJoin(GROUP, "c", "i-c", TOPIC);
        String m = joinNew().join().memberId();
        return settle(Map.of("c", c.memberEpoch()), List.of(m));
    }

    @Test
    void aClassicMemberThatTakesOverTheLastConsumerProtocolStaticMemberTurnsTheGroupClassicWithoutARebalance() {
        open(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        Map<String, Integer> epochs = groupOfAStaticConsumerProtocolMemberAndAClassicMember();
        String m = epochs.keySet().stream().filter(id -> !id.equals("c")).findFirst().orElseThrow();
        int groupEpoch = consumerGroup().groupEpoch();
        Set<Integer> ofC = partitions(member("c").assignment());

        // "c" restarts as a classic consumer, same group.instance.id, same subscription
        JoinResult restarted = staticJoin("", "i-c", List.of(TOPIC));

        assertThat(restarted.error()).isEqualTo(Errors.NONE);
        assertThat(restarted.memberId()).isNotIn("", "c");
        assertThat(restarted.generationId()).as("the classic generation is the group epoch").isEqualTo(groupEpoch);
        assertThat(restarted.leaderId()).as("nobody assigns: no rebalance").isEmpty();
        assertThat(restarted.members()).isEmpty();
        assertThat(fixture.consumerGroups.describe(GROUP)).as("no longer a consumer group").isEmpty();
        GroupDescription classic = fixture.coordinator.describe(GROUP).orElseThrow();
        assertThat(classic.state()).isEqualTo(GroupState.STABLE);
        assertThat(classic.members()).extracting(GroupDescription.DescribedMember::memberId)
                .containsExactlyInAnyOrder(m, restarted.memberId());
        assertThat(classic.members()).extracting(GroupDescription.DescribedMember::groupInstanceId).contains("i-c");
        SyncResult synced = sync(restarted, Map.of());
        assertThat(synced.error()).isEqualTo(Errors.NONE);
        assertThat(partitionsOf(synced.assignment())).as("the partitions of the member it replaced").isEqualTo(ofC);
        assertThat(classicHeartbeat(m, epochs.get(m))).as("the other member goes on").isEqualTo(Errors.NONE);
        assertThat(commit(m, epochs.get(m), 0)).as("at its generation").isEqualTo(Errors.NONE);

        fixture.reopen();
        assertThat(fixture.consumerGroups.describe(GROUP)).as("the consumer group's records were deleted").isEmpty();
    }

    @Test
    void aClassicMemberThatTakesOverTheLastConsumerProtocolStaticMemberWithOtherTopicsTurnsTheGroupClassicAndItRebalances() {
        open(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        fixture.topics.create("u", 2);
        Map<String, Integer> epochs = groupOfAStaticConsumerProtocolMemberAndAClassicMember();
        String m = epochs.keySet().stream().filter(id -> !id.equals("c")).findFirst().orElseThrow();
        int groupEpoch = consumerGroup().groupEpoch();

        JoinResult restarted = staticJoin("", "i-c", List.of(TOPIC, "u"));

        assertThat(restarted.error()).isEqualTo(Errors.NONE);
        assertThat(restarted.generationId()).as("its member epoch: 0, as Kafka's replacing member has until it is reconciled")
                .isZero();
        assertThat(fixture.consumerGroups.describe(GROUP)).as("no longer a consumer group").isEmpty();
        assertThat(fixture.coordinator.describe(GROUP).orElseThrow().state()).isEqualTo(GroupState.PREPARING_REBALANCE);
        assertThat(sync(restarted, Map.of()).error()).as("generation 0 is not the classic group's").isEqualTo(Errors.ILLEGAL_GENERATION);
        assertThat(classicHeartbeat(m, epochs.get(m))).isEqualTo(Errors.ILLEGAL_GENERATION);

        CompletableFuture<JoinResult> mRejoins = fixture.coordinator.join(classicJoin(m, Set.of()));
        JoinResult again = staticJoin(restarted.memberId(), "i-c", List.of(TOPIC, "u"));
        JoinResult leader = again.leaderId().equals(again.memberId()) ? again : mRejoins.join();
        assertThat(leader.generationId()).as("the new subscription bumped the group epoch before the group became classic, "
                + "and the rebalance starts the next generation").isEqualTo(groupEpoch + 2);
        assertThat(leader.members()).extracting(JoinResult.JoinedMember::metadata)
                .extracting(metadata -> ConsumerProtocol.deserializeSubscription(ByteBuffer.wrap(metadata)).topics())
                .containsExactlyInAnyOrder(List.of(TOPIC), List.of(TOPIC, "u"));
    }

    @ParameterizedTest
    @EnumSource(value = ConsumerGroupMigrationPolicy.class, names = {"UPGRADE", "BIDIRECTIONAL"})
    void aClassicMemberThatTakesOverAConsumerProtocolStaticMemberKeepsTheConsumerGroupIfThePolicyOrAnotherMemberSaysSo(
            ConsumerGroupMigrationPolicy policy) {
        open(policy);
        HeartbeatResult c = fixture.consumerGroupJoin(GROUP, "c", "i-c", TOPIC);
        Map<String, Integer> consumers = new HashMap<>(Map.of("c", c.memberEpoch()));
        if (policy.isDowngradeEnabled()) {
            consumers.put("d", fixture.consumerGroupJoin(GROUP, "d", null, TOPIC).memberEpoch());
        }
        String m = joinNew().join().memberId();
        settle(consumers, List.of(m));
        Map<Uuid, Set<Integer>> targetOfC = member("c").targetAssignment();

        JoinResult restarted = staticJoin("", "i-c", List.of(TOPIC));

        assertThat(restarted.error()).isEqualTo(Errors.NONE);
        assertThat(consumerGroup().members()).extracting(ConsumerGroupCoordinator.DescribedMember::memberId)
                .containsExactlyInAnyOrderElementsOf(policy.isDowngradeEnabled() ? List.of("d", m, restarted.memberId())
                        : List.of(m, restarted.memberId()));
        assertThat(member(restarted.memberId()).classic()).isTrue();
        assertThat(member(restarted.memberId()).targetAssignment()).isEqualTo(targetOfC);
        assertThat(staticJoin("c", "i-c", List.of(TOPIC)).error()).as("the old incarnation is fenced")
                .isEqualTo(Errors.FENCED_INSTANCE_ID);
        assertThat(staticJoin("gone", "i-gone", List.of(TOPIC)).error()).as("a member id the group does not know")
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID);
    }

    @ParameterizedTest
    @EnumSource(ConsumerGroupMigrationPolicy.class)
    void thePolicyDecidesWhichNonEmptyGroupsChangeType(ConsumerGroupMigrationPolicy policy) {
        open(policy);
        stableClassicGroupOfTwo();

        HeartbeatResult upgrading = fixture.consumerGroupJoin(GROUP, "u", null, TOPIC);

        if (policy.isUpgradeEnabled()) {
            assertThat(upgrading.error()).isEqualTo(Errors.NONE);
        } else {
            assertThat(upgrading.error()).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
            assertThat(upgrading.errorMessage()).contains("online upgrade is disabled");
            assertThat(fixture.coordinator.describe(GROUP)).as("still classic").isPresent();
            return;
        }

        fixture.consumerGroupHeartbeat(GROUP, "u", null, -1, null);

        if (policy.isDowngradeEnabled()) {
            assertThat(fixture.coordinator.describe(GROUP)).as("classic again").isPresent();
            assertThat(fixture.consumerGroups.describe(GROUP)).isEmpty();
        } else {
            assertThat(consumerGroup().members()).as("a consumer group of classic members").hasSize(2)
                    .allMatch(ConsumerGroupCoordinator.DescribedMember::classic);
            assertThat(fixture.consumerGroupJoin(GROUP, "v", null, TOPIC).error()).as("it stays open to consumer-protocol members")
                    .isEqualTo(Errors.NONE);
        }
    }

    @Test
    void noClassicMemberJoinsAConsumerGroupWithMembersWhenMigrationIsDisabled() {
        open(ConsumerGroupMigrationPolicy.DISABLED);
        fixture.consumerGroupJoin(GROUP, "c", null, TOPIC);

        JoinResult refused = fixture.coordinator.join(classicJoin("", Set.of())).join();

        assertThat(refused.error()).as("the group could never be classic again").isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL);
        assertThat(consumerGroup().members()).extracting(ConsumerGroupCoordinator.DescribedMember::memberId).containsExactly("c");
    }

    @Test
    void emptyGroupsChangeTypeWhateverThePolicy() {
        open(ConsumerGroupMigrationPolicy.DISABLED);
        HeartbeatResult c = fixture.consumerGroupJoin(GROUP, "c", null, TOPIC);
        assertThat(c.error()).isEqualTo(Errors.NONE);
        fixture.consumerGroupHeartbeat(GROUP, "c", null, -1, null);

        CompletableFuture<JoinResult> joining = joinNew();
        fixture.advance(INITIAL_DELAY_MS);
        assertThat(joining.join().error()).as("an empty consumer group becomes classic").isEqualTo(Errors.NONE);
        assertThat(fixture.consumerGroups.describe(GROUP)).isEmpty();

        fixture.reopen();
        assertThat(fixture.consumerGroups.describe(GROUP)).as("the consumer group's records were deleted").isEmpty();
    }

    @Test
    void anEmptyConsumerGroupBecomesANewClassicGroupWhoseGenerationsStartAgainAsInKafka() {
        open(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        List<JoinResult> classic = stableClassicGroupOfTwo();
        fixture.coordinator.leave(GROUP, classic.stream().map(m -> new MemberIdentity(m.memberId(), null)).toList()).join();
        assertThat(fixture.consumerGroupJoin(GROUP, "c", null, TOPIC).error())
                .as("the empty classic group of generation 2 becomes a consumer group")
                .isEqualTo(Errors.NONE);
        fixture.consumerGroupHeartbeat(GROUP, "c", null, -1, null);

        CompletableFuture<JoinResult> joining = joinNew();
        fixture.advance(INITIAL_DELAY_MS);

        assertThat(joining.join().generationId()).as("Kafka's new classic group: generation 0, then its first rebalance").isEqualTo(1);
    }

    @Test
    void anEmptyConsumerGroupWhoseTombstonesAreRefusedStaysAConsumerGroupAndTheJoinGroupGetsTheError() {
        open(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        fixture.consumerGroupJoin(GROUP, "c", null, TOPIC);
        fixture.consumerGroupHeartbeat(GROUP, "c", null, -1, null);
        fixture.replication = (partition, records) -> {
            throw new NotEnoughReplicasException("1 of 2 replicas in sync");
        };

        JoinResult refused = fixture.coordinator.join(classicJoin("", Set.of())).join();

        assertThat(refused.error()).as("the client retries").isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
        assertThat(fixture.consumerGroups.describe(GROUP)).as("still the consumer group its log holds").isPresent();
        fixture.replicateAtOnce();
        CompletableFuture<JoinResult> joining = joinNew();
        fixture.advance(INITIAL_DELAY_MS);
        JoinResult member = joining.join();
        SyncResult synced = fixture.coordinator.sync(new SyncRequest(GROUP, member.generationId(), member.memberId(), null,
                "consumer", "range", Map.of(member.memberId(), assignment(Set.of(0))))).join();
        assertThat(synced.error()).isEqualTo(Errors.NONE);
        fixture.reopen();
        assertThat(fixture.coordinator.describe(GROUP).orElseThrow().members()).as("the classic group, not the consumer group")
                .extracting(GroupDescription.DescribedMember::memberId).containsExactly(member.memberId());
    }

    // ---- failover

    @Test
    void aRestartedCoordinatorReplaysAMixedGroupAndItsClassicMembersGoOn() {
        open(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        Map<String, Integer> epochs = mixedGroup();
        List<String> classics = epochs.keySet().stream().filter(id -> !id.equals("c")).sorted().toList();
        ConsumerGroupCoordinator.Description before = consumerGroup();

        fixture.reopen();

        assertThat(consumerGroup()).isEqualTo(before);
        String m1 = classics.get(0);
        assertThat(classicHeartbeat(m1, epochs.get(m1))).isEqualTo(Errors.NONE);
        SyncResult synced = fixture.coordinator.sync(new SyncRequest(GROUP, epochs.get(m1), m1, null, "consumer", "range", Map.of())).join();
        assertThat(synced.error()).isEqualTo(Errors.NONE);
        assertThat(partitionsOf(synced.assignment())).isEqualTo(partitions(member(m1).assignment()));
        assertThat(commit(m1, epochs.get(m1), partitionsOf(synced.assignment()).iterator().next())).isEqualTo(Errors.NONE);

        // the classic members' session timeout came back with them
        for (int waited = 0; waited <= SESSION_TIMEOUT_MS; waited += 3000) {
            fixture.advance(3000);
            fixture.consumerGroupHeartbeat(GROUP, "c", null, epochs.get("c"), null);
            classicHeartbeat(m1, epochs.get(m1));
        }
        List<String> left = new ArrayList<>();
        consumerGroup().members().forEach(m -> left.add(m.memberId()));
        assertThat(left).containsExactlyInAnyOrder("c", m1);
        assertThat(Partitions.count(member("c").targetAssignment()) + Partitions.count(member(m1).targetAssignment())).isEqualTo(6);
    }
}

package io.tributary.broker.group;

import static io.tributary.broker.group.GroupFixture.INITIAL_DELAY_MS;
import static io.tributary.broker.group.GroupFixture.SESSION_TIMEOUT_MS;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.group.consumer.HeartbeatResult;
import io.tributary.broker.testing.DumpLogSegmentsOutput;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.coordinator.group.ConsumerGroupMigrationPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A classic group's membership is in {@code __consumer_offsets} as Kafka keeps it (its GroupMetadata record), so a new
 * coordinator — here the same one rebuilt from its log, as after a failover — serves the same generation and members,
 * who heartbeat, sync and commit on without rejoining: after a rebalance, after the group was left empty, after a
 * static member's restart, after a consumer group turned classic; an upgraded or deleted group leaves no classic group
 * behind. A SyncGroup is answered once the generation's assignment is replicated, and a loaded group over
 * {@code group.max.size} rebalances.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ClassicGroupFailoverTest {
    private static final String GROUP = "g";
    private static final String TOPIC = "t";
    private static final byte[] SUBSCRIPTION = Utils.toArray(ConsumerProtocol.serializeSubscription(new Subscription(List.of(TOPIC))));

    @TempDir
    Path dir;
    private GroupFixture fixture;

    @BeforeEach
    void open() {
        fixture = new GroupFixture(dir);
        fixture.topics.create(TOPIC, 6);
    }

    @AfterEach
    void close() {
        fixture.close();
    }

    private static JoinRequest join(String memberId, String instanceId) {
        return GroupFixture.consumerJoin(GROUP, memberId, instanceId, TOPIC);
    }

    private CompletableFuture<JoinResult> joinNew() {
        return fixture.joinNew(memberId -> join(memberId, null));
    }

    private CompletableFuture<SyncResult> sync(JoinResult joined, Map<String, byte[]> assignments) {
        return fixture.coordinator.sync(new SyncRequest(GROUP, joined.generationId(), joined.memberId(), null, "consumer",
                "range", assignments));
    }

    private Errors heartbeat(JoinResult member) {
        return fixture.coordinator.heartbeat(GROUP, member.memberId(), null, member.generationId());
    }

    /** A range assignment of partition {@code partition} of the topic, as a classic consumer's leader sends it. */
    private static byte[] assignment(int partition) {
        return Utils.toArray(ConsumerProtocol.serializeAssignment(new Assignment(List.of(new TopicPartition(TOPIC, partition)))));
    }

    /** The leader, then the others, of a stable group of the members joining; member i is assigned partition i. */
    private List<JoinResult> stableGroup(List<CompletableFuture<JoinResult>> joining) {
        fixture.advance(2 * INITIAL_DELAY_MS);
        List<JoinResult> joined = new ArrayList<>(joining.stream().map(CompletableFuture::join).toList());
        joined.sort((a, b) -> Boolean.compare(!a.memberId().equals(a.leaderId()), !b.memberId().equals(b.leaderId())));
        List<CompletableFuture<SyncResult>> followers = joined.subList(1, joined.size()).stream().map(m -> sync(m, Map.of())).toList();
        Map<String, byte[]> assignments = new HashMap<>();
        for (int i = 0; i < joined.size(); i++) {
            assignments.put(joined.get(i).memberId(), assignment(i));
        }
        assertThat(sync(joined.get(0), assignments).join().assignment()).isEqualTo(assignment(0));
        followers.forEach(sync -> assertThat(sync.join().error()).isEqualTo(Errors.NONE));
        return joined;
    }

    private GroupDescription describe() {
        return fixture.coordinator.describe(GROUP).orElseThrow();
    }

    @Test
    void aStableGroupComesBackWithItsGenerationAndMembersWhoGoOnWithoutRejoining() {
        List<JoinResult> members = stableGroup(List.of(joinNew(), joinNew()));
        JoinResult leader = members.get(0);
        JoinResult follower = members.get(1);

        fixture.reopen();

        GroupDescription loaded = describe();
        assertThat(loaded.state()).isEqualTo(GroupState.STABLE);
        assertThat(loaded.protocolType()).isEqualTo("consumer");
        assertThat(loaded.protocolName()).isEqualTo("range");
        assertThat(loaded.members()).extracting(GroupDescription.DescribedMember::memberId)
                .containsExactlyInAnyOrder(leader.memberId(), follower.memberId());
        assertThat(loaded.members()).allSatisfy(member -> assertThat(member.metadata()).isEqualTo(SUBSCRIPTION));
        assertThat(heartbeat(leader)).as("same generation").isEqualTo(Errors.NONE);
        assertThat(heartbeat(follower)).isEqualTo(Errors.NONE);
        assertThat(sync(follower, Map.of()).join().assignment()).as("its assignment was stored").isEqualTo(assignment(1));
        TopicPartition partition = new TopicPartition(TOPIC, 1);
        assertThat(fixture.offsets.commit(new OffsetCommit(GROUP, follower.memberId(), null, follower.generationId(),
                Map.of(partition, new OffsetCommit.Position(5, -1, null)))).join()).containsEntry(partition, Errors.NONE);

        // the loaded members' sessions run from the load: the follower, silent, is gone after its own
        for (int waited = 0; waited <= SESSION_TIMEOUT_MS; waited += 3000) {
            fixture.advance(3000);
            heartbeat(leader);
        }
        assertThat(heartbeat(leader)).as("the group rebalances without it").isEqualTo(Errors.REBALANCE_IN_PROGRESS);
        JoinResult next = fixture.coordinator.join(join(leader.memberId(), null)).join();
        assertThat(next.generationId()).isEqualTo(leader.generationId() + 1);
        assertThat(next.members()).extracting(JoinResult.JoinedMember::memberId).containsExactly(leader.memberId());
    }

    @Test
    void kafkasOffsetsDecoderReadsTheGroupsRecord() throws Exception {
        JoinResult only = stableGroup(List.of(joinNew())).get(0);

        assertThat(DumpLogSegmentsOutput.of(fixture.offsetsSegment(GROUP), "--offsets-decoder")).contains("key: {\"type\":\"2\",\"data\":{\"group\":\"g\"}}",
                "payload: {\"version\":\"3\",\"data\":{\"protocolType\":\"consumer\",\"generation\":1,\"protocol\":\"range\","
                        + "\"leader\":\"" + only.memberId() + "\"", "\"memberId\":\"" + only.memberId() + "\"")
                .doesNotContain("Exception");
    }

    @Test
    void aSyncGroupIsAnsweredOnceTheAssignmentIsReplicatedAndAFailedWriteStartsAnotherRebalance() {
        List<CompletableFuture<Errors>> unreplicated = fixture.holdReplication();
        CompletableFuture<JoinResult> joining = joinNew();
        fixture.advance(INITIAL_DELAY_MS);
        JoinResult only = joining.join();

        CompletableFuture<SyncResult> synced = sync(only, Map.of(only.memberId(), assignment(3)));

        assertThat(synced).as("the assignment is not on the followers yet").isNotDone();
        assertThat(describe().state()).isEqualTo(GroupState.COMPLETING_REBALANCE);
        unreplicated.get(0).complete(Errors.NONE);
        assertThat(synced.join().assignment()).isEqualTo(assignment(3));
        assertThat(describe().state()).isEqualTo(GroupState.STABLE);

        JoinResult again = fixture.coordinator.join(join(only.memberId(), null)).join();
        CompletableFuture<SyncResult> failed = sync(again, Map.of(only.memberId(), assignment(4)));
        unreplicated.get(1).complete(Errors.REQUEST_TIMED_OUT);
        assertThat(failed.join().error()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
        assertThat(describe().state()).as("as Kafka: a rebalance again").isEqualTo(GroupState.PREPARING_REBALANCE);
    }

    @Test
    void aGroupLeftEmptyComesBackEmptyAndGoesOnFromItsGeneration() {
        JoinResult only = stableGroup(List.of(joinNew())).get(0);
        fixture.coordinator.leave(GROUP, List.of(new MemberIdentity(only.memberId(), null))).join();

        fixture.reopen();

        assertThat(describe().state()).isEqualTo(GroupState.EMPTY);
        assertThat(describe().members()).isEmpty();
        assertThat(heartbeat(only)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        CompletableFuture<JoinResult> joining = joinNew();
        fixture.advance(INITIAL_DELAY_MS);
        assertThat(joining.join().generationId()).as("the empty generation, then the next").isEqualTo(only.generationId() + 2);
    }

    @Test
    void aStaticMemberThatRestartedKeepsItsNewMemberIdAcrossAFailover() {
        List<JoinResult> members = stableGroup(List.of(joinNew(), fixture.coordinator.join(join("", "i-1"))));
        JoinResult before = members.get(1);
        JoinResult restarted = fixture.coordinator.join(join("", "i-1")).join();
        assertThat(restarted.memberId()).isNotEqualTo(before.memberId());

        fixture.reopen();

        assertThat(fixture.coordinator.heartbeat(GROUP, restarted.memberId(), "i-1", restarted.generationId())).isEqualTo(Errors.NONE);
        assertThat(fixture.coordinator.heartbeat(GROUP, before.memberId(), "i-1", before.generationId()))
                .isEqualTo(Errors.FENCED_INSTANCE_ID);
        assertThat(describe().members()).extracting(GroupDescription.DescribedMember::groupInstanceId).contains("i-1");
    }

    @Test
    void aConsumerGroupThatTurnedClassicComesBackClassic() {
        HeartbeatResult c = fixture.consumerGroupJoin(GROUP, "c", "i-c", TOPIC);
        JoinResult m = joinNew().join();
        assertThat(c.error()).isEqualTo(Errors.NONE);
        assertThat(m.error()).isEqualTo(Errors.NONE);
        JoinResult restarted = fixture.coordinator.join(join("", "i-c")).join();
        assertThat(fixture.consumerGroups.describe(GROUP)).as("turned classic, without a rebalance").isEmpty();

        fixture.reopen();

        assertThat(fixture.consumerGroups.describe(GROUP)).isEmpty();
        assertThat(describe().state()).isEqualTo(GroupState.STABLE);
        assertThat(describe().members()).extracting(GroupDescription.DescribedMember::memberId)
                .containsExactlyInAnyOrder(m.memberId(), restarted.memberId());
        assertThat(fixture.coordinator.heartbeat(GROUP, restarted.memberId(), "i-c", restarted.generationId())).isEqualTo(Errors.NONE);
    }

    @Test
    void anUpgradedGroupsClassicRecordIsDeleted() {
        stableGroup(List.of(joinNew()));
        assertThat(storedClassicGroups()).containsKey(GROUP);

        HeartbeatResult c = fixture.consumerGroupJoin(GROUP, "c", null, TOPIC);

        assertThat(c.error()).isEqualTo(Errors.NONE);
        assertThat(storedClassicGroups()).as("a tombstone, as Kafka writes before the consumer group's records").doesNotContainKey(GROUP);
        fixture.reopen();
        assertThat(fixture.consumerGroups.describe(GROUP)).isPresent();
    }

    @Test
    void anUpgradeRefusedForWantOfReplicasLeavesTheClassicGroupAsItsLogHoldsIt() {
        List<JoinResult> members = stableGroup(List.of(joinNew(), joinNew()));
        fixture.replication = (partition, records) -> {
            throw new NotEnoughReplicasException("1 of 2 replicas in sync");
        };

        HeartbeatResult c = fixture.consumerGroupJoin(GROUP, "c", null, TOPIC);

        assertThat(c.error()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
        assertThat(describe().state()).isEqualTo(GroupState.STABLE);
        assertThat(heartbeat(members.get(0))).as("its members go on in their generation").isEqualTo(Errors.NONE);
        assertThat(heartbeat(members.get(1))).isEqualTo(Errors.NONE);
    }

    private Map<String, ?> storedClassicGroups() {
        return fixture.store.load(fixture.store.partitionFor(GROUP)).classicGroups();
    }

    @Test
    void aDeletedGroupDoesNotComeBack() {
        JoinResult only = stableGroup(List.of(joinNew())).get(0);
        fixture.coordinator.leave(GROUP, List.of(new MemberIdentity(only.memberId(), null))).join();
        assertThat(fixture.offsets.deleteGroups(List.of(GROUP)).join()).containsEntry(GROUP, Errors.NONE);

        fixture.reopen();

        assertThat(fixture.coordinator.listGroups()).isEmpty();
    }

    @Test
    void aLoadedGroupOverGroupMaxSizeRebalancesAndTheMembersOverTheLimitAreLeftOut() {
        List<JoinResult> members = stableGroup(List.of(joinNew(), joinNew()));
        fixture.close();
        fixture = new GroupFixture(dir, ConsumerGroupMigrationPolicy.BIDIRECTIONAL, 1, Integer.MAX_VALUE);

        assertThat(describe().state()).isEqualTo(GroupState.PREPARING_REBALANCE);
        CompletableFuture<JoinResult> first = fixture.coordinator.join(join(members.get(0).memberId(), null));
        JoinResult second = fixture.coordinator.join(join(members.get(1).memberId(), null)).join();

        assertThat(second.error()).isEqualTo(Errors.GROUP_MAX_SIZE_REACHED);
        assertThat(first.join().members()).extracting(JoinResult.JoinedMember::memberId).containsExactly(members.get(0).memberId());
    }
}

package io.tributary.broker.group;

import static io.tributary.broker.group.GroupFixture.INITIAL_DELAY_MS;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.group.consumer.HeartbeatResult;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.coordinator.group.ConsumerGroupMigrationPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code group.max.size} (classic groups) and {@code group.consumer.max.size} (consumer groups) as Kafka 4.4 applies
 * them: who is refused with GROUP_MAX_SIZE_REACHED, the members a rebalance leaves out, static members coming back, and
 * the conversions between the protocols that would exceed the other protocol's limit.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GroupSizeLimitTest {
    private static final String GROUP = "g";
    private static final String TOPIC = "t";

    @TempDir
    Path dir;
    private GroupFixture fixture;

    private void open(int classicMaxSize, int consumerMaxSize) {
        fixture = new GroupFixture(dir, ConsumerGroupMigrationPolicy.BIDIRECTIONAL, classicMaxSize, consumerMaxSize);
        fixture.topics.create(TOPIC, 6);
    }

    @AfterEach
    void close() {
        if (fixture != null) {
            fixture.close();
        }
    }

    private static JoinRequest classicJoin(String memberId, String instanceId) {
        return GroupFixture.consumerJoin(GROUP, memberId, instanceId, TOPIC);
    }

    private CompletableFuture<JoinResult> joinNew() {
        return fixture.joinNew(memberId -> classicJoin(memberId, null));
    }

    /** A stable classic group of the members joining (each syncs; the leader assigns nothing: sizes are what matter). */
    private List<JoinResult> stableClassicGroup(List<CompletableFuture<JoinResult>> joining) {
        fixture.advance(2 * INITIAL_DELAY_MS);
        List<JoinResult> joined = joining.stream().map(CompletableFuture::join).toList();
        joined.forEach(member -> assertThat(member.error()).isEqualTo(Errors.NONE));
        List<CompletableFuture<SyncResult>> synced = joined.stream().map(member -> fixture.coordinator.sync(new SyncRequest(GROUP,
                member.generationId(), member.memberId(), null, "consumer", member.protocolName(), Map.of()))).toList();
        synced.forEach(sync -> assertThat(sync.join().error()).isEqualTo(Errors.NONE));
        assertThat(fixture.coordinator.describe(GROUP).orElseThrow().state()).isEqualTo(GroupState.STABLE);
        return joined;
    }

    private List<String> consumerGroupMembers() {
        return fixture.consumerGroups.describe(GROUP).orElseThrow().members().stream()
                .map(ConsumerGroupCoordinator.DescribedMember::memberId).toList();
    }

    // ---- classic groups: group.max.size

    @Test
    void aFullClassicGroupRefusesNewMembersButItsOwnRejoin() {
        open(2, Integer.MAX_VALUE);
        List<JoinResult> members = stableClassicGroup(List.of(joinNew(), joinNew()));

        JoinResult third = fixture.coordinator.join(classicJoin("", null)).join();
        JoinResult thirdStatic = fixture.coordinator.join(classicJoin("", "i-3")).join();

        assertThat(third.error()).isEqualTo(Errors.GROUP_MAX_SIZE_REACHED);
        assertThat(third.memberId()).as("no member id is handed out").isEmpty();
        assertThat(thirdStatic.error()).isEqualTo(Errors.GROUP_MAX_SIZE_REACHED);
        assertThat(fixture.coordinator.describe(GROUP).orElseThrow().members()).hasSize(2);
        CompletableFuture<JoinResult> leaderRejoins = fixture.coordinator.join(classicJoin(members.get(0).memberId(), null));
        CompletableFuture<JoinResult> followerRejoins = fixture.coordinator.join(classicJoin(members.get(1).memberId(), null));
        assertThat(leaderRejoins.join().error()).isEqualTo(Errors.NONE);
        assertThat(followerRejoins.join().error()).isEqualTo(Errors.NONE);
    }

    @Test
    void duringARebalanceTheMembersThatRejoinOverTheLimitAreLeftOut() {
        open(2, Integer.MAX_VALUE);
        List<JoinResult> members = stableClassicGroup(List.of(joinNew(), joinNew()));
        CompletableFuture<JoinResult> leaderRejoins = fixture.coordinator.join(classicJoin(members.get(0).memberId(), null));
        CompletableFuture<JoinResult> newcomer = joinNew();
        assertThat(newcomer).as("one of two has rejoined: there is room").isNotDone();

        JoinResult late = fixture.coordinator.join(classicJoin(members.get(1).memberId(), null)).join();

        assertThat(late.error()).as("two have rejoined: the follower is one too many").isEqualTo(Errors.GROUP_MAX_SIZE_REACHED);
        assertThat(leaderRejoins.join().error()).as("the rebalance goes on without it").isEqualTo(Errors.NONE);
        assertThat(leaderRejoins.join().members()).extracting(JoinResult.JoinedMember::memberId)
                .containsExactlyInAnyOrder(members.get(0).memberId(), newcomer.join().memberId());
    }

    // ---- consumer groups: group.consumer.max.size

    @Test
    void aFullConsumerGroupRefusesNewMembersOfEitherProtocolButNotAStaticMemberComingBack() {
        open(Integer.MAX_VALUE, 2);
        HeartbeatResult a = fixture.consumerGroupJoin(GROUP, "a", "i-a", TOPIC);
        fixture.consumerGroupJoin(GROUP, "b", null, TOPIC);

        HeartbeatResult c = fixture.consumerGroupJoin(GROUP, "c", null, TOPIC);
        JoinResult classic = fixture.coordinator.join(classicJoin("", null)).join();

        assertThat(c.error()).isEqualTo(Errors.GROUP_MAX_SIZE_REACHED);
        assertThat(c.errorMessage()).isEqualTo("The consumer group has reached its maximum capacity of 2 members.");
        assertThat(classic.error()).isEqualTo(Errors.GROUP_MAX_SIZE_REACHED);
        assertThat(fixture.consumerGroupHeartbeat(GROUP, "x", null, 3, null).error())
                .as("an unknown member of a full group, as Kafka answers")
                .isEqualTo(Errors.GROUP_MAX_SIZE_REACHED);
        assertThat(consumerGroupMembers()).containsExactlyInAnyOrder("a", "b");
        assertThat(fixture.consumerGroupHeartbeat(GROUP, "a", null, a.memberEpoch(), null).error()).isEqualTo(Errors.NONE);

        assertThat(fixture.consumerGroupHeartbeat(GROUP, "a", "i-a", -2, null).error()).as("a leaves for a while").isEqualTo(Errors.NONE);
        HeartbeatResult back = fixture.consumerGroupJoin(GROUP, "a2", "i-a", TOPIC);
        assertThat(back.error()).as("its instance comes back under a new member id").isEqualTo(Errors.NONE);
        assertThat(consumerGroupMembers()).containsExactlyInAnyOrder("a2", "b");
    }

    // ---- migration between the protocols

    @Test
    void aClassicGroupLargerThanTheConsumerGroupLimitIsNotUpgraded() {
        open(Integer.MAX_VALUE, 1);
        stableClassicGroup(List.of(joinNew(), joinNew()));

        HeartbeatResult tooLarge = fixture.consumerGroupJoin(GROUP, "c", null, TOPIC);

        assertThat(tooLarge.error()).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        assertThat(tooLarge.errorMessage()).isEqualTo(
                "Cannot upgrade classic group g to consumer group because the group size exceeds the consumer group maximum size.");
        assertThat(fixture.coordinator.describe(GROUP).orElseThrow().members()).as("still classic").hasSize(2);
    }

    @Test
    void aClassicGroupAtTheConsumerGroupLimitIsNotUpgradedByOneMoreMember() {
        open(Integer.MAX_VALUE, 2);
        List<JoinResult> members = stableClassicGroup(List.of(joinNew(), joinNew()));

        HeartbeatResult full = fixture.consumerGroupJoin(GROUP, "c", null, TOPIC);

        assertThat(full.error()).isEqualTo(Errors.GROUP_MAX_SIZE_REACHED);
        GroupDescription classic = fixture.coordinator.describe(GROUP).orElseThrow();
        assertThat(classic.state()).as("the group stays as it was").isEqualTo(GroupState.STABLE);
        assertThat(classic.members()).hasSize(2);
        assertThat(fixture.coordinator.heartbeat(GROUP, members.get(0).memberId(), null, members.get(0).generationId()))
                .isEqualTo(Errors.NONE);
    }

    @Test
    void aConsumerGroupWithMoreClassicMembersThanTheClassicLimitStaysAConsumerGroup() {
        open(1, Integer.MAX_VALUE);
        fixture.consumerGroupJoin(GROUP, "c", "i-c", TOPIC);
        joinNew().join();
        joinNew().join();
        assertThat(consumerGroupMembers()).hasSize(3);

        assertThat(fixture.consumerGroupHeartbeat(GROUP, "c", null, -1, null).error()).isEqualTo(Errors.NONE);

        assertThat(fixture.coordinator.describe(GROUP)).as("two classic members would be over group.max.size").isEmpty();
        assertThat(consumerGroupMembers()).hasSize(2);
    }

    @Test
    void aClassicMemberReplacingTheLastConsumerProtocolMemberKeepsTheConsumerGroupIfTheClassicLimitIsSmaller() {
        open(1, Integer.MAX_VALUE);
        fixture.consumerGroupJoin(GROUP, "c", "i-c", TOPIC);
        joinNew().join();

        JoinResult replacing = fixture.coordinator.join(classicJoin("", "i-c")).join();

        assertThat(replacing.error()).isEqualTo(Errors.NONE);
        assertThat(fixture.coordinator.describe(GROUP)).as("two members would be over group.max.size").isEmpty();
        assertThat(consumerGroupMembers()).hasSize(2).contains(replacing.memberId());
    }
}

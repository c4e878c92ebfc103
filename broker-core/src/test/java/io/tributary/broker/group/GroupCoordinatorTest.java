package io.tributary.broker.group;

import static io.tributary.broker.group.GroupFixture.INITIAL_DELAY_MS;
import static io.tributary.broker.group.GroupFixture.REBALANCE_TIMEOUT_MS;
import static io.tributary.broker.group.GroupFixture.SESSION_TIMEOUT_MS;
import static io.tributary.broker.group.GroupFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The classic group protocol on a fake clock: joins, rebalances, deadlines, fencing, static members. */
@Timeout(60)
class GroupCoordinatorTest {
    private static final String GROUP = "g";

    @TempDir
    Path dir;
    private GroupFixture fixture;

    @BeforeEach
    void open() {
        fixture = new GroupFixture(dir);
    }

    @AfterEach
    void close() {
        fixture.close();
    }

    /** JoinGroup v4+: the first attempt only hands out a member id; the second joins with it. */
    private CompletableFuture<JoinResult> joinNew(String... protocols) {
        return fixture.joinNew(memberId -> join(GROUP, memberId, null, protocols));
    }

    private SyncResult syncAsLeader(JoinResult leader, Map<String, byte[]> assignments) {
        return fixture.coordinator.sync(new SyncRequest(GROUP, leader.generationId(), leader.memberId(), null,
                "consumer", leader.protocolName(), assignments)).join();
    }

    private JoinResult stableGroupOfOne() {
        CompletableFuture<JoinResult> joined = joinNew("range");
        fixture.advance(INITIAL_DELAY_MS);
        JoinResult result = joined.join();
        syncAsLeader(result, Map.of(result.memberId(), new byte[]{1}));
        return result;
    }

    @Test
    void firstRebalanceWaitsForTheInitialDelayAndGivesTheLeaderAllMembers() {
        CompletableFuture<JoinResult> first = joinNew("range", "roundrobin");
        fixture.advance(INITIAL_DELAY_MS - 1);
        CompletableFuture<JoinResult> second = joinNew("roundrobin", "range");
        assertThat(first).isNotDone();

        fixture.advance(1); // the delay is extended once because a member arrived during it
        assertThat(first).isNotDone();
        fixture.advance(INITIAL_DELAY_MS);

        JoinResult leader = first.join();
        JoinResult follower = second.join();
        assertThat(leader.error()).isEqualTo(Errors.NONE);
        assertThat(leader.generationId()).isEqualTo(1).isEqualTo(follower.generationId());
        assertThat(leader.leaderId()).isEqualTo(leader.memberId()).isEqualTo(follower.leaderId());
        assertThat(List.of(leader.memberId(), follower.memberId())).allMatch(id -> id.startsWith("client-"), "ids from the client id");
        assertThat(leader.protocolName()).isIn("range", "roundrobin").isEqualTo(follower.protocolName());
        assertThat(leader.members()).extracting(JoinResult.JoinedMember::memberId)
                .containsExactly(leader.memberId(), follower.memberId());
        assertThat(follower.members()).isEmpty();
    }

    @Test
    void followersGetTheAssignmentTheLeaderSends() {
        CompletableFuture<JoinResult> first = joinNew("range");
        CompletableFuture<JoinResult> second = joinNew("range");
        fixture.advance(2 * INITIAL_DELAY_MS);
        JoinResult leader = first.join();
        JoinResult follower = second.join();

        CompletableFuture<SyncResult> followerSync = fixture.coordinator.sync(new SyncRequest(GROUP,
                follower.generationId(), follower.memberId(), null, null, null, Map.of()));
        assertThat(followerSync).isNotDone();
        SyncResult leaderSync = syncAsLeader(leader, Map.of(leader.memberId(), new byte[]{1}, follower.memberId(), new byte[]{2}));

        assertThat(leaderSync.assignment()).containsExactly(1);
        assertThat(followerSync.join().error()).isEqualTo(Errors.NONE);
        assertThat(followerSync.join().assignment()).containsExactly(2);
        assertThat(fixture.coordinator.describe(GROUP).orElseThrow().state()).isEqualTo(GroupState.STABLE);
    }

    @Test
    void aCommitFromAnOldGenerationIsFenced() {
        JoinResult first = stableGroupOfOne();
        CompletableFuture<JoinResult> secondJoin = joinNew("range");
        CompletableFuture<JoinResult> rejoin = fixture.coordinator.join(join(GROUP, first.memberId(), null, "range"));
        JoinResult second = secondJoin.join();
        assertThat(rejoin.join().generationId()).isEqualTo(2).isEqualTo(second.generationId());

        TopicPartition partition = new TopicPartition("t", 0);
        Map<TopicPartition, Errors> stale = fixture.offsets.commit(new OffsetCommit(GROUP, first.memberId(), null,
                first.generationId(), Map.of(partition, new OffsetCommit.Position(5, -1, null)))).join();
        assertThat(stale).containsEntry(partition, Errors.ILLEGAL_GENERATION);
        assertThat(fixture.coordinator.heartbeat(GROUP, first.memberId(), null, first.generationId()))
                .isEqualTo(Errors.ILLEGAL_GENERATION);

        syncAsLeader(rejoin.join(), Map.of());
        Map<TopicPartition, Errors> current = fixture.offsets.commit(new OffsetCommit(GROUP, second.memberId(), null,
                second.generationId(), Map.of(partition, new OffsetCommit.Position(7, -1, "meta")))).join();
        assertThat(current).containsEntry(partition, Errors.NONE);
        assertThat(fixture.offsets.fetch(GROUP, java.util.Optional.empty()).get(partition).offset()).isEqualTo(7);
        assertThat(fixture.offsets.commit(new OffsetCommit(GROUP, "stranger", null, second.generationId(),
                Map.of(partition, new OffsetCommit.Position(9, -1, null)))).join()).containsEntry(partition, Errors.UNKNOWN_MEMBER_ID);
    }

    @Test
    void aHeartbeatOfAnotherGenerationIsIllegalEvenWhileTheGroupRebalances() {
        JoinResult first = stableGroupOfOne();
        CompletableFuture<JoinResult> second = joinNew("range");
        assertThat(second).as("the group rebalances").isNotDone();

        assertThat(fixture.coordinator.heartbeat(GROUP, first.memberId(), null, first.generationId()))
                .isEqualTo(Errors.REBALANCE_IN_PROGRESS);
        assertThat(fixture.coordinator.heartbeat(GROUP, first.memberId(), null, first.generationId() - 1))
                .as("Kafka checks the generation first").isEqualTo(Errors.ILLEGAL_GENERATION);
    }

    @Test
    void aSessionEndsAtItsDeadlineWhichTheCoordinatorAnnouncesWhenItIsSet() {
        JoinResult member = stableGroupOfOne();
        fixture.time.sleep(1_234);
        long heartbeatAt = fixture.time.milliseconds();
        assertThat(fixture.coordinator.heartbeat(GROUP, member.memberId(), null, member.generationId())).isEqualTo(Errors.NONE);
        assertThat(fixture.deadlinesSet).contains(heartbeatAt + SESSION_TIMEOUT_MS);
        assertThat(fixture.coordinator.checkDeadlines()).isEqualTo(heartbeatAt + SESSION_TIMEOUT_MS);

        fixture.time.sleep(SESSION_TIMEOUT_MS - 1);
        assertThat(fixture.coordinator.checkDeadlines()).isEqualTo(heartbeatAt + SESSION_TIMEOUT_MS);
        assertThat(fixture.coordinator.describe(GROUP).orElseThrow().members()).hasSize(1);
        fixture.time.sleep(1);
        assertThat(fixture.coordinator.checkDeadlines()).isEqualTo(Long.MAX_VALUE);
        assertThat(fixture.coordinator.describe(GROUP).orElseThrow().state()).isEqualTo(GroupState.EMPTY);
    }

    @Test
    void aMemberThatStopsHeartbeatingIsRemovedAfterTheSessionTimeout() {
        CompletableFuture<JoinResult> firstJoin = joinNew("range");
        CompletableFuture<JoinResult> secondJoin = joinNew("range");
        fixture.advance(2 * INITIAL_DELAY_MS);
        JoinResult leader = firstJoin.join();
        JoinResult silent = secondJoin.join();
        syncAsLeader(leader, Map.of());
        fixture.coordinator.sync(new SyncRequest(GROUP, silent.generationId(), silent.memberId(), null, null, null, Map.of()));

        for (int elapsed = 0; elapsed < SESSION_TIMEOUT_MS; elapsed += 1_000) {
            fixture.advance(1_000);
            if (elapsed + 1_000 < SESSION_TIMEOUT_MS) {
                assertThat(fixture.coordinator.heartbeat(GROUP, leader.memberId(), null, leader.generationId()))
                        .isEqualTo(Errors.NONE);
            }
        }

        assertThat(fixture.coordinator.heartbeat(GROUP, leader.memberId(), null, leader.generationId()))
                .isEqualTo(Errors.REBALANCE_IN_PROGRESS);
        assertThat(fixture.coordinator.heartbeat(GROUP, silent.memberId(), null, silent.generationId()))
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        JoinResult rejoined = fixture.coordinator.join(join(GROUP, leader.memberId(), null, "range")).join();
        assertThat(rejoined.generationId()).isEqualTo(2);
        assertThat(rejoined.members()).extracting(JoinResult.JoinedMember::memberId).containsExactly(leader.memberId());
    }

    @Test
    void aRebalanceStopsWaitingForMembersThatDoNotRejoinWithinTheRebalanceTimeout() {
        CompletableFuture<JoinResult> firstJoin = joinNew("range");
        CompletableFuture<JoinResult> secondJoin = joinNew("range");
        fixture.advance(2 * INITIAL_DELAY_MS);
        JoinResult first = firstJoin.join();
        JoinResult second = secondJoin.join();
        syncAsLeader(first, Map.of());

        CompletableFuture<JoinResult> rejoin = fixture.coordinator.join(join(GROUP, first.memberId(), null, "range"));
        for (int elapsed = 0; elapsed < REBALANCE_TIMEOUT_MS - 1_000; elapsed += 1_000) {
            fixture.advance(1_000);
            assertThat(fixture.coordinator.heartbeat(GROUP, second.memberId(), null, second.generationId()))
                    .isEqualTo(Errors.REBALANCE_IN_PROGRESS); // alive, but does not rejoin
        }
        assertThat(rejoin).isNotDone();
        fixture.advance(1_000);

        assertThat(rejoin.join().generationId()).isEqualTo(2);
        assertThat(rejoin.join().members()).extracting(JoinResult.JoinedMember::memberId).containsExactly(first.memberId());
        assertThat(fixture.coordinator.heartbeat(GROUP, second.memberId(), null, second.generationId()))
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID);
    }

    @Test
    void aRestartedStaticFollowerKeepsItsAssignmentAndFencesItsOldMemberId() {
        CompletableFuture<JoinResult> leaderJoin = joinNew("range");
        CompletableFuture<JoinResult> staticJoin = fixture.coordinator.join(join(GROUP, "", "instance-1", "range"));
        fixture.advance(2 * INITIAL_DELAY_MS);
        JoinResult leader = leaderJoin.join();
        JoinResult before = staticJoin.join();
        syncAsLeader(leader, Map.of(leader.memberId(), new byte[]{1}, before.memberId(), new byte[]{2}));

        JoinResult after = fixture.coordinator.join(join(GROUP, "", "instance-1", "range")).join();

        assertThat(after.error()).isEqualTo(Errors.NONE);
        assertThat(after.memberId()).isNotEqualTo(before.memberId());
        assertThat(after.generationId()).isEqualTo(before.generationId());
        SyncResult sync = fixture.coordinator.sync(new SyncRequest(GROUP, after.generationId(), after.memberId(),
                "instance-1", null, null, Map.of())).join();
        assertThat(sync.assignment()).containsExactly(2);
        assertThat(fixture.coordinator.heartbeat(GROUP, before.memberId(), "instance-1", before.generationId()))
                .isEqualTo(Errors.FENCED_INSTANCE_ID);
        assertThat(fixture.coordinator.describe(GROUP).orElseThrow().state()).isEqualTo(GroupState.STABLE);
    }

    @Test
    void membersThatLeaveTriggerARebalanceAndTheLastOneEmptiesTheGroup() {
        JoinResult only = stableGroupOfOne();
        LeaveResult left = fixture.coordinator.leave(GROUP, List.of(new MemberIdentity(only.memberId(), null))).join();
        assertThat(left.members()).extracting(LeaveResult.MemberLeft::error).containsExactly(Errors.NONE);
        assertThat(fixture.coordinator.describe(GROUP).orElseThrow().state()).isEqualTo(GroupState.EMPTY);
        assertThat(fixture.coordinator.leave(GROUP, List.of(new MemberIdentity(only.memberId(), null))).join().members())
                .extracting(LeaveResult.MemberLeft::error).containsExactly(Errors.UNKNOWN_MEMBER_ID);
    }

    @Test
    void aMemberWithAnIncompatibleProtocolIsRejected() {
        stableGroupOfOne();
        JoinResult rejected = fixture.coordinator.join(join(GROUP, "", null, "roundrobin")).join();
        assertThat(rejected.error()).isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL);
    }

    @Test
    void sessionTimeoutsOutsideTheBrokerRangeAreRejected() {
        JoinRequest tooShort = new JoinRequest(GROUP, "", null, "client", "", 10, 1000, "consumer",
                List.of(new Protocol("range", new byte[0])), true);
        assertThat(fixture.coordinator.join(tooShort).join().error()).isEqualTo(Errors.INVALID_SESSION_TIMEOUT);
    }
}

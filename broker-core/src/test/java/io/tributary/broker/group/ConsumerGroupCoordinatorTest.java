package io.tributary.broker.group;

import static io.tributary.broker.group.GroupFixture.CONSUMER_HEARTBEAT_INTERVAL_MS;
import static io.tributary.broker.group.GroupFixture.CONSUMER_SESSION_TIMEOUT_MS;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.group.consumer.ConsumerGroupState;
import io.tributary.broker.group.consumer.ConsumerHeartbeat;
import io.tributary.broker.group.consumer.HeartbeatResult;
import io.tributary.broker.group.consumer.Partitions;
import io.tributary.broker.group.consumer.SubscribableTopics.Topic;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The KIP-848 state machine on the fake clock: epochs, server-side assignment, incremental
 * revocation, sessions, static members, regex subscriptions, group-type conversion, member-epoch
 * checks of commits, and a restart that rebuilds the group from __consumer_offsets.
 */
class ConsumerGroupCoordinatorTest {
    private static final String GROUP = "g";
    private static final int REBALANCE_TIMEOUT_MS = 30_000;

    @TempDir
    Path dir;
    private GroupFixture fixture;
    private Topic topic;

    @BeforeEach
    void open() {
        fixture = new GroupFixture(dir);
        topic = fixture.topics.create("t", 6);
    }

    @AfterEach
    void close() {
        fixture.close();
    }

    private ConsumerGroupCoordinator.Description describe() {
        return fixture.consumerGroups.describe(GROUP).orElseThrow();
    }

    /** Heartbeats (reporting what each owns) until every member is at the target epoch with nothing to revoke. */
    private Map<String, HeartbeatResult> settle(Map<String, HeartbeatResult> members) {
        Map<String, HeartbeatResult> latest = new HashMap<>(members);
        for (int round = 0; round < 5; round++) {
            latest.replaceAll((memberId, last) -> {
                HeartbeatResult next = fixture.consumerGroupHeartbeat(GROUP, memberId, null, last.memberEpoch(), last.assignment());
                assertThat(next.error()).as(memberId).isEqualTo(Errors.NONE);
                return next.assignment() == null ? new HeartbeatResult(next.error(), null, next.memberId(), next.memberEpoch(),
                        next.heartbeatIntervalMs(), last.assignment()) : next;
            });
        }
        assertThat(describe().state()).isEqualTo(ConsumerGroupState.STABLE);
        return latest;
    }

    @Test
    void theFirstMemberGetsEveryPartitionAtEpochOne() {
        HeartbeatResult a = fixture.consumerGroupJoin(GROUP, "a", null, "t");

        assertThat(a.error()).isEqualTo(Errors.NONE);
        assertThat(a.memberEpoch()).isEqualTo(1);
        assertThat(a.heartbeatIntervalMs()).isEqualTo(CONSUMER_HEARTBEAT_INTERVAL_MS);
        assertThat(a.assignment()).isEqualTo(Map.of(topic.id(), Set.of(0, 1, 2, 3, 4, 5)));
        ConsumerGroupCoordinator.Description group = describe();
        assertThat(group.state()).isEqualTo(ConsumerGroupState.STABLE);
        assertThat(group.groupEpoch()).isEqualTo(1);
        assertThat(group.assignmentEpoch()).isEqualTo(1);
        assertThat(group.assignorName()).isEqualTo("uniform");
        assertThat(fixture.coordinator.listGroups()).containsExactly(
                new GroupListing(GROUP, "consumer", "Stable", GroupListing.CONSUMER));
    }

    @Test
    void aPartitionGoesToItsNewOwnerOnlyAfterTheOldOneRevokedIt() {
        HeartbeatResult a = fixture.consumerGroupJoin(GROUP, "a", null, "t");
        HeartbeatResult b = fixture.consumerGroupJoin(GROUP, "b", null, "t");
        assertThat(b.memberEpoch()).as("b is at the new epoch at once").isEqualTo(2);
        assertThat(b.assignment()).as("but all its target partitions are still a's").isEmpty();
        assertThat(describe().state()).isEqualTo(ConsumerGroupState.RECONCILING);

        HeartbeatResult revoking = fixture.consumerGroupHeartbeat(GROUP, "a", null, a.memberEpoch(), a.assignment());
        assertThat(revoking.memberEpoch()).as("a stays at its epoch until it revoked").isEqualTo(1);
        Map<Uuid, Set<Integer>> kept = revoking.assignment();
        assertThat(Partitions.count(kept)).isEqualTo(3);
        assertThat(fixture.consumerGroupHeartbeat(GROUP, "b", null, 2, Map.of()).assignment()).as("nothing free yet").isEmpty();

        HeartbeatResult revoked = fixture.consumerGroupHeartbeat(GROUP, "a", null, 1, kept);
        assertThat(revoked.memberEpoch()).isEqualTo(2);
        HeartbeatResult bAssigned = fixture.consumerGroupHeartbeat(GROUP, "b", null, 2, Map.of());
        assertThat(Partitions.count(bAssigned.assignment())).isEqualTo(3);
        assertThat(Partitions.intersection(bAssigned.assignment(), kept)).isEmpty();
        settle(Map.of("a", revoked, "b", bAssigned));
    }

    @Test
    void aMemberThatStopsHeartbeatingIsFencedAfterTheSessionTimeoutAndTheOthersTakeOver() {
        Map<String, HeartbeatResult> members = settle(Map.of("a", fixture.consumerGroupJoin(GROUP, "a", null, "t"),
                "b", fixture.consumerGroupJoin(GROUP, "b", null, "t")));
        HeartbeatResult a = members.get("a");
        long waited = 0;
        while (waited < CONSUMER_SESSION_TIMEOUT_MS - CONSUMER_HEARTBEAT_INTERVAL_MS) {
            fixture.advance(CONSUMER_HEARTBEAT_INTERVAL_MS);
            waited += CONSUMER_HEARTBEAT_INTERVAL_MS;
            a = fixture.consumerGroupHeartbeat(GROUP, "a", null, a.memberEpoch(), a.assignment());
            assertThat(a.error()).isEqualTo(Errors.NONE);
        }
        assertThat(describe().members()).as("b's session has not ended yet").hasSize(2);

        fixture.advance(CONSUMER_HEARTBEAT_INTERVAL_MS + 100);

        assertThat(describe().members()).extracting(ConsumerGroupCoordinator.DescribedMember::memberId).containsExactly("a");
        assertThat(fixture.consumerGroupHeartbeat(GROUP, "b", null, members.get("b").memberEpoch(), null).error())
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        HeartbeatResult all = fixture.consumerGroupHeartbeat(GROUP, "a", null, a.memberEpoch(), a.assignment());
        assertThat(all.assignment()).isEqualTo(Map.of(topic.id(), Set.of(0, 1, 2, 3, 4, 5)));
    }

    @Test
    void aGroupsOwnConfigsSetTheHeartbeatIntervalItsMembersAreToldAndTheSessionTimeoutTheyAreFencedAfter() {
        fixture.groupConfigs.put(GROUP, Map.of("consumer.heartbeat.interval.ms", "7000", "consumer.session.timeout.ms", "50000"));
        Map<String, HeartbeatResult> members = settle(Map.of("a", fixture.consumerGroupJoin(GROUP, "a", null, "t"),
                "b", fixture.consumerGroupJoin(GROUP, "b", null, "t")));
        assertThat(members.values()).allSatisfy(member -> assertThat(member.heartbeatIntervalMs()).isEqualTo(7000));
        HeartbeatResult a = members.get("a");
        for (int waited = 0; waited < 49_000; waited += 7000) {
            fixture.advance(7000);
            a = fixture.consumerGroupHeartbeat(GROUP, "a", null, a.memberEpoch(), a.assignment());
        }
        assertThat(describe().members()).as("past the broker's 45 s, within the group's 50 s").hasSize(2);

        fixture.advance(1100);

        assertThat(describe().members()).extracting(ConsumerGroupCoordinator.DescribedMember::memberId).containsExactly("a");
        fixture.groupConfigs.remove(GROUP);
        assertThat(fixture.consumerGroupHeartbeat(GROUP, "a", null, a.memberEpoch(), null).heartbeatIntervalMs())
                .as("the broker's again").isEqualTo(CONSUMER_HEARTBEAT_INTERVAL_MS);
    }

    @Test
    void aHeartbeatIsAnsweredOnceWhatItWroteIsReplicatedAndOneThatWroteNothingOnceTheGroupsEarlierWritesAre() {
        HeartbeatResult a = settle(Map.of("a", fixture.consumerGroupJoin(GROUP, "a", null, "t"))).get("a");
        List<CompletableFuture<Errors>> unreplicated = fixture.holdReplication();

        CompletableFuture<HeartbeatResult> resubscribed = fixture.consumerGroups.heartbeat(new ConsumerHeartbeat(GROUP, "a",
                a.memberEpoch(), null, null, -1, List.of("t", "u"), null, null, null, "client-a", "/127.0.0.1"));
        CompletableFuture<HeartbeatResult> unchanged = fixture.consumerGroups.heartbeat(new ConsumerHeartbeat(GROUP, "a",
                a.memberEpoch() + 1, null, null, -1, null, null, null, null, "client-a", "/127.0.0.1"));
        assertThat(unreplicated).as("only the subscription change wrote records").hasSize(1);
        assertThat(resubscribed).as("its records are not on the followers yet").isNotDone();
        assertThat(unchanged).as("it would tell the new epoch, which is not replicated yet").isNotDone();

        unreplicated.get(0).complete(Errors.NONE);
        assertThat(resubscribed.join().memberEpoch()).isEqualTo(a.memberEpoch() + 1);
        assertThat(unchanged.join().error()).isEqualTo(Errors.NONE);

        CompletableFuture<HeartbeatResult> timedOut = fixture.consumerGroups.heartbeat(new ConsumerHeartbeat(GROUP, "a",
                a.memberEpoch() + 1, null, null, -1, List.of("t"), null, null, null, "client-a", "/127.0.0.1"));
        unreplicated.get(1).complete(Errors.REQUEST_TIMED_OUT);
        assertThat(timedOut.join().error()).as("the member retries").isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
    }

    @Test
    void aWriteRefusedForWantOfReplicasIsAnsweredCoordinatorNotAvailableAndTheGroupIsWhatItsLogHolds() {
        settle(Map.of("a", fixture.consumerGroupJoin(GROUP, "a", null, "t")));
        int epoch = describe().groupEpoch();
        fixture.replication = (partition, records) -> {
            throw new NotEnoughReplicasException("1 of 2 replicas in sync");
        };

        assertThat(fixture.consumerGroupJoin(GROUP, "b", null, "t").error()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);

        assertThat(describe().members()).extracting(ConsumerGroupCoordinator.DescribedMember::memberId).containsExactly("a");
        assertThat(describe().groupEpoch()).as("b's join was never stored").isEqualTo(epoch);
        fixture.replication = (partition, records) -> {
            fixture.appendLocally(partition, records);
            return CompletableFuture.completedFuture(Errors.NONE);
        };
        assertThat(fixture.consumerGroupJoin(GROUP, "b", null, "t").memberEpoch()).isEqualTo(epoch + 1);
    }

    @Test
    void everySessionAndRevocationDeadlineAsksForTheCheckToRunThen() {
        long joined = fixture.time.milliseconds();
        HeartbeatResult a = fixture.consumerGroupJoin(GROUP, "a", null, "t");
        assertThat(fixture.deadlinesSet).contains(joined + CONSUMER_SESSION_TIMEOUT_MS);
        assertThat(fixture.consumerGroups.checkDeadlines()).isEqualTo(joined + CONSUMER_SESSION_TIMEOUT_MS);

        fixture.time.sleep(1000);
        fixture.consumerGroupJoin(GROUP, "b", null, "t"); // a must now revoke half of its partitions within its rebalance timeout
        fixture.consumerGroupHeartbeat(GROUP, "a", null, a.memberEpoch(), a.assignment());
        long revocation = fixture.time.milliseconds() + REBALANCE_TIMEOUT_MS;
        assertThat(fixture.deadlinesSet).contains(revocation);
        assertThat(fixture.consumerGroups.checkDeadlines()).as("a's revocation comes before any session ends").isEqualTo(revocation);
    }

    @Test
    void aStaticMemberThatLeavesForAWhileComesBackUnderANewIdWithItsPartitions() {
        Map<String, HeartbeatResult> members = settle(Map.of(
                "a", fixture.consumerGroupJoin(GROUP, "a", "instance-a", "t"),
                "b", fixture.consumerGroupJoin(GROUP, "b", "instance-b", "t")));
        int groupEpoch = describe().groupEpoch();

        assertThat(fixture.consumerGroupHeartbeat(GROUP, "a", "instance-a", -2, null).memberEpoch()).isEqualTo(-2);
        HeartbeatResult b = fixture.consumerGroupHeartbeat(GROUP, "b", null, members.get("b").memberEpoch(), members.get("b").assignment());
        assertThat(b.assignment()).as("b gets none of a's partitions").isEqualTo(members.get("b").assignment());
        assertThat(fixture.consumerGroupJoin(GROUP, "x", "instance-b", "t").error())
                .as("an instance id in use").isEqualTo(Errors.UNRELEASED_INSTANCE_ID);

        HeartbeatResult again = fixture.consumerGroupJoin(GROUP, "a2", "instance-a", "t");

        assertThat(again.error()).isEqualTo(Errors.NONE);
        assertThat(again.memberEpoch()).isEqualTo(members.get("a").memberEpoch());
        assertThat(again.assignment()).isEqualTo(members.get("a").assignment());
        assertThat(describe().groupEpoch()).as("no rebalance").isEqualTo(groupEpoch);
        assertThat(fixture.consumerGroupHeartbeat(GROUP, "a", null, members.get("a").memberEpoch(), null).error())
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID);
    }

    @Test
    void theSameTopicsInAnotherOrderAreNoNewSubscription() {
        fixture.topics.create("u", 2);
        HeartbeatResult a = settle(Map.of("a", fixture.consumerGroupJoin(GROUP, "a", null, List.of("t", "u"), null, null))).get("a");
        int groupEpoch = describe().groupEpoch();

        HeartbeatResult reordered = fixture.consumerGroups.heartbeat(new ConsumerHeartbeat(GROUP, "a", a.memberEpoch(), null,
                null, -1, List.of("u", "t"), null, null, a.assignment(), "client-a", "/127.0.0.1")).join();

        assertThat(reordered.error()).isEqualTo(Errors.NONE);
        assertThat(reordered.memberEpoch()).isEqualTo(a.memberEpoch());
        assertThat(describe().groupEpoch()).as("compared as sets, as Kafka does: no rebalance").isEqualTo(groupEpoch);
    }

    @Test
    void aStaticMembersNewIncarnationStartsAtEpochZeroAsInKafkaSoItsPredecessorsEpochIsNotItsPrevious() {
        HeartbeatResult a = fixture.consumerGroupJoin(GROUP, "a", "instance-a", "t");
        assertThat(fixture.consumerGroupHeartbeat(GROUP, "a", "instance-a", -2, null).memberEpoch()).isEqualTo(-2);
        fixture.consumerGroupJoin(GROUP, "b", null, "t");

        HeartbeatResult again = fixture.consumerGroupJoin(GROUP, "a2", "instance-a", "t");

        assertThat(again.memberEpoch()).as("reconciled from 0 to the target epoch at once").isEqualTo(describe().assignmentEpoch());
        assertThat(Partitions.count(again.assignment())).isEqualTo(3);
        assertThat(fixture.consumerGroupHeartbeat(GROUP, "a2", null, a.memberEpoch(), again.assignment()).error())
                .as("its previous epoch is 0, not a's")
                .isEqualTo(Errors.FENCED_MEMBER_EPOCH);
    }

    @Test
    void aStaticMemberThatLeavesForAWhileGivesUpThePartitionsItWasRevoking() {
        HeartbeatResult a = fixture.consumerGroupJoin(GROUP, "a", "instance-a", "t");
        HeartbeatResult b = fixture.consumerGroupJoin(GROUP, "b", null, "t");
        HeartbeatResult revoking = fixture.consumerGroupHeartbeat(GROUP, "a", null, a.memberEpoch(), a.assignment());
        assertThat(Partitions.count(revoking.assignment())).as("a is to give up three").isEqualTo(3);
        assertThat(fixture.consumerGroupHeartbeat(GROUP, "b", null, b.memberEpoch(), Map.of()).assignment()).as("a still owns them")
                .isEmpty();

        assertThat(fixture.consumerGroupHeartbeat(GROUP, "a", "instance-a", -2, null).memberEpoch()).isEqualTo(-2);

        HeartbeatResult bAssigned = fixture.consumerGroupHeartbeat(GROUP, "b", null, b.memberEpoch(), Map.of());
        assertThat(Partitions.count(bAssigned.assignment())).as("as in Kafka, a kept only what it still was to own").isEqualTo(3);
        assertThat(Partitions.intersection(bAssigned.assignment(), revoking.assignment())).isEmpty();
    }

    @Test
    void aRegexSubscriptionFollowsTopicsAsTheyAppear() {
        Topic first = fixture.topics.create("orders-1", 2);
        fixture.topics.create("other", 2);
        HeartbeatResult a = fixture.consumerGroupJoin(GROUP, "a", null, List.of(), "orders-.*", null);
        assertThat(a.assignment()).isEqualTo(Map.of(first.id(), Set.of(0, 1)));

        Topic second = fixture.topics.create("orders-2", 1);
        fixture.advance(100);
        HeartbeatResult next = fixture.consumerGroupHeartbeat(GROUP, "a", null, a.memberEpoch(), a.assignment());

        assertThat(next.memberEpoch()).isGreaterThan(a.memberEpoch());
        assertThat(next.assignment()).isEqualTo(Map.of(first.id(), Set.of(0, 1), second.id(), Set.of(0)));
        assertThat(fixture.consumerGroupJoin(GROUP, "b", null, List.of(), "orders-(", null).error())
                .isEqualTo(Errors.INVALID_REGULAR_EXPRESSION);
    }

    @Test
    void membersMayAskForTheRangeAssignorButNotForAnUnknownOne() {
        fixture.consumerGroupJoin(GROUP, "a", null, List.of("t"), null, "range");
        assertThat(describe().assignorName()).isEqualTo("range");
        assertThat(fixture.consumerGroupJoin(GROUP, "b", null, List.of("t"), null, "sticky").error())
                .isEqualTo(Errors.UNSUPPORTED_ASSIGNOR);
    }

    @Test
    void eachTypeOfGroupIsDescribedByItsOwnApi() {
        assertThat(fixture.consumerGroupJoin(GROUP, "a", null, "t").error()).isEqualTo(Errors.NONE);
        assertThat(fixture.coordinator.describe(GROUP)).as("DescribeGroups does not describe consumer groups").isEmpty();

        assertThat(fixture.consumerGroupHeartbeat(GROUP, "a", null, -1, null).error()).isEqualTo(Errors.NONE);
        assertThat(describe().state()).isEqualTo(ConsumerGroupState.EMPTY);
        fixture.coordinator.join(GroupFixture.join(GROUP, "", null, "range"));
        assertThat(fixture.consumerGroups.describe(GROUP)).as("the empty consumer group became classic").isEmpty();
        assertThat(fixture.coordinator.listGroups()).extracting(GroupListing::type).containsExactly(GroupListing.CLASSIC);
    }

    @Test
    void commitsAreCheckedAgainstTheMembersEpochAndPartitions() {
        HeartbeatResult a = fixture.consumerGroupJoin(GROUP, "a", null, "t");
        TopicPartition owned = new TopicPartition("t", 0);

        assertThat(commit("nobody", 1, owned)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(commit("", -1, owned)).as("an outsider while the group has members").isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(commit("a", a.memberEpoch() + 1, owned)).isEqualTo(Errors.STALE_MEMBER_EPOCH);
        assertThat(commit("a", a.memberEpoch(), owned)).isEqualTo(Errors.NONE);

        HeartbeatResult b = fixture.consumerGroupJoin(GROUP, "b", null, "t");
        HeartbeatResult aRevoking = fixture.consumerGroupHeartbeat(GROUP, "a", null, a.memberEpoch(), a.assignment());
        HeartbeatResult aMoved = fixture.consumerGroupHeartbeat(GROUP, "a", null, a.memberEpoch(), aRevoking.assignment());
        assertThat(aMoved.memberEpoch()).isGreaterThan(a.memberEpoch());
        TopicPartition kept = new TopicPartition("t", aMoved.assignment().get(topic.id()).iterator().next());
        assertThat(commit("a", a.memberEpoch(), kept)).as("a commit sent before the new epoch arrived (KIP-1251)")
                .isEqualTo(Errors.NONE);
        int givenAway = Partitions.difference(a.assignment(), aMoved.assignment()).get(topic.id()).iterator().next();
        assertThat(commit("a", aMoved.memberEpoch(), new TopicPartition("t", givenAway))).as("a partition a gave up")
                .isEqualTo(Errors.STALE_MEMBER_EPOCH);
        HeartbeatResult bAssigned = fixture.consumerGroupHeartbeat(GROUP, "b", null, b.memberEpoch(), Map.of());
        int fresh = bAssigned.assignment().get(topic.id()).iterator().next();
        assertThat(commit("b", bAssigned.memberEpoch(), new TopicPartition("t", fresh))).isEqualTo(Errors.NONE);
    }

    @Test
    void offsetFetchesOfMembersAreCheckedAgainstTheirEpoch() {
        HeartbeatResult a = fixture.consumerGroupJoin(GROUP, "a", null, "t");
        assertThat(fixture.offsets.checkFetcher(GROUP, null, -1)).as("an admin client").isEqualTo(Errors.NONE);
        assertThat(fixture.offsets.checkFetcher(GROUP, "joining", -1)).as("a member before it joined").isEqualTo(Errors.NONE);
        assertThat(fixture.offsets.checkFetcher(GROUP, "a", a.memberEpoch())).isEqualTo(Errors.NONE);
        assertThat(fixture.offsets.checkFetcher(GROUP, "a", a.memberEpoch() - 1)).isEqualTo(Errors.STALE_MEMBER_EPOCH);
        assertThat(fixture.offsets.checkFetcher(GROUP, "nobody", 1)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
    }

    private Errors commit(String memberId, int epoch, TopicPartition partition) {
        return fixture.offsets.commit(new OffsetCommit(GROUP, memberId, null, epoch,
                Map.of(partition, new OffsetCommit.Position(5, -1, null)))).join().get(partition);
    }

    @Test
    void aHeartbeatOrLeaveToAGroupThatIsNoConsumerGroupIsGroupIdNotFoundAsInKafka() {
        assertThat(fixture.consumerGroupHeartbeat(GROUP, "a", null, 1, null))
                .extracting(HeartbeatResult::error, HeartbeatResult::errorMessage)
                .containsExactly(Errors.GROUP_ID_NOT_FOUND, "Consumer group g not found.");
        assertThat(fixture.consumerGroupHeartbeat(GROUP, "a", null, -1, null))
                .extracting(HeartbeatResult::error, HeartbeatResult::errorMessage)
                .containsExactly(Errors.GROUP_ID_NOT_FOUND, "Group g not found.");
        TopicPartition partition = new TopicPartition("t", 0);
        fixture.offsets.commit(new OffsetCommit(GROUP, "", null, -1, Map.of(partition, new OffsetCommit.Position(1, -1, null)))).join();

        assertThat(List.of(fixture.consumerGroupHeartbeat(GROUP, "a", null, 1, null),
                fixture.consumerGroupHeartbeat(GROUP, "a", "i-a", -2, null))).as("an empty classic group (of committed offsets)")
                .allSatisfy(answer -> assertThat(answer).extracting(HeartbeatResult::error, HeartbeatResult::errorMessage)
                        .containsExactly(Errors.GROUP_ID_NOT_FOUND, "Group g is not a consumer group."));
        assertThat(fixture.consumerGroups.describe(GROUP)).isEmpty();
    }

    @Test
    void aRestartedCoordinatorRebuildsTheGroupFromItsRecords() {
        Map<String, HeartbeatResult> members = settle(Map.of("a", fixture.consumerGroupJoin(GROUP, "a", "instance-a", "t"),
                "b", fixture.consumerGroupJoin(GROUP, "b", null, "t")));
        ConsumerGroupCoordinator.Description before = describe();

        fixture.reopen();

        ConsumerGroupCoordinator.Description after = describe();
        assertThat(after).isEqualTo(before);
        HeartbeatResult a = fixture.consumerGroupHeartbeat(GROUP, "a", null, members.get("a").memberEpoch(), members.get("a").assignment());
        assertThat(a.error()).isEqualTo(Errors.NONE);
        assertThat(a.memberEpoch()).isEqualTo(members.get("a").memberEpoch());
        assertThat(commit("a", a.memberEpoch(), new TopicPartition("t",
                members.get("a").assignment().get(topic.id()).iterator().next()))).isEqualTo(Errors.NONE);
    }
}

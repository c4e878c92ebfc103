package io.tributary.broker.group;

import static io.tributary.broker.group.GroupFixture.INITIAL_DELAY_MS;
import static io.tributary.broker.group.GroupFixture.RETENTION_MS;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.group.consumer.HeartbeatResult;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Committed offsets over a real offsets topic on a fake clock: durability, expiry and deletion. */
@Timeout(60)
class OffsetManagerTest {
    private static final TopicPartition T0 = new TopicPartition("t", 0);
    private static final TopicPartition T1 = new TopicPartition("t", 1);

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

    private Map<TopicPartition, Errors> commit(String group, TopicPartition partition, long offset) {
        return fixture.offsets.commit(new OffsetCommit(group, "", null, -1,
                Map.of(partition, new OffsetCommit.Position(offset, 3, "m-" + offset)))).join();
    }

    private Map<TopicPartition, CommittedOffset> fetchAll(String group) {
        return fixture.offsets.fetch(group, Optional.empty());
    }

    @Test
    void theLatestCommitOfEveryGroupSurvivesARestart() {
        for (int i = 0; i < 50; i++) {
            assertThat(commit("group-" + (i % 5), i % 2 == 0 ? T0 : T1, i)).containsValue(Errors.NONE);
        }

        fixture.reopen();

        assertThat(fetchAll("group-0")).containsOnlyKeys(T0, T1);
        assertThat(fetchAll("group-0").get(T0).offset()).isEqualTo(40);
        assertThat(fetchAll("group-0").get(T1).offset()).isEqualTo(45);
        assertThat(fetchAll("group-3").get(T1).offset()).isEqualTo(43);
        assertThat(fetchAll("group-3").get(T1).metadata()).isEqualTo("m-43");
        assertThat(fetchAll("group-3").get(T1).leaderEpoch()).isEqualTo(3);
        assertThat(fixture.coordinator.listGroups()).extracting(GroupListing::groupId)
                .containsExactly("group-0", "group-1", "group-2", "group-3", "group-4");
    }

    @Test
    void offsetsOfAnEmptyGroupExpireAfterTheRetentionAndStayGoneAfterARestart() {
        commit("old", T0, 5);
        fixture.time.sleep(RETENTION_MS / 2);
        commit("young", T0, 6);
        fixture.time.sleep(RETENTION_MS / 2 - 1);
        assertThat(fixture.offsets.expireOffsets()).isZero();

        fixture.time.sleep(1);
        assertThat(fixture.offsets.expireOffsets()).isEqualTo(1);

        assertThat(fetchAll("old")).isEmpty();
        assertThat(fetchAll("young")).containsOnlyKeys(T0);
        assertThat(fixture.coordinator.listGroups()).extracting(GroupListing::groupId).containsExactly("young");
        fixture.reopen();
        assertThat(fetchAll("old")).isEmpty();
        assertThat(fetchAll("young").get(T0).offset()).isEqualTo(6);
    }

    @Test
    void anEmptyConsumerGroupWhoseOffsetsExpireIsDeletedWithItsRecordsAndDoesNotComeBack() {
        fixture.topics.create("t", 2);
        HeartbeatResult member = fixture.consumerGroupJoin("cg", "c", null, "t");
        assertThat(fixture.offsets.commit(new OffsetCommit("cg", "c", null, member.memberEpoch(),
                Map.of(T0, new OffsetCommit.Position(7, -1, null)))).join()).containsEntry(T0, Errors.NONE);
        assertThat(fixture.consumerGroupHeartbeat("cg", "c", null, -1, null).error()).isEqualTo(Errors.NONE);

        fixture.time.sleep(RETENTION_MS);
        assertThat(fixture.offsets.expireOffsets()).isEqualTo(1);
        assertThat(fixture.coordinator.listGroups()).isEmpty();

        fixture.reopen();
        assertThat(fixture.coordinator.listGroups()).as("as Kafka, the group's records were deleted with it").isEmpty();
        assertThat(fetchAll("cg")).isEmpty();
    }

    @Test
    void anEmptyClassicGroupWhoseOffsetsExpireIsDeletedWithItsRecordAndDoesNotComeBack() {
        CompletableFuture<JoinResult> joining = fixture.joinNew(memberId -> GroupFixture.consumerJoin("classic", memberId, null, "t"));
        fixture.advance(INITIAL_DELAY_MS);
        JoinResult member = joining.join();
        fixture.coordinator.leave("classic", List.of(new MemberIdentity(member.memberId(), null))).join();
        commit("classic", T0, 7);
        assertThat(fixture.store.load(fixture.store.partitionFor("classic")).classicGroups()).as("its empty generation's record")
                .containsKey("classic");

        fixture.time.sleep(RETENTION_MS);
        assertThat(fixture.offsets.expireOffsets()).isEqualTo(1);

        fixture.reopen();
        assertThat(fixture.coordinator.listGroups()).isEmpty();
    }

    @Test
    void aGroupWhoseFirstCommitIsInFlightIsNotRemovedAsEmptyByTheExpiry() {
        List<CompletableFuture<Errors>> unreplicated = fixture.holdReplication();
        CompletableFuture<Map<TopicPartition, Errors>> committing = fixture.offsets.commit(new OffsetCommit("fresh", "", null, -1,
                Map.of(T0, new OffsetCommit.Position(3, -1, null))));

        fixture.offsets.expireOffsets();
        unreplicated.forEach(write -> write.complete(Errors.NONE));

        assertThat(committing.join()).containsEntry(T0, Errors.NONE);
        assertThat(fetchAll("fresh")).containsOnlyKeys(T0);
        fixture.reopen();
        assertThat(fetchAll("fresh")).containsOnlyKeys(T0);
    }

    @Test
    void metadataLargerThanTheLimitIsRefusedAndNothingIsStored() {
        Map<TopicPartition, Errors> result = fixture.offsets.commit(new OffsetCommit("g", "", null, -1,
                Map.of(T0, new OffsetCommit.Position(1, -1, "x".repeat(GroupFixture.CONFIG.offsetMetadataMaxBytes() + 1))))).join();
        assertThat(result).containsEntry(T0, Errors.OFFSET_METADATA_TOO_LARGE);
        assertThat(fetchAll("g")).isEmpty();
    }

    @Test
    void deletingAGroupOrSomeOfItsOffsetsIsDurable() {
        commit("doomed", T0, 1);
        commit("trimmed", T0, 2);
        commit("trimmed", T1, 3);

        assertThat(fixture.offsets.deleteGroups(List.of("doomed", "unknown")).join())
                .containsEntry("doomed", Errors.NONE).containsEntry("unknown", Errors.GROUP_ID_NOT_FOUND);
        OffsetManager.DeleteResult trimmed = fixture.offsets.deleteOffsets("trimmed", List.of(T0)).join();
        assertThat(trimmed.error()).isEqualTo(Errors.NONE);
        assertThat(trimmed.partitions()).containsEntry(T0, Errors.NONE);

        fixture.reopen();
        assertThat(fetchAll("doomed")).isEmpty();
        assertThat(fetchAll("trimmed")).containsOnlyKeys(T1);
    }

    @Test
    void aGroupDeletionIsAnsweredOnceItsTombstonesAreReplicatedAndOneLostInAFailoverLeavesTheGroupAsTheClientIsTold() {
        commit("doomed", T0, 1);
        List<CompletableFuture<Errors>> unreplicated = fixture.holdReplication();

        CompletableFuture<Map<String, Errors>> deleted = fixture.offsets.deleteGroups(List.of("doomed"));
        CompletableFuture<Map<String, Errors>> again = fixture.offsets.deleteGroups(List.of("doomed"));

        assertThat(unreplicated).as("its offsets and records in one batch").hasSize(1);
        assertThat(deleted).as("its tombstones are not on the followers yet").isNotDone();
        assertThat(again).as("gone here, but not for good yet").isNotDone();
        assertThat(fixture.coordinator.listGroups()).as("deleted here once appended").isEmpty();
        unreplicated.get(0).complete(Errors.NOT_LEADER_OR_FOLLOWER);
        assertThat(deleted.join()).as("the client asks the new coordinator").containsEntry("doomed", Errors.NOT_COORDINATOR);
        assertThat(again.join()).containsEntry("doomed", Errors.NOT_COORDINATOR);

        fixture.failover();
        assertThat(fetchAll("doomed")).as("the new coordinator has the group, as the client was told").containsOnlyKeys(T0);
        unreplicated = fixture.holdReplication();
        CompletableFuture<Map<String, Errors>> retried = fixture.offsets.deleteGroups(List.of("doomed"));
        assertThat(retried).isNotDone();
        unreplicated.get(0).complete(Errors.NONE);
        assertThat(retried.join()).containsEntry("doomed", Errors.NONE);
        fixture.failover();
        assertThat(fetchAll("doomed")).isEmpty();
        assertThat(fixture.coordinator.listGroups()).isEmpty();
    }

    @Test
    void aGroupDeletionRefusedBeforeAnythingIsAppendedLeavesTheGroupAsItWas() {
        commit("kept", T0, 1);
        fixture.replication = (partition, records) -> {
            throw new NotEnoughReplicasException("1 of 2 replicas in sync");
        };

        assertThat(fixture.offsets.deleteGroups(List.of("kept")).join()).containsEntry("kept", Errors.COORDINATOR_NOT_AVAILABLE);
        assertThat(fixture.offsets.deleteOffsets("kept", List.of(T0)).join().error()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);

        assertThat(fetchAll("kept")).containsOnlyKeys(T0);
        assertThat(fixture.coordinator.listGroups()).extracting(GroupListing::groupId).containsExactly("kept");
    }

    @Test
    void anOffsetDeletionIsAnsweredOnceReplicatedAndOneLostInAFailoverLeavesTheOffset() {
        commit("trimmed", T0, 2);
        List<CompletableFuture<Errors>> unreplicated = fixture.holdReplication();

        CompletableFuture<OffsetManager.DeleteResult> trimmed = fixture.offsets.deleteOffsets("trimmed", List.of(T0));
        assertThat(trimmed).isNotDone();
        assertThat(fetchAll("trimmed")).as("deleted here once appended").isEmpty();
        unreplicated.get(0).complete(Errors.NOT_LEADER_OR_FOLLOWER);
        assertThat(trimmed.join().error()).isEqualTo(Errors.NOT_COORDINATOR);
        fixture.failover();

        assertThat(fetchAll("trimmed")).containsOnlyKeys(T0);
    }

    @Test
    void aCommitInFlightWhenItsGroupIsDeletedIsDeletedWithIt() {
        List<CompletableFuture<Errors>> unreplicated = fixture.holdReplication();
        CompletableFuture<Map<TopicPartition, Errors>> committing = fixture.offsets.commit(new OffsetCommit("g", "", null, -1,
                Map.of(T1, new OffsetCommit.Position(5, -1, null))));

        CompletableFuture<Map<String, Errors>> deleted = fixture.offsets.deleteGroups(List.of("g"));
        unreplicated.forEach(write -> write.complete(Errors.NONE));
        assertThat(committing.join()).containsEntry(T1, Errors.NONE);
        assertThat(deleted.join()).containsEntry("g", Errors.NONE);

        assertThat(fetchAll("g")).isEmpty();
        fixture.reopen();
        assertThat(fetchAll("g")).as("the group does not come back with the commit").isEmpty();
    }

    /**
     * The rule: a deletion takes effect when its tombstones are appended; what comes while they are in flight sees the
     * group gone and starts a new one, written after them.
     */
    @Test
    void requestsWhileAGroupsTombstonesAreInFlightStartANewGroupThatOutlivesTheDeletion() {
        fixture.topics.create("t", 2);
        commit("g", T0, 1);
        List<CompletableFuture<Errors>> unreplicated = fixture.holdReplication();
        CompletableFuture<Map<String, Errors>> deleted = fixture.offsets.deleteGroups(List.of("g"));

        CompletableFuture<Map<TopicPartition, Errors>> committed = fixture.offsets.commit(new OffsetCommit("g", "", null, -1,
                Map.of(T1, new OffsetCommit.Position(9, -1, null))));
        assertThat(committed).isNotDone();
        assertThat(fetchAll("g")).as("the new group has no offset yet, and none of the deleted one").isEmpty();
        unreplicated.forEach(write -> write.complete(Errors.NONE));
        assertThat(committed.join()).containsEntry(T1, Errors.NONE);
        assertThat(deleted.join()).containsEntry("g", Errors.NONE);
        fixture.replicateAtOnce();
        HeartbeatResult member = fixture.consumerGroupJoin("g", "c", null, "t");
        assertThat(member.error()).isEqualTo(Errors.NONE);

        fixture.reopen();
        assertThat(fetchAll("g")).containsOnlyKeys(T1);
        assertThat(fixture.consumerGroups.describe("g").orElseThrow().members())
                .extracting(ConsumerGroupCoordinator.DescribedMember::memberId)
                .containsExactly("c");
    }

    @Test
    void aMemberJoiningWhileAGroupsTombstonesAreInFlightStartsANewGroupWrittenAfterThem() {
        commit("g", T0, 1);
        List<CompletableFuture<Errors>> unreplicated = fixture.holdReplication();
        CompletableFuture<Map<String, Errors>> deleted = fixture.offsets.deleteGroups(List.of("g"));

        CompletableFuture<JoinResult> joining = fixture.joinNew(memberId -> GroupFixture.consumerJoin("g", memberId, null, "t"));
        fixture.advance(INITIAL_DELAY_MS);
        JoinResult leader = joining.join();
        assertThat(leader.generationId()).as("the new group's first generation").isEqualTo(1);
        CompletableFuture<SyncResult> synced = fixture.coordinator.sync(new SyncRequest("g", 1, leader.memberId(), null, "consumer",
                leader.protocolName(), Map.of(leader.memberId(), new byte[0])));
        assertThat(unreplicated).as("the tombstones, then the new generation's record").hasSize(2);
        unreplicated.forEach(write -> write.complete(Errors.NONE));
        assertThat(deleted.join()).containsEntry("g", Errors.NONE);
        assertThat(synced.join().error()).isEqualTo(Errors.NONE);

        fixture.reopen();
        assertThat(fetchAll("g")).as("the deleted group's offsets stay deleted").isEmpty();
        assertThat(fixture.coordinator.describe("g").orElseThrow().members()).extracting(GroupDescription.DescribedMember::memberId)
                .containsExactly(leader.memberId());
    }

    @Test
    void aGroupWithMembersCannotBeDeleted() {
        JoinResult required = fixture.coordinator.join(GroupFixture.join("busy", "", null, "range")).join();
        fixture.coordinator.join(GroupFixture.join("busy", required.memberId(), null, "range"));
        assertThat(fixture.offsets.deleteGroups(List.of("busy")).join()).containsEntry("busy", Errors.NON_EMPTY_GROUP);
    }
}

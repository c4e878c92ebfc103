package io.tributary.broker.group;

import static io.tributary.broker.group.GroupFixture.INITIAL_DELAY_MS;
import static io.tributary.broker.group.GroupFixture.RETENTION_MS;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.group.consumer.ConsumerHeartbeat;
import io.tributary.broker.group.consumer.HeartbeatResult;
import org.apache.kafka.common.TopicPartition;
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

    private HeartbeatResult consumerHeartbeat(String group, String memberId, int epoch) {
        return fixture.consumerGroups.heartbeat(new ConsumerHeartbeat(group, memberId, epoch, null, null, epoch == 0 ? 30_000 : -1,
                epoch == 0 ? List.of("t") : null, null, null, epoch == 0 ? Map.of() : null, "client", "/127.0.0.1")).join();
    }

    @Test
    void anEmptyConsumerGroupWhoseOffsetsExpireIsDeletedWithItsRecordsAndDoesNotComeBack() {
        fixture.topics.create("t", 2);
        HeartbeatResult member = consumerHeartbeat("cg", "c", 0);
        assertThat(fixture.offsets.commit(new OffsetCommit("cg", "c", null, member.memberEpoch(),
                Map.of(T0, new OffsetCommit.Position(7, -1, null)))).join()).containsEntry(T0, Errors.NONE);
        assertThat(consumerHeartbeat("cg", "c", -1).error()).isEqualTo(Errors.NONE);

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

        assertThat(fixture.offsets.deleteGroups(List.of("doomed", "unknown")))
                .containsEntry("doomed", Errors.NONE).containsEntry("unknown", Errors.GROUP_ID_NOT_FOUND);
        OffsetManager.DeleteResult trimmed = fixture.offsets.deleteOffsets("trimmed", List.of(T0));
        assertThat(trimmed.error()).isEqualTo(Errors.NONE);
        assertThat(trimmed.partitions()).containsEntry(T0, Errors.NONE);

        fixture.reopen();
        assertThat(fetchAll("doomed")).isEmpty();
        assertThat(fetchAll("trimmed")).containsOnlyKeys(T1);
    }

    @Test
    void aGroupDeletionIsAnsweredOnlyOnceItsTombstonesAreReplicatedAndOneLostInAFailoverLeavesTheGroup() {
        commit("doomed", T0, 1);
        List<CompletableFuture<Errors>> unreplicated = fixture.holdReplication();

        Map<String, Errors> deleted = fixture.offsets.deleteGroups(List.of("doomed"));
        unreplicated.forEach(write -> write.complete(Errors.NOT_LEADER_OR_FOLLOWER));
        fixture.failover();

        assertThat(fetchAll("doomed")).as("the group is back at the new coordinator").containsOnlyKeys(T0);
        assertThat(deleted).as("so the client must not have been told it was deleted").doesNotContainEntry("doomed", Errors.NONE);
    }

    @Test
    void anOffsetDeletionLostInAFailoverWasNotAnsweredAsDone() {
        commit("trimmed", T0, 2);
        List<CompletableFuture<Errors>> unreplicated = fixture.holdReplication();

        OffsetManager.DeleteResult trimmed = fixture.offsets.deleteOffsets("trimmed", List.of(T0));
        unreplicated.forEach(write -> write.complete(Errors.NOT_LEADER_OR_FOLLOWER));
        fixture.failover();

        assertThat(fetchAll("trimmed")).containsOnlyKeys(T0);
        assertThat(trimmed.error()).isNotEqualTo(Errors.NONE);
    }

    @Test
    void aCommitInFlightWhenItsGroupIsDeletedIsDeletedWithIt() {
        List<CompletableFuture<Errors>> unreplicated = fixture.holdReplication();
        CompletableFuture<Map<TopicPartition, Errors>> committing = fixture.offsets.commit(new OffsetCommit("g", "", null, -1,
                Map.of(T1, new OffsetCommit.Position(5, -1, null))));

        fixture.offsets.deleteGroups(List.of("g"));
        unreplicated.forEach(write -> write.complete(Errors.NONE));
        assertThat(committing.join()).containsEntry(T1, Errors.NONE);

        assertThat(fetchAll("g")).isEmpty();
        fixture.reopen();
        assertThat(fetchAll("g")).as("the group does not come back with the commit").isEmpty();
    }

    @Test
    void aGroupWithMembersCannotBeDeleted() {
        JoinResult required = fixture.coordinator.join(GroupFixture.join("busy", "", null, "range")).join();
        fixture.coordinator.join(GroupFixture.join("busy", required.memberId(), null, "range"));
        assertThat(fixture.offsets.deleteGroups(List.of("busy"))).containsEntry("busy", Errors.NON_EMPTY_GROUP);
    }
}

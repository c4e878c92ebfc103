package io.tributary.broker.group;

import io.tributary.broker.coordinator.CoordinatedPartitions;
import static io.tributary.broker.group.GroupFixture.CONFIG;
import static io.tributary.broker.group.GroupFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.testing.FakeTime;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.CoordinatorLoadInProgressException;
import org.apache.kafka.common.errors.NotCoordinatorException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.protocol.Errors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Coordination follows the leadership of the offsets partitions: groups are served only once their
 * partition is led and loaded, are dropped when it is lost, and come back from the log when it is
 * led again; a commit is answered only once its write is replicated.
 */
@Timeout(60)
class CoordinatorFailoverTest {
    private static final TopicPartition T0 = new TopicPartition("t", 0);
    private static final Duration LOAD_TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    Path dir;
    private final FakeTime time = new FakeTime();
    private LogManager logs;
    private List<PartitionLog> partitions;

    @BeforeEach
    void open() {
        logs = LogManager.open(List.of(dir), LogConfig.defaults(), time);
        partitions = new ArrayList<>();
        for (int partition = 0; partition < 3; partition++) {
            partitions.add(logs.getOrCreate(new TopicPartition(OffsetStore.TOPIC, partition), LogConfig.defaults()));
        }
    }

    @AfterEach
    void close() {
        logs.close();
    }

    @Test
    void groupsAreServedWhileTheirPartitionIsLedAndComeBackFromTheLogWhenLedAgain() {
        OffsetStore store = new OffsetStore(partitions, time);
        String group = "g";
        int partition = store.partitionFor(group);
        String elsewhere = IntStream.range(0, 100).mapToObj(i -> "other-" + i)
                .filter(id -> store.partitionFor(id) != partition).findFirst().orElseThrow();
        // Committed while another broker led the partition, and replicated here.
        store.write(group, Map.of(T0, new CommittedOffset(42, 1, "before", 0)));
        try (GroupServices services = GroupServices.start(CONFIG, GroupFixture.CONSUMER_SETTINGS, id -> Map.of(), new KnownTopics(), store,
                time)) {
            assertThatThrownBy(() -> services.offsets().fetch(group, Optional.empty())).isInstanceOf(NotCoordinatorException.class);

            services.becameLeader(partition, 1);
            awaitCoordinating(services, group);
            assertThat(services.offsets().fetch(group, Optional.empty()).get(T0).offset()).isEqualTo(42);
            assertThatThrownBy(() -> services.coordinator().heartbeat(elsewhere, "m", null, 1))
                    .as("a group of a partition this broker does not lead").isInstanceOf(NotCoordinatorException.class);
            assertThat(services.offsets().commit(new OffsetCommit(group, "", null, -1,
                    Map.of(T0, new OffsetCommit.Position(43, 2, "led")))).join()).containsEntry(T0, Errors.NONE);
            String memberId = services.coordinator().join(join(group, "", null, "range")).join().memberId();
            CompletableFuture<JoinResult> waiting = services.coordinator().join(join(group, memberId, null, "range"));
            assertThat(waiting).as("in the initial rebalance delay").isNotDone();

            services.resigned(partition);

            assertThatThrownBy(() -> services.coordinator().heartbeat(group, "m", null, 1)).isInstanceOf(NotCoordinatorException.class);
            assertThat(waiting.join().error()).as("the waiting member looks the coordinator up again").isEqualTo(Errors.NOT_COORDINATOR);
            assertThat(services.coordinator().listGroups()).as("dropped").isEmpty();

            services.becameLeader(partition, 3);
            awaitCoordinating(services, group);
            assertThat(services.offsets().fetch(group, Optional.empty()).get(T0))
                    .isEqualTo(new CommittedOffset(43, 2, "led", time.milliseconds()));
        }
    }

    private static void awaitCoordinating(GroupServices services, String group) {
        Awaitility.await("group " + group + " loaded").atMost(LOAD_TIMEOUT).ignoreException(CoordinatorLoadInProgressException.class)
                .until(() -> services.offsets().fetch(group, Optional.empty()) != null);
    }

    @Test
    void aCommitIsAnsweredAndVisibleOnlyOnceReplicatedAndAcknowledgementsOutOfOrderKeepTheLatest() {
        List<CompletableFuture<Errors>> replications = new ArrayList<>();
        OffsetStore store = new OffsetStore(partitions, (tp, records) -> {
            partitions.get(tp.partition()).appendAsLeader(records, 0);
            CompletableFuture<Errors> replicated = new CompletableFuture<>();
            replications.add(replicated);
            return replicated;
        }, time);
        OffsetManager offsets = coordinatingAll(store);

        CompletableFuture<Map<TopicPartition, Errors>> first = commit(offsets, 10);
        assertThat(first).isNotDone();
        assertThat(offsets.fetch("g", Optional.empty())).as("not replicated yet").isEmpty();
        replications.get(0).complete(Errors.NONE);
        assertThat(first.join()).containsEntry(T0, Errors.NONE);
        assertThat(offsets.fetch("g", Optional.empty()).get(T0).offset()).isEqualTo(10);

        CompletableFuture<Map<TopicPartition, Errors>> failed = commit(offsets, 11);
        replications.get(1).complete(Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND);
        assertThat(failed.join()).as("the client retries").containsEntry(T0, Errors.COORDINATOR_NOT_AVAILABLE);
        assertThat(offsets.fetch("g", Optional.empty()).get(T0).offset()).isEqualTo(10);

        CompletableFuture<Map<TopicPartition, Errors>> earlier = commit(offsets, 20);
        CompletableFuture<Map<TopicPartition, Errors>> later = commit(offsets, 30);
        replications.get(3).complete(Errors.NONE);
        replications.get(2).complete(Errors.NONE);
        assertThat(earlier.join()).containsEntry(T0, Errors.NONE);
        assertThat(later.join()).containsEntry(T0, Errors.NONE);
        assertThat(offsets.fetch("g", Optional.empty()).get(T0).offset()).as("the later write wins").isEqualTo(30);

        CompletableFuture<Map<TopicPartition, Errors>> lostLeadership = commit(offsets, 40);
        replications.get(4).complete(Errors.NOT_LEADER_OR_FOLLOWER);
        assertThat(lostLeadership.join()).containsEntry(T0, Errors.NOT_COORDINATOR);
    }

    @Test
    void aCommitRefusedBeforeAppendingGetsTheErrorClientsRetryOn() {
        List<RuntimeException> refusals = List.of(new NotEnoughReplicasException("ISR too small"),
                new NotLeaderOrFollowerException("moved"));
        List<Errors> expected = List.of(Errors.COORDINATOR_NOT_AVAILABLE, Errors.NOT_COORDINATOR);
        for (int i = 0; i < refusals.size(); i++) {
            RuntimeException refusal = refusals.get(i);
            OffsetManager offsets = coordinatingAll(new OffsetStore(partitions, (tp, records) -> {
                throw refusal;
            }, time));
            assertThat(commit(offsets, 5).join()).containsEntry(T0, expected.get(i));
            assertThat(offsets.fetch("g", Optional.empty())).isEmpty();
        }
    }

    private OffsetManager coordinatingAll(OffsetStore store) {
        GroupRegistry groups = new GroupRegistry();
        CoordinatedPartitions coordinated = new CoordinatedPartitions(store::partitionFor);
        for (int partition = 0; partition < partitions.size(); partition++) {
            coordinated.startLoading(partition, 0);
            coordinated.finishLoading(partition, 0);
        }
        ClassicRebalance rebalance = new ClassicRebalance(CONFIG, time, deadline -> { }, store);
        ConsumerGroupCoordinator consumerGroups = new ConsumerGroupCoordinator(GroupFixture.CONSUMER_SETTINGS, id -> Map.of(), groups,
                coordinated, new KnownTopics(), store, time, deadline -> { }, rebalance);
        return new OffsetManager(CONFIG, groups, new GroupCoordinator(CONFIG, groups, coordinated, time, deadline -> { }, rebalance,
                consumerGroups), store, coordinated, time);
    }

    private static CompletableFuture<Map<TopicPartition, Errors>> commit(OffsetManager offsets, long offset) {
        return offsets.commit(new OffsetCommit("g", "", null, -1, Map.of(T0, new OffsetCommit.Position(offset, -1, null))));
    }
}

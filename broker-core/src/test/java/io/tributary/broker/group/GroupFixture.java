package io.tributary.broker.group;

import io.tributary.broker.coordinator.CoordinatedPartitions;
import io.tributary.broker.coordinator.InternalTopic;
import io.tributary.broker.group.consumer.ConsumerGroupSettings;
import io.tributary.broker.group.consumer.ConsumerHeartbeat;
import io.tributary.broker.group.consumer.HeartbeatResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import io.tributary.broker.log.AppendOrigin;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.testing.FakeTime;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.coordinator.group.ConsumerGroupMigrationPolicy;

/**
 * A coordinator and offset manager on a fake clock over a real three-partition offsets topic in a
 * temp folder, coordinating all three partitions; {@link #reopen()} starts them again from what is
 * on disk, as a restart would.
 */
final class GroupFixture implements AutoCloseable {
    static final int SESSION_TIMEOUT_MS = 10_000;
    static final int REBALANCE_TIMEOUT_MS = 30_000;
    static final int INITIAL_DELAY_MS = 3_000;
    static final long RETENTION_MS = 60 * 60_000L;
    static final GroupConfig CONFIG = classicConfig(Integer.MAX_VALUE);
    static final int CONSUMER_SESSION_TIMEOUT_MS = 45_000;
    static final int CONSUMER_HEARTBEAT_INTERVAL_MS = 5_000;
    static final ConsumerGroupSettings CONSUMER_SETTINGS = consumerSettings(ConsumerGroupMigrationPolicy.BIDIRECTIONAL, Integer.MAX_VALUE);

    final FakeTime time = new FakeTime();
    private final GroupConfig config;
    private final ConsumerGroupSettings consumerSettings;
    /** Every deadline the coordinator announced, in order. */
    final List<Long> deadlinesSet = new CopyOnWriteArrayList<>();
    private final Path dir;
    private LogManager logs;
    final KnownTopics topics = new KnownTopics();
    /**
     * How a write to the offsets partitions fares: appended and replicated at once, unless a test holds the
     * replication back (a future it completes) or refuses the write (too few replicas in sync).
     */
    volatile InternalTopic.Appender replication = this::replicatedAtOnce;
    /** Where each write held back by {@link #holdReplication()} starts: what a failover loses of it. */
    private final Map<CompletableFuture<Errors>, HeldWrite> heldWrites = new ConcurrentHashMap<>();

    private record HeldWrite(TopicPartition partition, long firstOffset) {
    }

    /** Each group's own configs, as kafka-configs --entity-type groups would set them. */
    final Map<String, Map<String, String>> groupConfigs = new ConcurrentHashMap<>();
    GroupCoordinator coordinator;
    ConsumerGroupCoordinator consumerGroups;
    OffsetManager offsets;
    /** What the coordinator writes to and loads from. */
    OffsetStore store;

    GroupFixture(Path dir) {
        this(dir, ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
    }

    /** @param migrationPolicy which non-empty groups change type ({@code group.consumer.migration.policy}) */
    GroupFixture(Path dir, ConsumerGroupMigrationPolicy migrationPolicy) {
        this(dir, migrationPolicy, Integer.MAX_VALUE, Integer.MAX_VALUE);
    }

    /**
     * @param classicMaxSize  {@code group.max.size}
     * @param consumerMaxSize {@code group.consumer.max.size}
     */
    GroupFixture(Path dir, ConsumerGroupMigrationPolicy migrationPolicy, int classicMaxSize, int consumerMaxSize) {
        this.dir = dir;
        this.config = classicConfig(classicMaxSize);
        this.consumerSettings = consumerSettings(migrationPolicy, consumerMaxSize);
        open();
    }

    private static ConsumerGroupSettings consumerSettings(ConsumerGroupMigrationPolicy migrationPolicy, int maxSize) {
        return new ConsumerGroupSettings(CONSUMER_SESSION_TIMEOUT_MS, CONSUMER_HEARTBEAT_INTERVAL_MS,
                ConsumerGroupSettings.assignors(List.of("uniform", "range")), migrationPolicy, maxSize);
    }

    private static GroupConfig classicConfig(int maxSize) {
        return new GroupConfig(1_000, 60_000, INITIAL_DELAY_MS, RETENTION_MS, 600_000, 100, maxSize);
    }

    private void open() {
        logs = LogManager.open(List.of(dir), LogConfig.defaults(), time);
        List<PartitionLog> partitions = new ArrayList<>();
        for (int partition = 0; partition < 3; partition++) {
            partitions.add(logs.getOrCreate(new TopicPartition(OffsetStore.TOPIC, partition),
                    LogConfig.defaults().withTopicOverrides(Map.of(LogConfig.SEGMENT_INDEX_BYTES, "4096"))));
        }
        GroupRegistry groups = new GroupRegistry();
        store = new OffsetStore(partitions, (partition, records) -> replication.append(partition, records), time);
        CoordinatedPartitions coordinated = new CoordinatedPartitions(store::partitionFor);
        ClassicRebalance rebalance = new ClassicRebalance(config, time, deadlinesSet::add, store);
        consumerGroups = new ConsumerGroupCoordinator(consumerSettings, group -> groupConfigs.getOrDefault(group, Map.of()), groups,
                coordinated, topics, store, time, deadlinesSet::add, rebalance);
        coordinator = new GroupCoordinator(config, groups, coordinated, time, deadlinesSet::add, rebalance, consumerGroups);
        offsets = new OffsetManager(config, groups, coordinator, store, coordinated, time);
        for (int partition = 0; partition < partitions.size(); partition++) {
            coordinated.startLoading(partition, 0);
            offsets.load(partition);
            coordinated.finishLoading(partition, 0);
        }
    }

    /**
     * From now on writes are appended here but not replicated until the test completes their futures (in the order of
     * the list returned, which grows with each write).
     */
    List<CompletableFuture<Errors>> holdReplication() {
        List<CompletableFuture<Errors>> unreplicated = new CopyOnWriteArrayList<>();
        replication = (partition, records) -> {
            long start = appendLocally(partition, records);
            CompletableFuture<Errors> replicated = new CompletableFuture<>();
            heldWrites.put(replicated, new HeldWrite(partition, start));
            unreplicated.add(replicated);
            return replicated;
        };
        return unreplicated;
    }

    private CompletableFuture<Errors> replicatedAtOnce(TopicPartition partition, MemoryRecords records) {
        appendLocally(partition, records);
        return CompletableFuture.completedFuture(Errors.NONE);
    }

    /**
     * Another broker, which has only what was replicated, takes the offsets partitions over: the writes held back and not
     * completed with NONE are lost (this broker's log is cut where the first of them starts, as it would be truncated
     * to the new leader's), and the coordinator is rebuilt from the log. Writes are replicated at once from now on.
     */
    void failover() {
        Map<TopicPartition, Long> replicatedEnds = new HashMap<>();
        heldWrites.forEach((write, held) -> {
            if (!write.isDone() || write.join() != Errors.NONE) {
                replicatedEnds.merge(held.partition(), held.firstOffset(), Math::min);
            }
        });
        replicatedEnds.forEach((partition, end) -> logs.log(partition).orElseThrow().truncateTo(end));
        replicateAtOnce();
        reopen();
    }

    /** Writes are replicated at once again (those held back so far stay as the test leaves them). */
    void replicateAtOnce() {
        heldWrites.clear();
        replication = this::replicatedAtOnce;
    }

    /** Appends to this broker's own replica of the partition, as a leader does before its followers have it. */
    long appendLocally(TopicPartition partition, MemoryRecords records) {
        return logs.log(partition).orElseThrow().appendAsLeader(records, 0, AppendOrigin.COORDINATOR).firstOffset();
    }

    /** The first segment of the offsets partition of {@code groupId}, flushed, as DumpLogSegments reads it. */
    Path offsetsSegment(String groupId) {
        PartitionLog log = logs.log(new TopicPartition(OffsetStore.TOPIC, store.partitionFor(groupId))).orElseThrow();
        log.flush();
        return log.dir().resolve("00000000000000000000.log");
    }

    void reopen() {
        logs.close();
        open();
    }

    /** Moves the clock, running the deadline checks when the broker's timer threads would. */
    void advance(long ms) {
        long target = time.milliseconds() + ms;
        while (true) {
            // The check of both protocols' deadlines, when the next comes due, as the broker's DeadlineWakeups runs it.
            long next = Math.min(coordinator.checkDeadlines(), consumerGroups.checkDeadlines());
            if (next > target) {
                break;
            }
            time.sleep(Math.max(1, next - time.milliseconds()));
        }
        time.sleep(target - time.milliseconds());
        coordinator.checkDeadlines();
        consumerGroups.checkDeadlines();
    }

    /** A classic Java consumer's JoinGroup (v4+): the consumer protocol type, the range assignor, subscribed to {@code topic}. */
    static JoinRequest consumerJoin(String groupId, String memberId, String instanceId, String topic) {
        byte[] subscription = Utils.toArray(ConsumerProtocol.serializeSubscription(new Subscription(List.of(topic))));
        return new JoinRequest(groupId, memberId, instanceId, "classic", "/127.0.0.1", SESSION_TIMEOUT_MS, REBALANCE_TIMEOUT_MS,
                "consumer", List.of(new Protocol("range", subscription)), true);
    }

    /** The JoinGroups of a new member: the first is told MEMBER_ID_REQUIRED, the second {@code join}s with the id handed out. */
    CompletableFuture<JoinResult> joinNew(Function<String, JoinRequest> join) {
        JoinResult first = coordinator.join(join.apply("")).join();
        if (first.error() != Errors.MEMBER_ID_REQUIRED) {
            throw new AssertionError("a new member's first JoinGroup got " + first.error());
        }
        return coordinator.join(join.apply(first.memberId()));
    }

    static JoinRequest join(String groupId, String memberId, String instanceId, String... protocols) {
        List<Protocol> offered = new ArrayList<>();
        for (String protocol : protocols) {
            offered.add(new Protocol(protocol, protocol.getBytes()));
        }
        return new JoinRequest(groupId, memberId, instanceId, "client", "/127.0.0.1", SESSION_TIMEOUT_MS,
                REBALANCE_TIMEOUT_MS, "consumer", offered, true);
    }

    /**
     * A consumer's first ConsumerGroupHeartbeat (member epoch 0), answered within 10 s: its subscription, and the assignor
     * it asks for (null: the default).
     */
    HeartbeatResult consumerGroupJoin(String groupId, String memberId, String instanceId, List<String> topics, String regex,
                                      String assignor) {
        return consumerGroups.heartbeat(new ConsumerHeartbeat(groupId, memberId, 0, instanceId, null, REBALANCE_TIMEOUT_MS,
                topics, regex, assignor, Map.of(), "client-" + memberId, "/127.0.0.1")).orTimeout(10, TimeUnit.SECONDS).join();
    }

    /** A consumer's first ConsumerGroupHeartbeat, subscribed to {@code topic}. */
    HeartbeatResult consumerGroupJoin(String groupId, String memberId, String instanceId, String topic) {
        return consumerGroupJoin(groupId, memberId, instanceId, List.of(topic), null, null);
    }

    /**
     * A ConsumerGroupHeartbeat at {@code epoch} that changes nothing of the subscription: -1 leaves, -2 leaves for now (a
     * static member); {@code owned} null when the member does not report its partitions.
     */
    HeartbeatResult consumerGroupHeartbeat(String groupId, String memberId, String instanceId, int epoch, Map<Uuid, Set<Integer>> owned) {
        return consumerGroups.heartbeat(new ConsumerHeartbeat(groupId, memberId, epoch, instanceId, null, -1,
                null, null, null, owned, "client-" + memberId, "/127.0.0.1")).orTimeout(10, TimeUnit.SECONDS).join();
    }

    @Override
    public void close() {
        logs.close();
    }
}

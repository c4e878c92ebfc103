package io.tributary.broker.group;

import io.tributary.broker.coordinator.CoordinatedPartitions;
import io.tributary.broker.group.consumer.ConsumerGroupSettings;
import io.tributary.broker.group.consumer.SubscribableTopics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import io.tributary.broker.coordinator.CoordinatorLoader;
import io.tributary.broker.coordinator.DeadlineWakeups;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.utils.Time;

/**
 * The group coordinator and the offset manager over the groups of the offsets partitions this
 * broker leads, with a background thread that acts on session and rebalance deadlines when they
 * come due ({@link DeadlineWakeups}) and expires offsets every
 * {@code offsets.retention.check.interval.ms}. Coordination follows leadership through a
 * {@link CoordinatorLoader}: a partition's groups and offsets are read from its log when this
 * broker starts to lead it, and dropped when it stops.
 */
public final class GroupServices implements AutoCloseable {
    private final GroupCoordinator coordinator;
    private final ConsumerGroupCoordinator consumerGroups;
    private final OffsetManager offsets;
    private final OffsetStore store;
    private final List<ScheduledExecutorService> timers;
    private final CoordinatorLoader loader;

    private GroupServices(GroupCoordinator coordinator, ConsumerGroupCoordinator consumerGroups, OffsetManager offsets,
                          OffsetStore store, CoordinatedPartitions partitions, List<ScheduledExecutorService> timers) {
        this.coordinator = coordinator;
        this.consumerGroups = consumerGroups;
        this.offsets = offsets;
        this.store = store;
        this.timers = timers;
        this.loader = new CoordinatorLoader("tributary-group-loader", partitions, new CoordinatorLoader.PartitionStates() {
            @Override
            public void load(int partition, int leaderEpoch) {
                offsets.load(partition);
                consumerGroups.loaded();
            }

            @Override
            public void unload(int partition) {
                coordinator.unload(partition);
                offsets.unloadPending(partition);
            }
        });
    }

    /** Starts the deadline checks; no group is served until {@link #becameLeader} names its partition. */
    /** @param groupConfigs each group's own configs (GROUP config resources) */
    public static GroupServices start(GroupConfig config, ConsumerGroupSettings consumerSettings,
                                      Function<String, Map<String, String>> groupConfigs, SubscribableTopics topics,
                                      OffsetStore store, Time time) {
        GroupRegistry groups = new GroupRegistry();
        CoordinatedPartitions partitions = new CoordinatedPartitions(store::partitionFor);
        // Deadlines get a thread of their own, so that an offset expiry pass never delays a session's end.
        ScheduledExecutorService deadlineTimer = Executors.newSingleThreadScheduledExecutor(
                CoordinatorLoader.daemon("tributary-group-deadlines"));
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(CoordinatorLoader.daemon("tributary-group-timer"));
        DeadlineWakeups deadlines = new DeadlineWakeups(deadlineTimer, time, "group deadline check");
        ClassicRebalance rebalance = new ClassicRebalance(config, time, deadlines::wakeBy, store);
        ConsumerGroupCoordinator consumerGroups = new ConsumerGroupCoordinator(consumerSettings, groupConfigs, groups, partitions, topics,
                store, time, deadlines::wakeBy, rebalance);
        GroupCoordinator coordinator = new GroupCoordinator(config, groups, partitions, time, deadlines::wakeBy, rebalance, consumerGroups);
        // One check for both protocols' deadlines, run when the earliest comes due.
        deadlines.checkWith(() -> Math.min(coordinator.checkDeadlines(), consumerGroups.checkDeadlines()));
        OffsetManager offsets = new OffsetManager(config, groups, coordinator, store, partitions, time);
        timer.scheduleWithFixedDelay(CoordinatorLoader.guarded("offset expiry", offsets::expireOffsets),
                config.offsetsRetentionCheckIntervalMs(), config.offsetsRetentionCheckIntervalMs(), TimeUnit.MILLISECONDS);
        return new GroupServices(coordinator, consumerGroups, offsets, store, partitions, List.of(deadlineTimer, timer));
    }

    public GroupCoordinator coordinator() {
        return coordinator;
    }

    /** The consumer group protocol (KIP-848) over the same groups. */
    public ConsumerGroupCoordinator consumerGroups() {
        return consumerGroups;
    }

    public OffsetManager offsets() {
        return offsets;
    }

    /**
     * This broker leads {@code offsetsPartition} at {@code leaderEpoch}: its groups are loaded from
     * the log (replacing any left from an earlier leadership) and then served. Returns at once.
     */
    public void becameLeader(int offsetsPartition, int leaderEpoch) {
        loader.becameLeader(offsetsPartition, leaderEpoch);
    }

    /** This broker no longer leads {@code offsetsPartition}: its groups are refused from now on and dropped. */
    public void resigned(int offsetsPartition) {
        loader.resigned(offsetsPartition);
    }

    /**
     * Every group this broker coordinates now, with its members and committed offsets (sorted by topic and
     * partition). A group whose partition moves away meanwhile is left out.
     */
    public List<CoordinatedGroup> coordinatedGroups() {
        List<CoordinatedGroup> groups = new ArrayList<>();
        for (GroupListing listing : coordinator.listGroups()) {
            String groupId = listing.groupId();
            try {
                List<CoordinatedGroup.Member> members = listing.type().equals(GroupListing.CONSUMER)
                        ? consumerGroups.describe(groupId).map(d -> d.members().stream()
                                .map(m -> new CoordinatedGroup.Member(m.memberId(), m.clientId(), m.clientHost())).toList())
                                .orElse(List.of())
                        : coordinator.describe(groupId).map(d -> d.members().stream()
                                .map(m -> new CoordinatedGroup.Member(m.memberId(), m.clientId(), m.clientHost())).toList())
                                .orElse(List.of());
                Map<TopicPartition, Long> committed = new TreeMap<>(
                        (a, b) -> a.topic().equals(b.topic()) ? Integer.compare(a.partition(), b.partition()) : a.topic().compareTo(b.topic()));
                offsets.fetch(groupId, Optional.empty()).forEach((partition, offset) -> committed.put(partition, offset.offset()));
                groups.add(new CoordinatedGroup(listing, members, committed));
            } catch (ApiException e) {
                // NOT_COORDINATOR or loading: its partition moved since the listing
            }
        }
        return groups;
    }

    /** Creates {@code __consumer_offsets} if it does not exist yet (Kafka creates it on the first FindCoordinator). */
    public void ensureOffsetsTopic() {
        store.ensureTopic();
    }

    /** The offsets-topic partition whose leader coordinates {@code groupId}. */
    public int partitionFor(String groupId) {
        return store.partitionFor(groupId);
    }

    @Override
    public void close() {
        timers.forEach(ScheduledExecutorService::shutdownNow);
        loader.close();
    }
}

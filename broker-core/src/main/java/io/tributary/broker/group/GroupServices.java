package io.tributary.broker.group;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The group coordinator and the offset manager over the groups of the offsets partitions this
 * broker leads, with a background thread that checks session and rebalance deadlines every
 * {@value #DEADLINE_CHECK_INTERVAL_MS} ms and expires offsets every
 * {@code offsets.retention.check.interval.ms}.
 *
 * <p>Coordination follows leadership: when this broker becomes the leader of an offsets partition
 * ({@link #becameLeader}) a loader thread reads that partition's groups and offsets from its log,
 * and the partition's groups are served once they are loaded; when it stops leading one
 * ({@link #resigned}) its groups are refused at once and dropped by the loader thread. Loads and
 * drops run one at a time, in the order the leadership changes came.
 */
public final class GroupServices implements AutoCloseable {
    static final long DEADLINE_CHECK_INTERVAL_MS = 50;
    private static final Logger log = LoggerFactory.getLogger(GroupServices.class);

    private final GroupCoordinator coordinator;
    private final OffsetManager offsets;
    private final OffsetStore store;
    private final CoordinatedPartitions partitions;
    private final ScheduledExecutorService timer;
    private final ExecutorService loader;

    private GroupServices(GroupCoordinator coordinator, OffsetManager offsets, OffsetStore store, CoordinatedPartitions partitions,
                          ScheduledExecutorService timer) {
        this.coordinator = coordinator;
        this.offsets = offsets;
        this.store = store;
        this.partitions = partitions;
        this.timer = timer;
        this.loader = Executors.newSingleThreadExecutor(daemon("tributary-group-loader"));
    }

    /** Starts the deadline checks; no group is served until {@link #becameLeader} names its partition. */
    public static GroupServices start(GroupConfig config, OffsetStore store, Time time) {
        GroupRegistry groups = new GroupRegistry();
        CoordinatedPartitions partitions = new CoordinatedPartitions(store::partitionFor);
        GroupCoordinator coordinator = new GroupCoordinator(config, groups, partitions, time);
        OffsetManager offsets = new OffsetManager(config, groups, coordinator, store, partitions, time);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(daemon("tributary-group-timer"));
        timer.scheduleWithFixedDelay(guarded("group deadlines", coordinator::checkDeadlines),
                DEADLINE_CHECK_INTERVAL_MS, DEADLINE_CHECK_INTERVAL_MS, TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(guarded("offset expiry", offsets::expireOffsets),
                config.offsetsRetentionCheckIntervalMs(), config.offsetsRetentionCheckIntervalMs(), TimeUnit.MILLISECONDS);
        return new GroupServices(coordinator, offsets, store, partitions, timer);
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    private static Runnable guarded(String what, Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.error("{} failed", what, e);
            }
        };
    }

    public GroupCoordinator coordinator() {
        return coordinator;
    }

    public OffsetManager offsets() {
        return offsets;
    }

    /**
     * This broker leads {@code offsetsPartition} at {@code leaderEpoch}: its groups are loaded from
     * the log (replacing any left from an earlier leadership) and then served. Returns at once.
     */
    public void becameLeader(int offsetsPartition, int leaderEpoch) {
        partitions.startLoading(offsetsPartition, leaderEpoch);
        loader.execute(guarded("loading groups", () -> load(offsetsPartition, leaderEpoch)));
    }

    private void load(int offsetsPartition, int leaderEpoch) {
        if (!partitions.isLoading(offsetsPartition, leaderEpoch)) {
            return; // a later leadership change superseded this one
        }
        coordinator.unload(offsetsPartition);
        offsets.load(offsetsPartition);
        partitions.finishLoading(offsetsPartition, leaderEpoch);
    }

    /** This broker no longer leads {@code offsetsPartition}: its groups are refused from now on and dropped. */
    public void resigned(int offsetsPartition) {
        partitions.resign(offsetsPartition);
        loader.execute(guarded("unloading groups", () -> {
            if (!partitions.leads(offsetsPartition)) {
                coordinator.unload(offsetsPartition);
            }
        }));
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
        timer.shutdownNow();
        loader.shutdownNow();
    }
}

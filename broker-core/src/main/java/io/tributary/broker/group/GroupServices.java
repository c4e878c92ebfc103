package io.tributary.broker.group;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The group coordinator and the offset manager over one set of groups, loaded from the offsets
 * topic, with a background thread that checks session and rebalance deadlines every
 * {@value #DEADLINE_CHECK_INTERVAL_MS} ms and expires offsets every
 * {@code offsets.retention.check.interval.ms}.
 */
public final class GroupServices implements AutoCloseable {
    static final long DEADLINE_CHECK_INTERVAL_MS = 50;
    private static final Logger log = LoggerFactory.getLogger(GroupServices.class);

    private final GroupCoordinator coordinator;
    private final OffsetManager offsets;
    private final OffsetStore store;
    private final ScheduledExecutorService timer;

    private GroupServices(GroupCoordinator coordinator, OffsetManager offsets, OffsetStore store, ScheduledExecutorService timer) {
        this.coordinator = coordinator;
        this.offsets = offsets;
        this.store = store;
        this.timer = timer;
    }

    /** Loads the committed offsets and starts the deadline checks. */
    public static GroupServices start(GroupConfig config, OffsetStore store, Time time) {
        GroupRegistry groups = new GroupRegistry();
        GroupCoordinator coordinator = new GroupCoordinator(config, groups, time);
        OffsetManager offsets = new OffsetManager(config, groups, coordinator, store, time);
        offsets.load();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tributary-group-timer");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(guarded("group deadlines", coordinator::checkDeadlines),
                DEADLINE_CHECK_INTERVAL_MS, DEADLINE_CHECK_INTERVAL_MS, TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(guarded("offset expiry", offsets::expireOffsets),
                config.offsetsRetentionCheckIntervalMs(), config.offsetsRetentionCheckIntervalMs(), TimeUnit.MILLISECONDS);
        return new GroupServices(coordinator, offsets, store, timer);
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
     * Reads the committed offsets again from the offsets partitions this broker holds: called
     * when it becomes the leader (the coordinator) of one, whose commits it has so far only
     * replicated.
     */
    public void reloadOffsets() {
        offsets.load();
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
    }
}

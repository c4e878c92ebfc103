package io.tributary.broker.coordinator;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a coordinator follow the leadership of its internal topic's partitions: when this broker becomes the leader
 * of one ({@link #becameLeader}) a loader thread reads the partition's state from its log, and the partition's keys
 * are served once it is loaded; when it stops leading one ({@link #resigned}) its keys are refused at once and
 * dropped by the loader thread. Loads and drops run one at a time, in the order the leadership changes came.
 */
public final class CoordinatorLoader implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CoordinatorLoader.class);

    private final CoordinatedPartitions partitions;
    private final PartitionStates states;
    private final ExecutorService loader;

    /** What a coordinator keeps per partition of its topic. */
    public interface PartitionStates {
        /** Reads the partition's state from its log; {@code leaderEpoch} is the leadership it is loaded for. */
        void load(int partition, int leaderEpoch);

        /** Forgets the partition's state. */
        void unload(int partition);
    }

    public CoordinatorLoader(String threadName, CoordinatedPartitions partitions, PartitionStates states) {
        this.partitions = partitions;
        this.states = states;
        this.loader = Executors.newSingleThreadExecutor(daemon(threadName));
    }

    /** A factory of daemon threads named {@code name}. */
    public static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /** {@code task}, logging instead of throwing what it throws (for executors that would swallow it). */
    public static Runnable guarded(String what, Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.error("{} failed", what, e);
            }
        };
    }

    /**
     * This broker leads {@code partition} at {@code leaderEpoch}: its state is loaded from the log (replacing any
     * left from an earlier leadership) and then served. Returns at once.
     */
    public void becameLeader(int partition, int leaderEpoch) {
        partitions.startLoading(partition, leaderEpoch);
        loader.execute(guarded("loading partition " + partition, () -> {
            if (!partitions.isLoading(partition, leaderEpoch)) {
                return; // a later leadership change superseded this one
            }
            states.unload(partition);
            states.load(partition, leaderEpoch);
            partitions.finishLoading(partition, leaderEpoch);
        }));
    }

    /** This broker no longer leads {@code partition}: its keys are refused from now on and dropped. */
    public void resigned(int partition) {
        partitions.resign(partition);
        loader.execute(guarded("unloading partition " + partition, () -> {
            if (!partitions.leads(partition)) {
                states.unload(partition);
            }
        }));
    }

    @Override
    public void close() {
        loader.shutdownNow();
    }
}

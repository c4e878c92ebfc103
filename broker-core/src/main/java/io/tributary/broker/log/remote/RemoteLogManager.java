package io.tributary.broker.log.remote;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tiered storage (KIP-405) for this broker's tiered logs. Every {@code remote.log.manager.task.interval.ms}, and
 * at once when this broker starts leading one, each tiered partition gets a task on the copier pool: its leader claims
 * the remote metadata, copies closed segments and expires old copies ({@link LeaderTasks}); a follower reads the
 * metadata again, so that its local retention deletes what is copied. One task per partition runs at a time; a failed
 * one (the remote storage is down) is logged and tried again next time, and the local log keeps what is not copied.
 *
 * <p>Leadership comes from the replica layer ({@link #becameLeader}, {@link #resigned}); the last stable offsets and
 * leader epochs through a {@link LeaderView}. Thread-safe.
 */
public final class RemoteLogManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteLogManager.class);

    private final RemoteStorage storage;
    private final LogManager logs;
    private final LeaderTasks leaderTasks;
    private final ScheduledExecutorService rounds;
    private final ExecutorService copiers;
    private final long intervalMs;
    private final Map<TopicPartition, TieredPartition> partitions = new ConcurrentHashMap<>();

    public RemoteLogManager(RemoteStorage storage, RemoteLogConfig config, LogManager logs, LeaderView leaders, Time time) {
        this.storage = storage;
        this.logs = logs;
        this.leaderTasks = new LeaderTasks(storage, leaders, time);
        this.intervalMs = config.taskIntervalMs();
        this.rounds = Executors.newSingleThreadScheduledExecutor(daemon("tributary-remote-log-rounds"));
        this.copiers = Executors.newFixedThreadPool(config.copierThreads(), daemon("tributary-remote-log-copier"));
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /** Starts the periodic rounds. */
    public void start() {
        rounds.scheduleWithFixedDelay(this::runRound, 0, intervalMs, TimeUnit.MILLISECONDS);
    }

    /** This broker leads {@code tp} at {@code leaderEpoch} from now: its task runs at once. */
    public void becameLeader(TopicPartition tp, int leaderEpoch) {
        TieredPartition partition = partitions.computeIfAbsent(tp, TieredPartition::new);
        partition.leaderEpoch = leaderEpoch;
        logs.log(tp).filter(log -> log.config().remoteStorageEnable()).ifPresent(log -> submit(partition, log));
    }

    /** This broker no longer leads {@code tp}: a copy in progress stops after the segment it is at. */
    public void resigned(TopicPartition tp) {
        TieredPartition partition = partitions.get(tp);
        if (partition != null) {
            partition.leaderEpoch = -1;
        }
    }

    /** What the remote part of {@code tp} holds as last read or committed here; empty if not known yet. */
    public Optional<RemoteLogMetadata> metadata(TopicPartition tp) {
        TieredPartition partition = partitions.get(tp);
        return partition == null ? Optional.empty() : Optional.ofNullable(partition.metadata);
    }

    /** One task for every tiered log; the partitions whose logs are gone are forgotten. */
    void runRound() {
        try {
            partitions.keySet().removeIf(tp -> logs.log(tp).isEmpty());
            for (PartitionLog log : logs.logs()) {
                if (log.config().remoteStorageEnable()) {
                    submit(partitions.computeIfAbsent(log.topicPartition(), TieredPartition::new), log);
                }
            }
        } catch (RuntimeException e) {
            LOG.error("A round of the remote log tasks failed", e);
        }
    }

    private void submit(TieredPartition partition, PartitionLog log) {
        if (!partition.tryStart()) {
            return; // the task of the last round still runs
        }
        try {
            copiers.execute(() -> {
                try {
                    runTask(partition, log);
                } finally {
                    partition.finished();
                }
            });
        } catch (RejectedExecutionException closing) {
            partition.finished();
        }
    }

    private void runTask(TieredPartition partition, PartitionLog log) {
        int epoch = partition.leaderEpoch;
        try {
            if (epoch < 0) {
                LeaderTasks.publish(partition, log, storage.metadata(partition.topicPartition));
                return;
            }
            RemoteLogMetadata metadata = leaderTasks.claim(partition, log, epoch);
            if (metadata != null && !log.config().remoteLogCopyDisable()) {
                metadata = leaderTasks.copy(partition, log, metadata, epoch);
            }
            if (metadata != null && partition.leaderEpoch == epoch) {
                leaderTasks.expire(partition, log, metadata, epoch);
            }
        } catch (IOException | RuntimeException e) {
            partition.metadata = null; // read it again: a failed commit may have happened after all
            partition.claimedEpoch = -1;
            LOG.warn("{}: the remote log task failed (tried again in {} ms): {}", partition.topicPartition, intervalMs,
                    e.toString());
        }
    }

    /** Stops the rounds and waits for the tasks in progress (a copy finishes or fails; nothing half-listed stays). */
    @Override
    public void close() throws InterruptedException {
        rounds.shutdownNow();
        copiers.shutdown();
        if (!copiers.awaitTermination(30, TimeUnit.SECONDS)) {
            LOG.warn("remote log tasks still running after 30 s; leaving them");
            copiers.shutdownNow();
        }
    }
}

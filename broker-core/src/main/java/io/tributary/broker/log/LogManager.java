package io.tributary.broker.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns every partition log across all {@code log.dirs}: loads them in parallel at start-up (recovering after an
 * unclean stop), runs the background flush, retention and checkpoint tasks, creates and deletes partitions, and
 * shuts down cleanly (flush, recovery-point checkpoints, clean-shutdown markers).
 *
 * <p>Thread-safe. Lookups are lock-free; creation and deletion are serialized.
 */
public final class LogManager implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LogManager.class);

    private final List<LogDir> logDirs;
    private final LogConfig defaults;
    private final Time time;
    private final Scheduler scheduler;
    private final FlushTimes flushTimes = new FlushTimes();
    private final Map<TopicPartition, PartitionLog> logs = new ConcurrentHashMap<>();
    private final Map<TopicPartition, LogDir> dirOf = new ConcurrentHashMap<>();
    private final Object checkpointLock = new Object();
    private volatile boolean closed;

    private LogManager(List<LogDir> logDirs, LogConfig defaults, Time time, Scheduler scheduler) {
        this.logDirs = logDirs;
        this.defaults = defaults;
        this.time = time;
        this.scheduler = scheduler;
    }

    /** Loads all partitions under {@code logDirs} and starts the background tasks on a wall-clock scheduler. */
    public static LogManager open(List<Path> logDirs, LogConfig defaults, Time time) {
        return open(logDirs, defaults, time, new ExecutorScheduler("tributary-log-scheduler"));
    }

    static LogManager open(List<Path> logDirPaths, LogConfig defaults, Time time, Scheduler scheduler) {
        if (logDirPaths.isEmpty()) {
            throw new IllegalArgumentException("At least one log dir is required");
        }
        List<LogDir> dirs = new ArrayList<>();
        try {
            for (Path path : logDirPaths) {
                dirs.add(LogDir.open(path));
            }
            LogManager manager = new LogManager(dirs, defaults, time, scheduler);
            manager.loadAll();
            // Drops the entries of partitions deleted just before a crash: a partition created again
            // under the same name must not inherit the old one's log start at the next load.
            manager.writeCheckpoints();
            manager.startBackgroundTasks();
            return manager;
        } catch (IOException | RuntimeException e) {
            scheduler.close();
            dirs.forEach(LogManager::closeQuietly);
            if (e instanceof IOException io) {
                throw new KafkaStorageException("Cannot open log dirs " + logDirPaths, io);
            }
            throw (RuntimeException) e;
        }
    }

    private void loadAll() throws IOException {
        long started = time.milliseconds();
        int threads = defaults.recoveryThreadsPerDataDir() * logDirs.size();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> new Thread(r, "tributary-log-loader"));
        try {
            Map<TopicPartition, Future<PartitionLog>> pending = new LinkedHashMap<>();
            for (LogDir dir : logDirs) {
                boolean clean = dir.consumeCleanShutdownMarker();
                Map<TopicPartition, Long> recoveryPoints = dir.readRecoveryPoints();
                Map<TopicPartition, Long> logStartOffsets = dir.readLogStartOffsets();
                LogDir.Contents contents = dir.list();
                contents.deleted().forEach(this::scheduleRecursiveDelete);
                contents.partitions().forEach((tp, path) -> {
                    dirOf.put(tp, dir);
                    long recoveryPoint = recoveryPoints.getOrDefault(tp, 0L);
                    long logStartOffset = logStartOffsets.getOrDefault(tp, 0L);
                    pending.put(tp, pool.submit(() -> PartitionLog.open(tp, path, defaults, time, scheduler, flushTimes,
                            recoveryPoint, logStartOffset, clean)));
                });
                if (!clean && !contents.partitions().isEmpty()) {
                    LOG.warn("Log dir {} was not shut down cleanly: recovering {} partitions from their recovery "
                            + "points", dir.path(), contents.partitions().size());
                }
            }
            for (Map.Entry<TopicPartition, Future<PartitionLog>> e : pending.entrySet()) {
                logs.put(e.getKey(), e.getValue().get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaStorageException("Interrupted while loading logs", e);
        } catch (ExecutionException e) {
            logs.values().forEach(PartitionLog::close);
            throw new KafkaStorageException("Cannot load a partition log", e.getCause());
        } finally {
            pool.shutdownNow();
        }
        LOG.info("Loaded {} partition logs from {} log dirs in {} ms", logs.size(), logDirs.size(),
                time.milliseconds() - started);
    }

    private void startBackgroundTasks() {
        long retentionInterval = defaults.retentionCheckIntervalMs();
        scheduler.schedule("log-retention", this::enforceRetention, retentionInterval, retentionInterval);
        long flushInterval = defaults.flushSchedulerIntervalMs();
        if (flushInterval != Long.MAX_VALUE) {
            scheduler.schedule("log-flusher", this::flushDirtyLogs, flushInterval, flushInterval);
        }
        int checkpointInterval = defaults.flushCheckpointIntervalMs();
        if (checkpointInterval > 0) {
            scheduler.schedule("offset-checkpoints", this::writeCheckpoints, checkpointInterval,
                    checkpointInterval);
        }
    }

    /**
     * The log of {@code tp}, created empty in the least loaded log dir if it does not exist. An existing log
     * takes {@code config} if it differs (logs loaded at start-up begin with the broker defaults).
     *
     * @throws InvalidTopicException if the topic name is not a legal Kafka topic name (it becomes a folder name)
     */
    public PartitionLog getOrCreate(TopicPartition tp, LogConfig config) {
        Topic.validate(tp.topic());
        PartitionLog existing = logs.get(tp);
        if (existing != null) {
            if (!existing.config().equals(config)) {
                existing.updateConfig(config);
            }
            return existing;
        }
        synchronized (this) {
            ensureOpen();
            existing = logs.get(tp);
            if (existing != null) {
                return existing;
            }
            LogDir dir = leastLoadedDir();
            try {
                PartitionLog log = PartitionLog.open(tp, dir.partitionDir(tp), config, time, scheduler, flushTimes,
                        0L, 0L, true);
                dirOf.put(tp, dir);
                logs.put(tp, log);
                LOG.info("Created log for {} in {}", tp, dir.path());
                return log;
            } catch (IOException e) {
                throw new KafkaStorageException("Cannot create the log of " + tp + " in " + dir.path(), e);
            }
        }
    }

    private LogDir leastLoadedDir() {
        Map<LogDir, Long> counts = new HashMap<>();
        logDirs.forEach(d -> counts.put(d, 0L));
        dirOf.values().forEach(d -> counts.merge(d, 1L, Long::sum));
        return logDirs.stream().min(Comparator.comparingLong(counts::get)).orElseThrow();
    }

    /** The log dirs, as configured ({@code log.dirs}), absolute. */
    public List<Path> logDirs() {
        return logDirs.stream().map(dir -> dir.path().toAbsolutePath()).toList();
    }

    /** The log dir holding {@code tp}'s log, if this broker has one. */
    public Optional<Path> logDirOf(TopicPartition tp) {
        return Optional.ofNullable(dirOf.get(tp)).map(dir -> dir.path().toAbsolutePath());
    }

    public Optional<PartitionLog> log(TopicPartition tp) {
        return Optional.ofNullable(logs.get(tp));
    }

    public Collection<PartitionLog> logs() {
        return List.copyOf(logs.values());
    }

    /** Applies changed topic settings to every partition of {@code topic}. */
    public void updateConfig(String topic, LogConfig config) {
        logs.values().stream()
                .filter(log -> log.topicPartition().topic().equals(topic))
                .forEach(log -> log.updateConfig(config));
    }

    /**
     * Closes the logs, renames each folder {@code <name>.<uuid>-delete} (see {@link PartitionFolderNames}) and deletes it in the
     * background. Nothing is synced to disk for a log on its way out; the recovery points are
     * checkpointed once for all of them.
     */
    public synchronized void delete(Collection<TopicPartition> partitions) {
        boolean removedAny = false;
        for (TopicPartition tp : partitions) {
            removedAny |= detachForDeletion(tp);
        }
        if (removedAny) {
            writeCheckpoints();
        }
    }

    private boolean detachForDeletion(TopicPartition tp) {
        PartitionLog log = logs.remove(tp);
        LogDir dir = dirOf.remove(tp);
        if (log == null) {
            return false;
        }
        log.closeForDeletion();
        Path renamed = log.dir().resolveSibling(PartitionFolderNames.deletionName(tp));
        try {
            Files.move(log.dir(), renamed);
        } catch (IOException e) {
            throw new KafkaStorageException("Cannot delete the log of " + tp + " in " + dir.path(), e);
        }
        scheduleRecursiveDelete(renamed);
        return true;
    }

    private void scheduleRecursiveDelete(Path folder) {
        scheduler.schedule("delete-" + folder.getFileName(), () -> deleteRecursively(folder), 0, 0);
    }

    /**
     * Deletes the folder. Segment files are emptied first: a read-only mapping of one (see {@link SegmentMappings})
     * would otherwise keep its blocks allocated until the GC collects it.
     */
    private static void deleteRecursively(Path folder) {
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                if (file.getFileName().toString().endsWith(SegmentFiles.LOG_SUFFIX) && Files.isRegularFile(file)) {
                    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                        channel.truncate(0);
                    }
                }
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + folder, e);
        }
    }

    /** One retention pass over every log; the scheduler runs it every log.retention.check.interval.ms. */
    int enforceRetention() {
        int deleted = 0;
        for (PartitionLog log : logs.values()) {
            try {
                deleted += log.deleteOldSegments();
            } catch (KafkaStorageException e) {
                LOG.error("Retention of {} failed", log.topicPartition(), e);
            }
        }
        return deleted;
    }

    /** How long each flush of these logs takes, for whoever listens (the broker's log flush timer). */
    public FlushTimes flushTimes() {
        return flushTimes;
    }

    /** Flushes every log whose flush.ms has passed; the scheduler runs it every log.flush.scheduler.interval.ms. */
    void flushDirtyLogs() {
        for (PartitionLog log : logs.values()) {
            try {
                log.maybeFlushByTime();
            } catch (KafkaStorageException e) {
                LOG.error("Flushing {} failed", log.topicPartition(), e);
            }
        }
    }

    /** Writes each log dir's recovery-point and log-start-offset checkpoints. */
    void writeCheckpoints() {
        synchronized (checkpointLock) {
            for (LogDir dir : logDirs) {
                try {
                    dir.writeRecoveryPoints(offsetsIn(dir, PartitionLog::recoveryPoint));
                    dir.writeLogStartOffsets(offsetsIn(dir, PartitionLog::logStartOffset));
                } catch (IOException e) {
                    LOG.error("Cannot write the offset checkpoints of {}", dir.path(), e);
                }
            }
        }
    }

    /**
     * Writes the log start offsets now, so that records deleted by DeleteRecords stay deleted after a crash.
     *
     * @throws KafkaStorageException if a checkpoint cannot be written
     */
    public void checkpointLogStartOffsets() {
        synchronized (checkpointLock) {
            for (LogDir dir : logDirs) {
                try {
                    dir.writeLogStartOffsets(offsetsIn(dir, PartitionLog::logStartOffset));
                } catch (IOException e) {
                    throw new KafkaStorageException("Cannot write the log-start-offset checkpoint of " + dir.path(), e);
                }
            }
        }
    }

    private Map<TopicPartition, Long> offsetsIn(LogDir dir, ToLongFunction<PartitionLog> offset) {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        logs.forEach((tp, log) -> {
            if (dirOf.get(tp) == dir) {
                offsets.put(tp, offset.applyAsLong(log));
            }
        });
        return offsets;
    }

    /**
     * Clean shutdown: stops the background tasks, flushes and closes every log, writes the recovery points and
     * then the clean-shutdown marker of each dir, so the next start-up scans nothing.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        scheduler.close();
        for (LogDir dir : logDirs) {
            boolean allClosed = true;
            for (PartitionLog log : logs.values()) {
                if (dirOf.get(log.topicPartition()) == dir) {
                    try {
                        log.close();
                    } catch (KafkaStorageException e) {
                        allClosed = false;
                        LOG.error("Closing {} failed; {} will be recovered at the next start", log.topicPartition(),
                                dir.path(), e);
                    }
                }
            }
            try {
                dir.writeRecoveryPoints(offsetsIn(dir, PartitionLog::recoveryPoint));
                dir.writeLogStartOffsets(offsetsIn(dir, PartitionLog::logStartOffset));
                if (allClosed) {
                    dir.writeCleanShutdownMarker();
                }
            } catch (IOException e) {
                LOG.error("Cannot complete the clean shutdown of {}", dir.path(), e);
            }
            closeQuietly(dir);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new KafkaStorageException("The log manager is closed");
        }
    }

    private static void closeQuietly(LogDir dir) {
        try {
            dir.close();
        } catch (IOException e) {
            LOG.warn("Cannot release the lock of {}", dir.path(), e);
        }
    }
}

package io.tributary.broker.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiFunction;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.errors.LogDirNotFoundException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns every partition log across all {@code log.dirs}: loads them in parallel at start-up (recovering after an
 * unclean stop), runs the background flush, retention and checkpoint tasks, creates and deletes partitions, and
 * shuts down cleanly (flush, recovery-point checkpoints, clean-shutdown markers).
 *
 * <p>A partition moving to another log dir (AlterReplicaLogDirs, KIP-113) has, besides its log, a future log there,
 * in a folder named {@link PartitionFolderNames#futureName}, which the replica layer fills from the log; {@link
 * #replaceCurrentWithFuture} then makes it the partition's log. Its commit point is the rename of the replaced log's
 * folder for deletion: a start-up that finds a future log without a log promotes it, one that finds both loads both
 * and the move goes on.
 *
 * <p>Thread-safe. Lookups are lock-free; creation, deletion and the steps of a move are serialized.
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
    /** The future logs of the partitions moving to another log dir, and where they are. */
    private final Map<TopicPartition, PartitionLog> futures = new ConcurrentHashMap<>();
    private final Map<TopicPartition, LogDir> futureDirOf = new ConcurrentHashMap<>();
    /** Where to create the log of a partition not held yet, as AlterReplicaLogDirs asked before it came. */
    private final Map<TopicPartition, LogDir> preferredDirs = new ConcurrentHashMap<>();
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
        Map<LogDir, LogDir.Contents> listed = new LinkedHashMap<>();
        for (LogDir dir : logDirs) {
            listed.put(dir, dir.list());
        }
        Set<TopicPartition> held = new HashSet<>();
        listed.values().forEach(contents -> held.addAll(contents.partitions().keySet()));
        int threads = defaults.recoveryThreadsPerDataDir() * logDirs.size();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> new Thread(r, "tributary-log-loader"));
        try {
            Map<TopicPartition, Future<PartitionLog>> pending = new LinkedHashMap<>();
            Map<TopicPartition, Future<PartitionLog>> pendingFutures = new LinkedHashMap<>();
            for (LogDir dir : logDirs) {
                boolean clean = dir.consumeCleanShutdownMarker();
                Map<TopicPartition, Long> recoveryPoints = dir.readRecoveryPoints();
                Map<TopicPartition, Long> logStartOffsets = dir.readLogStartOffsets();
                LogDir.Contents contents = listed.get(dir);
                contents.deleted().forEach(this::scheduleRecursiveDelete);
                Map<TopicPartition, Path> partitions = new HashMap<>(contents.partitions());
                Map<TopicPartition, Path> futureFolders = new HashMap<>();
                for (Map.Entry<TopicPartition, Path> future : contents.futures().entrySet()) {
                    if (held.contains(future.getKey())) {
                        futureFolders.put(future.getKey(), future.getValue());
                    } else {
                        partitions.put(future.getKey(), promote(dir, future.getKey(), future.getValue()));
                    }
                }
                BiFunction<TopicPartition, Path, Future<PartitionLog>> load = (tp, path) -> pool.submit(() -> PartitionLog.open(
                        tp, path, defaults, time, scheduler, flushTimes, recoveryPoints.getOrDefault(tp, 0L),
                        logStartOffsets.getOrDefault(tp, 0L), clean));
                partitions.forEach((tp, path) -> {
                    dirOf.put(tp, dir);
                    pending.put(tp, load.apply(tp, path));
                });
                futureFolders.forEach((tp, path) -> {
                    futureDirOf.put(tp, dir);
                    pendingFutures.put(tp, load.apply(tp, path));
                });
                if (!clean && !partitions.isEmpty()) {
                    LOG.warn("Log dir {} was not shut down cleanly: recovering {} partitions from their recovery "
                            + "points", dir.path(), partitions.size());
                }
            }
            for (Map.Entry<TopicPartition, Future<PartitionLog>> e : pending.entrySet()) {
                logs.put(e.getKey(), e.getValue().get());
            }
            for (Map.Entry<TopicPartition, Future<PartitionLog>> e : pendingFutures.entrySet()) {
                futures.put(e.getKey(), e.getValue().get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaStorageException("Interrupted while loading logs", e);
        } catch (ExecutionException e) {
            logs.values().forEach(PartitionLog::close);
            futures.values().forEach(PartitionLog::close);
            throw new KafkaStorageException("Cannot load a partition log", e.getCause());
        } finally {
            pool.shutdownNow();
        }
        LOG.info("Loaded {} partition logs ({} of them moving to another log dir) from {} log dirs in {} ms", logs.size(),
                futures.size(), logDirs.size(), time.milliseconds() - started);
    }

    /**
     * A future log whose partition has no log any more: its move was committed (the replaced log's folder renamed for
     * deletion) before the broker stopped, and it takes the partition's own folder name now.
     */
    private static Path promote(LogDir dir, TopicPartition tp, Path future) throws IOException {
        Path promoted = dir.partitionDir(tp);
        Files.move(future, promoted, StandardCopyOption.ATOMIC_MOVE);
        Utils.flushDir(dir.path());
        LOG.info("Completed the move of {} to {}: its future log takes over", tp, dir.path());
        return promoted;
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
            LogDir preferred = preferredDirs.remove(tp);
            LogDir dir = preferred != null ? preferred : leastLoadedDir();
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
        futureDirOf.values().forEach(d -> counts.merge(d, 1L, Long::sum));
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

    /** The future log of a partition moving to another log dir. */
    public Optional<PartitionLog> futureLog(TopicPartition tp) {
        return Optional.ofNullable(futures.get(tp));
    }

    /** The future logs of the partitions moving to another log dir. */
    public Collection<PartitionLog> futureLogs() {
        return List.copyOf(futures.values());
    }

    /** The log dir a partition is moving to. */
    public Optional<Path> futureLogDirOf(TopicPartition tp) {
        return Optional.ofNullable(futureDirOf.get(tp)).map(dir -> dir.path().toAbsolutePath());
    }

    /** Whether {@code logDir} (one of {@link #logDirs()}) can take data now; see {@link LogDir#isOnline}. */
    public boolean isOnline(Path logDir) {
        return logDirs.stream().filter(dir -> dir.path().toAbsolutePath().equals(logDir)).anyMatch(LogDir::isOnline);
    }

    /**
     * The log dir that AlterReplicaLogDirs names by {@code path} as the destination of {@code tp}: one of {@code
     * log.dirs} by its absolute path, online.
     *
     * @throws InvalidTopicException   if the folder of the future log would not fit a file name
     * @throws LogDirNotFoundException if {@code path} is not one of {@code log.dirs}
     * @throws KafkaStorageException   if that dir is offline
     */
    public Path moveDestination(TopicPartition tp, String path) {
        PartitionFolderNames.checkFutureNameFits(tp);
        LogDir dir = logDir(path);
        if (!dir.isOnline()) {
            throw new KafkaStorageException("Log directory " + path + " is offline");
        }
        return dir.path().toAbsolutePath();
    }

    private LogDir logDir(String path) {
        return logDirs.stream().filter(dir -> dir.path().toAbsolutePath().toString().equals(path)).findFirst()
                .orElseThrow(() -> new LogDirNotFoundException("Log dir " + path + " is not found in the config."));
    }

    private LogDir logDir(Path path) {
        return logDir(path.toString());
    }

    /** Creates the log of {@code tp}, if it is created later, in {@code logDir} (see {@link #moveDestination}). */
    public void preferLogDir(TopicPartition tp, Path logDir) {
        preferredDirs.put(tp, logDir(logDir));
    }

    /**
     * Creates the empty future log of {@code tp} in {@code logDir} (see {@link #moveDestination}), another dir than
     * its log's, with its log's settings.
     *
     * @throws IllegalStateException if {@code tp} has no log, its log is in {@code logDir}, or it has a future log already
     */
    public synchronized PartitionLog createFuture(TopicPartition tp, Path logDir) {
        ensureOpen();
        LogDir dir = logDir(logDir);
        PartitionLog current = logs.get(tp);
        if (current == null || dirOf.get(tp) == dir || futures.containsKey(tp)) {
            throw new IllegalStateException("No move of " + tp + " to " + logDir + " can start: log in " + dirOf.get(tp)
                    + ", future log in " + futureDirOf.get(tp));
        }
        Path folder = dir.path().resolve(PartitionFolderNames.futureName(tp));
        try {
            PartitionLog future = PartitionLog.open(tp, folder, current.config(), time, scheduler, flushTimes, 0L, 0L, true);
            futureDirOf.put(tp, dir);
            futures.put(tp, future);
            LOG.info("Moving {} from {} to {}: created its future log {}", tp, dirOf.get(tp).path(), dir.path(), folder);
            return future;
        } catch (IOException e) {
            throw new KafkaStorageException("Cannot create the future log of " + tp + " in " + dir.path(), e);
        }
    }

    /** Ends the move of {@code tp}, if it is moving: its future log is deleted (as a deleted partition's log is). */
    public synchronized void deleteFuture(TopicPartition tp) {
        if (detachFutureForDeletion(tp)) {
            writeCheckpoints();
        }
    }

    /**
     * Completes the move of {@code tp}: its future log, as long as its log and holding the same records (the caller sees
     * to it, and that nothing is appended meanwhile), becomes its log. The future log is synced; then the log's folder
     * is renamed for deletion, which commits the move (a crash from here on finds the future log alone and promotes
     * it); then the future log's folder takes the partition's name. The replaced log takes no more changes; reads in
     * flight finish, and its files are closed and deleted after file.delete.delay.ms. A tiered log hands what it knows
     * of its remote part to the future log (whose start is the whole log's already, below its local segments).
     *
     * @throws KafkaStorageException if the move could not be committed; the partition keeps its log and future log
     */
    public synchronized void replaceCurrentWithFuture(TopicPartition tp) {
        ensureOpen();
        PartitionLog current = logs.get(tp);
        PartitionLog future = futures.get(tp);
        LogDir from = dirOf.get(tp);
        LogDir to = futureDirOf.get(tp);
        if (current == null || future == null) {
            throw new IllegalStateException(tp + " is not moving between log dirs");
        }
        future.flush();
        try {
            current.renameDir(from.path().resolve(PartitionFolderNames.deletionName(tp)));
        } catch (IOException e) {
            throw new KafkaStorageException("Cannot commit the move of " + tp + " from " + from.path() + " to " + to.path(), e);
        }
        current.retire();
        current.handRemoteTierTo(future);
        futures.remove(tp);
        futureDirOf.remove(tp);
        logs.put(tp, future);
        dirOf.put(tp, to);
        try {
            future.renameDir(to.partitionDir(tp));
        } catch (IOException e) {
            LOG.error("Moved {} to {}, but its log stays in {} until the next start-up renames it", tp, to.path(),
                    future.dir(), e);
        }
        writeCheckpoints();
        scheduler.schedule("delete-" + current.dir().getFileName(), () -> {
            current.closeForDeletion();
            deleteRecursively(current.dir());
        }, current.config().fileDeleteDelayMs(), 0);
        LOG.info("Moved {} from {} to {}", tp, from.path(), to.path());
    }

    /** Applies changed topic settings to every partition of {@code topic}, future logs included. */
    public void updateConfig(String topic, LogConfig config) {
        Stream.concat(logs.values().stream(), futures.values().stream())
                .filter(log -> log.topicPartition().topic().equals(topic))
                .forEach(log -> log.updateConfig(config));
    }

    /**
     * Closes the logs (and future logs), renames each folder {@code <name>.<uuid>-delete} (see {@link
     * PartitionFolderNames}) and deletes it in the background. Nothing is synced to disk for a log on its way out; the
     * recovery points are checkpointed once for all of them.
     */
    public synchronized void delete(Collection<TopicPartition> partitions) {
        boolean removedAny = false;
        for (TopicPartition tp : partitions) {
            // The future log first: one left alone by a crash in between would be taken for a completed move.
            removedAny |= detachFutureForDeletion(tp);
            removedAny |= detachForDeletion(logs.remove(tp), dirOf.remove(tp));
        }
        if (removedAny) {
            writeCheckpoints();
        }
    }

    private boolean detachFutureForDeletion(TopicPartition tp) {
        return detachForDeletion(futures.remove(tp), futureDirOf.remove(tp));
    }

    private boolean detachForDeletion(PartitionLog log, LogDir dir) {
        if (log == null) {
            return false;
        }
        TopicPartition tp = log.topicPartition();
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

    /** The offsets of the logs and future logs in {@code dir} (a partition never has both in one dir). */
    private Map<TopicPartition, Long> offsetsIn(LogDir dir, ToLongFunction<PartitionLog> offset) {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        logsIn(dir).forEach(log -> offsets.put(log.topicPartition(), offset.applyAsLong(log)));
        return offsets;
    }

    private List<PartitionLog> logsIn(LogDir dir) {
        List<PartitionLog> in = new ArrayList<>();
        logs.forEach((tp, log) -> {
            if (dirOf.get(tp) == dir) {
                in.add(log);
            }
        });
        futures.forEach((tp, log) -> {
            if (futureDirOf.get(tp) == dir) {
                in.add(log);
            }
        });
        return in;
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
            for (PartitionLog log : logsIn(dir)) {
                try {
                    log.close();
                } catch (KafkaStorageException e) {
                    allClosed = false;
                    LOG.error("Closing {} failed; {} will be recovered at the next start", log.topicPartition(),
                            dir.path(), e);
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

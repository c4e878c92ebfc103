package io.tributary.broker.log.cleaner;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import io.tributary.broker.log.ClosedSegment;
import io.tributary.broker.log.LogConfig;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@code log.cleaner.threads} threads that compact the logs whose cleanup.policy contains 'compact'.
 * Each pass a thread takes the dirtiest log that no other thread is cleaning and whose dirty share (bytes of
 * closed segments written since its last clean) reaches min.cleanable.dirty.ratio, or whose kept tombstones
 * or transaction markers have reached their delete horizon; with nothing to do it sleeps {@code log.cleaner.backoff.ms}.
 *
 * <p>Where the last clean ended is kept in memory only: after a restart a log counts as wholly dirty and is
 * cleaned once more, which is harmless. Thread-safe.
 */
public final class LogCleaner implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LogCleaner.class);

    private final Supplier<Collection<PartitionLog>> logs;
    private final CleanerLogState state;
    private final Cleaner cleaner;
    private final Time time;
    private final long backoffMs;
    private final Map<PartitionLog, CleanResult> lastCleans = new ConcurrentHashMap<>();
    private final Set<PartitionLog> inProgress = ConcurrentHashMap.newKeySet();
    private final List<Thread> threads = new ArrayList<>();
    private final Object sleeper = new Object();
    private volatile boolean closed;

    LogCleaner(Supplier<Collection<PartitionLog>> logs, CleanerLogState state, Time time, long backoffMs) {
        this.logs = logs;
        this.state = state;
        this.cleaner = new Cleaner(time, state);
        this.time = time;
        this.backoffMs = backoffMs;
    }

    /** Starts the cleaner threads of {@code defaults} (none when log.cleaner.enable is false). */
    public static LogCleaner start(LogManager logManager, CleanerLogState state, LogConfig defaults, Time time) {
        LogCleaner cleaner = new LogCleaner(logManager::logs, state, time, defaults.cleanerBackoffMs());
        for (int i = 0; i < defaults.cleanerThreads(); i++) {
            Thread thread = new Thread(cleaner::run, "tributary-log-cleaner-" + i);
            thread.setDaemon(true);
            cleaner.threads.add(thread);
            thread.start();
        }
        return cleaner;
    }

    private void run() {
        while (!closed) {
            boolean cleaned;
            try {
                cleaned = cleanOnce();
            } catch (RuntimeException e) {
                log.error("log cleaning failed", e);
                cleaned = false;
            }
            if (!cleaned) {
                synchronized (sleeper) {
                    try {
                        sleeper.wait(Math.max(1, backoffMs));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }
    }

    /** Cleans the dirtiest log that needs it, if any. @return true if a log was cleaned */
    boolean cleanOnce() {
        lastCleans.keySet().retainAll(logs.get());
        Optional<PartitionLog> chosen = claimDirtiest();
        if (chosen.isEmpty()) {
            return false;
        }
        PartitionLog partitionLog = chosen.get();
        try {
            CleanResult result = cleaner.clean(partitionLog);
            if (result.swapped()) {
                lastCleans.put(partitionLog, result); // else the log changed under the clean: it stays dirty
            }
            return true;
        } catch (KafkaStorageException e) {
            log.warn("could not clean {} (deleted meanwhile?): {}", partitionLog.topicPartition(), e.getMessage());
            return false;
        } finally {
            inProgress.remove(partitionLog);
        }
    }

    private synchronized Optional<PartitionLog> claimDirtiest() {
        PartitionLog dirtiest = null;
        double highest = -1;
        long now = time.milliseconds();
        for (PartitionLog candidate : logs.get()) {
            if (!candidate.config().compactionEnabled() || inProgress.contains(candidate)) {
                continue;
            }
            List<ClosedSegment> cleanable = cleanable(candidate, now);
            double ratio = dirtyRatio(candidate, cleanable);
            CleanResult last = lastCleans.get(candidate);
            boolean tombstonesDue = last != null && now >= last.earliestTombstoneHorizonMs();
            boolean overdue = CleanableSegments.overdue(cleanable, firstDirtyOffset(candidate), candidate.config(), now);
            boolean due = ratio > 0 && (ratio >= candidate.config().minCleanableDirtyRatio() || overdue);
            if ((due || tombstonesDue) && ratio > highest) {
                dirtiest = candidate;
                highest = ratio;
            }
        }
        if (dirtiest != null) {
            inProgress.add(dirtiest);
        }
        return Optional.ofNullable(dirtiest);
    }

    /**
     * Bytes of cleanable segments written since the last clean, as a share of the bytes of all cleanable segments
     * (0 if none). Segments younger than min.compaction.lag.ms or reaching the last stable offset are not cleanable.
     */
    double dirtyRatio(PartitionLog partitionLog) {
        return dirtyRatio(partitionLog, cleanable(partitionLog, time.milliseconds()));
    }

    private List<ClosedSegment> cleanable(PartitionLog partitionLog, long now) {
        return CleanableSegments.of(partitionLog.closedSegments(), state.lastStableOffset(partitionLog),
                partitionLog.config(), now);
    }

    private long firstDirtyOffset(PartitionLog partitionLog) {
        CleanResult last = lastCleans.get(partitionLog);
        return last == null ? -1 : last.cleanedUpToOffset();
    }

    private double dirtyRatio(PartitionLog partitionLog, List<ClosedSegment> cleanable) {
        long firstDirty = firstDirtyOffset(partitionLog);
        long total = 0;
        long dirty = 0;
        for (ClosedSegment segment : cleanable) {
            long size = segment.records().sizeInBytes();
            total += size;
            if (segment.baseOffset() >= firstDirty) {
                dirty += size;
            }
        }
        return total == 0 ? 0 : (double) dirty / total;
    }

    /** Stops the threads; a clean in progress finishes (its swap is atomic either way). */
    @Override
    public void close() throws InterruptedException {
        closed = true;
        synchronized (sleeper) {
            sleeper.notifyAll();
        }
        for (Thread thread : threads) {
            thread.join();
        }
    }
}

package io.tributary.broker.purgatory;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Parks delayed operations under keys until {@link #checkAndComplete} of one of their keys
 * satisfies them or their deadline passes. One timer thread; no thread waits per operation.
 * Thread-safe.
 *
 * @param <K> what operations wait on, e.g. a TopicPartition
 */
public final class Purgatory<K> implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Purgatory.class);

    private final Map<K, Set<DelayedOperation>> watchers = new ConcurrentHashMap<>();
    private final ScheduledThreadPoolExecutor timer;

    public Purgatory(String name) {
        timer = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "tributary-purgatory-" + name);
            thread.setDaemon(true);
            return thread;
        });
        timer.setRemoveOnCancelPolicy(true);
    }

    /**
     * Completes the operation now if it can; otherwise parks it under {@code keys} and arms its
     * deadline. @return true if it completed immediately
     */
    public boolean tryCompleteElseWatch(DelayedOperation operation, Collection<K> keys) {
        if (operation.tryComplete()) {
            return true;
        }
        List<K> watched = List.copyOf(keys);
        for (K key : watched) {
            // Add inside the map's own atomic step: unwatch may remove a key's set the moment it empties,
            // and an operation added to a set already out of the map would never be woken.
            watchers.compute(key, (k, set) -> {
                Set<DelayedOperation> operations = set != null ? set : ConcurrentHashMap.newKeySet();
                operations.add(operation);
                return operations;
            });
        }
        ScheduledFuture<?> expiry = timer.schedule(() -> expire(operation), operation.delayMs(), TimeUnit.MILLISECONDS);
        operation.onDone(() -> {
            expiry.cancel(false);
            unwatch(operation, watched);
        });
        // A key may have changed between the first check and the watch: check once more.
        if (operation.tryComplete() || operation.isCompleted()) {
            expiry.cancel(false);
            unwatch(operation, watched);
            return false;
        }
        return false;
    }

    /** Re-checks the operations waiting on {@code key}; call after the key changed. */
    public void checkAndComplete(K key) {
        Set<DelayedOperation> waiting = watchers.get(key);
        if (waiting == null) {
            return;
        }
        for (DelayedOperation operation : waiting) {
            try {
                operation.tryComplete();
            } catch (RuntimeException e) {
                log.error("delayed operation failed its check; completing it", e);
                operation.forceComplete();
            }
        }
    }

    /** Operations parked right now (each counted under every key it watches). */
    public int watched() {
        return watchers.values().stream().mapToInt(Set::size).sum();
    }

    private void expire(DelayedOperation operation) {
        try {
            operation.forceComplete();
        } catch (RuntimeException e) {
            log.error("delayed operation failed on expiry", e);
        }
    }

    private void unwatch(DelayedOperation operation, List<K> keys) {
        for (K key : keys) {
            watchers.computeIfPresent(key, (k, set) -> {
                set.remove(operation);
                return set.isEmpty() ? null : set;
            });
        }
    }

    /** Completes every parked operation now (shutdown: answer waiting clients), then stops the timer. */
    @Override
    public void close() {
        watchers.values().forEach(set -> set.forEach(DelayedOperation::forceComplete));
        timer.shutdownNow();
    }
}

package io.tributary.broker.security;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Once a second, has each watched {@link ReloadableSslFactory} look at its keystore and truststore files, on a daemon
 * thread of its own (started with the first factory that has files). Polling the files' time and size finds a changed
 * file however it was replaced (rewritten, renamed over, a symbolic link swapped), at the cost of two file lookups per
 * TLS listener a second. Thread-safe.
 */
public final class TlsFileWatcher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TlsFileWatcher.class);
    private static final long INTERVAL_MS = 1_000;

    private final List<ReloadableSslFactory> factories = new CopyOnWriteArrayList<>();
    private ScheduledExecutorService thread;
    private boolean closed;

    synchronized void watch(ReloadableSslFactory factory) {
        if (factory.files().isEmpty() || closed) {
            return;
        }
        factories.add(factory);
        if (thread == null) {
            thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread watcher = new Thread(runnable, "tributary-tls-file-watcher");
                watcher.setDaemon(true);
                return watcher;
            });
            thread.scheduleWithFixedDelay(this::checkAll, INTERVAL_MS, INTERVAL_MS, TimeUnit.MILLISECONDS);
        }
    }

    private void checkAll() {
        for (ReloadableSslFactory factory : factories) {
            try {
                factory.maybeReload();
            } catch (RuntimeException e) {
                log.error("checking TLS files {} failed", factory.files(), e); // and the next check tries again
            }
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (thread != null) {
            thread.shutdownNow();
        }
    }
}

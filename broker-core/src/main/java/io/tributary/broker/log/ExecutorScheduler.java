package io.tributary.broker.log;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The production {@link Scheduler}: one daemon thread of a {@link ScheduledThreadPoolExecutor}, on wall time. */
final class ExecutorScheduler implements Scheduler {

    private static final Logger LOG = LoggerFactory.getLogger(ExecutorScheduler.class);

    private final ScheduledThreadPoolExecutor executor;

    ExecutorScheduler(String threadName) {
        executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        });
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
    }

    @Override
    public void schedule(String name, Runnable task, long delayMs, long periodMs) {
        Runnable guarded = () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.error("Background task {} failed", name, e);
            }
        };
        if (periodMs > 0) {
            executor.scheduleAtFixedRate(guarded, delayMs, periodMs, TimeUnit.MILLISECONDS);
        } else {
            executor.schedule(guarded, delayMs, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.warn("Log scheduler did not stop within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

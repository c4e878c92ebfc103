package io.tributary.broker.log;

/**
 * Runs the log's background work: periodic flush, retention and checkpoint tasks, and delayed file deletions.
 * Injected so that tests drive it from a fake clock.
 */
interface Scheduler extends AutoCloseable {

    /**
     * Runs {@code task} after {@code delayMs}, then every {@code periodMs} if it is positive. A task that throws
     * is logged and keeps its schedule.
     */
    void schedule(String name, Runnable task, long delayMs, long periodMs);

    /** Stops running tasks; pending delayed tasks are dropped. Waits for a running task to finish. */
    @Override
    void close();
}

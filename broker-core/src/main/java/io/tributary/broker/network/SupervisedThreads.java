package io.tributary.broker.network;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Threads that are replaced when they die. A thread whose task ends before {@link #stop()} (by a
 * Throwable, or by returning) is logged and replaced by a new thread of the same name running a task
 * from its replacement supplier: a broker whose network or handler threads quietly die one by one
 * would stop answering with nothing in its log. Thread-safe.
 */
public final class SupervisedThreads {
    private static final Logger log = LoggerFactory.getLogger(SupervisedThreads.class);
    /** Pause before a replacement starts, so a task that dies at once cannot spin. */
    private static final long REPLACEMENT_DELAY_MS = 100;

    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopping;

    /** Runs {@code first} on a new thread named {@code name}; if it dies, a task from {@code replacement} takes over. */
    public void start(String name, Runnable first, Supplier<Runnable> replacement) {
        startThread(name, first, replacement, false);
    }

    private synchronized void startThread(String name, Runnable task, Supplier<Runnable> replacement, boolean delayed) {
        if (stopping) {
            return;
        }
        Thread thread = new Thread(() -> supervise(name, task, replacement, delayed), name);
        threads.removeIf(t -> !t.isAlive());
        threads.add(thread);
        thread.start();
    }

    private void supervise(String name, Runnable task, Supplier<Runnable> replacement, boolean delayed) {
        Throwable death = null;
        try {
            if (delayed) {
                Thread.sleep(REPLACEMENT_DELAY_MS);
            }
            (task != null ? task : replacement.get()).run();
        } catch (Throwable e) {
            death = e;
        }
        if (stopping) {
            return;
        }
        if (death != null) {
            log.error("thread {} died; starting a replacement", name, death);
        } else {
            log.error("thread {} ended unexpectedly; starting a replacement", name);
        }
        startThread(name, null, replacement, true);
    }

    /** No more replacements from now on; the running threads stop by their own means. */
    public void stop() {
        stopping = true;
    }

    /** Waits up to {@code timeoutMs} for each thread to end. */
    public void join(long timeoutMs) throws InterruptedException {
        List<Thread> current;
        synchronized (this) {
            current = new ArrayList<>(threads);
        }
        for (Thread thread : current) {
            thread.join(timeoutMs);
        }
    }

    /** Threads alive now (for tests and diagnostics). */
    public synchronized int alive() {
        return (int) threads.stream().filter(Thread::isAlive).count();
    }
}

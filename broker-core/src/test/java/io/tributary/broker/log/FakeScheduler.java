package io.tributary.broker.log;

import io.tributary.broker.testing.FakeTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A {@link Scheduler} on a {@link FakeTime}: tasks run on the test thread when {@link #advance} passes them. */
final class FakeScheduler implements Scheduler {

    private final FakeTime time;
    private final List<Task> tasks = new ArrayList<>();
    private boolean closed;

    private static final class Task {
        final Runnable body;
        final long periodMs;
        long dueMs;

        Task(Runnable body, long dueMs, long periodMs) {
            this.body = body;
            this.dueMs = dueMs;
            this.periodMs = periodMs;
        }
    }

    FakeScheduler(FakeTime time) {
        this.time = time;
    }

    @Override
    public synchronized void schedule(String name, Runnable task, long delayMs, long periodMs) {
        if (!closed) {
            tasks.add(new Task(task, time.milliseconds() + delayMs, periodMs));
        }
    }

    /** Moves the clock forward and runs every task that becomes due, in due-time order. */
    void advance(long ms) {
        time.sleep(ms);
        runDue();
    }

    /** Runs the tasks due now (including ones they schedule for now). */
    void runDue() {
        while (true) {
            Task next;
            synchronized (this) {
                next = tasks.stream().filter(t -> t.dueMs <= time.milliseconds())
                        .min(Comparator.comparingLong(t -> t.dueMs)).orElse(null);
                if (next == null || closed) {
                    return;
                }
                if (next.periodMs > 0) {
                    next.dueMs += next.periodMs;
                } else {
                    tasks.remove(next);
                }
            }
            next.body.run();
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        tasks.clear();
    }
}

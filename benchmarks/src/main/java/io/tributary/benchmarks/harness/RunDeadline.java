package io.tributary.benchmarks.harness;

import java.io.PrintStream;
import java.time.Duration;

/**
 * Bounds a run in time: once the limit has passed, the JVM exits with status 124 (like
 * {@code timeout(1)}), and the shutdown hook of {@link ChildProcesses} stops the brokers.
 */
public final class RunDeadline {
    static final int EXIT_STATUS = 124;

    private RunDeadline() {
    }

    public static void start(Duration limit, PrintStream err) {
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(limit.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            err.println("benchmark run exceeded its limit of " + limit.toSeconds() + " s; stopping the brokers");
            System.exit(EXIT_STATUS);
        }, "run-deadline");
        watchdog.setDaemon(true);
        watchdog.start();
    }
}

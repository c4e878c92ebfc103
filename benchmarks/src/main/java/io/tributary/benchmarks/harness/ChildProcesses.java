package io.tributary.benchmarks.harness;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The child JVMs this harness started, so that a shutdown hook can stop whatever is still running
 * when the harness exits early (an error, its deadline, Ctrl-C): SIGTERM first, then SIGKILL.
 */
public final class ChildProcesses {
    private static final long GRACE_MILLIS = 15_000;

    private final Set<Process> live = ConcurrentHashMap.newKeySet();

    /** Registers the JVM-wide shutdown hook. */
    public static ChildProcesses withShutdownHook() {
        ChildProcesses children = new ChildProcesses();
        Runtime.getRuntime().addShutdownHook(new Thread(children::stopAll, "stop-child-brokers"));
        return children;
    }

    void add(Process process) {
        live.add(process);
    }

    /** Stops one child: SIGTERM, and SIGKILL if it has not exited after the grace period. Thread-safe. */
    void stop(Process process) {
        process.destroy();
        awaitOrKill(process, System.currentTimeMillis() + GRACE_MILLIS);
        live.remove(process);
    }

    private void stopAll() {
        live.forEach(Process::destroy);
        long deadline = System.currentTimeMillis() + GRACE_MILLIS;
        live.forEach(process -> awaitOrKill(process, deadline));
    }

    private static void awaitOrKill(Process process, long deadlineMillis) {
        try {
            long remaining = Math.max(0, deadlineMillis - System.currentTimeMillis());
            if (!process.waitFor(remaining, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}

package io.tributary.benchmarks.harness;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Runs another class's {@code main} in this JVM and exits the JVM when the process that started it
 * exits. Every broker the harness starts goes through it, so that even a harness killed with
 * SIGKILL (whose shutdown hook cannot run) leaves no broker behind.
 *
 * <pre>OrphanGuard &lt;main class&gt; [arguments ...]</pre>
 */
public final class OrphanGuard {
    private OrphanGuard() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            System.err.println("usage: OrphanGuard <main class> [arguments ...]");
            System.exit(2);
        }
        // For a process that is not our child the JDK polls, backing off to every 5 s: no measurable cost.
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> System.exit(0)));
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}

package io.tributary.chaos.process;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * A main class in a JVM of its own, started from this JVM's class path, possibly through a prefix
 * that execs it elsewhere (such as {@code ip netns exec <ns>}), its output appended to a log file.
 * The faults are signals: SIGKILL, SIGTERM (clean stop), SIGSTOP/SIGCONT (a pause the process does
 * not notice). Not thread-safe: one fault driver uses it.
 */
public final class ChildJvm {
    /** The line written to the log before each start, so readers can tell the processes apart. */
    public static final String START_MARKER = "#### chaos: starting ";
    private static final long POLL_MILLIS = 100;
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        // Children outlive a JVM that is stopped before it could stop them; do not leave them behind.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly), "child-jvm-clean-up"));
    }

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private final String name;
    private final List<String> command;
    private final Path output;
    private Process process;
    private boolean paused;

    /**
     * @param prefix   what runs the JVM (empty to run it directly); it must exec, so the pid is the JVM's
     * @param jvmFlags flags such as the heap size
     */
    public ChildJvm(String name, List<String> prefix, List<String> jvmFlags, String mainClass, List<String> arguments, Path output) {
        this.name = name;
        List<String> all = new ArrayList<>(prefix);
        all.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        all.addAll(jvmFlags);
        all.addAll(List.of("-cp", absoluteClassPath(), mainClass));
        all.addAll(arguments);
        this.command = List.copyOf(all);
        this.output = output;
    }

    private static String absoluteClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }

    /** Starts the JVM and waits until {@code ready} holds; fails with the log's tail if it exits or the deadline passes. */
    public void start(BooleanSupplier ready, Duration timeout) {
        if (isAlive()) {
            throw new IllegalStateException(name + " is running already");
        }
        try {
            Files.writeString(output, START_MARKER + name + "\n", StandardCharsets.ISO_8859_1,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile())).start();
            Process started = process;
            RUNNING.add(started);
            started.onExit().thenRun(() -> RUNNING.remove(started));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
        paused = false;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ready.getAsBoolean()) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + " while starting; end of "
                        + output + ":\n" + tail());
            }
            if (System.nanoTime() > deadline) {
                kill();
                throw new IllegalStateException(name + " was not ready within " + timeout + "; end of " + output + ":\n" + tail());
            }
            sleep(POLL_MILLIS);
        }
    }

    /** The number of lines the log file has now (to look only at what a new start writes). */
    public long outputLines() {
        if (!Files.exists(output)) {
            return 0;
        }
        try (var lines = Files.lines(output, StandardCharsets.ISO_8859_1)) {
            return lines.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether a line after the first {@code skip} lines of the log contains {@code text}. */
    public boolean printed(String text, long skip) {
        try (var lines = Files.lines(output, StandardCharsets.ISO_8859_1)) {
            return lines.skip(skip).anyMatch(line -> line.contains(text));
        } catch (IOException e) {
            return false;
        }
    }

    /** SIGKILL; waits until the process is gone. */
    public void kill() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        awaitExit(STOP_TIMEOUT);
        paused = false;
    }

    /** SIGTERM (a clean stop); waits for it. @return the exit code */
    public int terminate() {
        if (paused) {
            resume();
        }
        process.destroy();
        awaitExit(STOP_TIMEOUT);
        return process.exitValue();
    }

    /** SIGSTOP: the process freezes, its sockets stay open. */
    public void pause() {
        signal("STOP");
        paused = true;
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() {
        signal("CONT");
        paused = false;
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    public String name() {
        return name;
    }

    public Path output() {
        return output;
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(name + " did not exit within " + timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(output, StandardCharsets.ISO_8859_1);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

package io.tributary.hadoop.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a command of the built distribution (bin/tributary-loader, or java with the job jar) in
 * a process of its own, as a user would, and collects what it printed. The environment is this
 * JVM's without {@code HADOOP_CONF_DIR}, plus what the test sets.
 */
public final class LoaderCommand {
    public static final Path MODULE = Paths.get("").toAbsolutePath();
    public static final Path TARGET = MODULE.resolve("target");
    public static final Path LOADER_SCRIPT = MODULE.resolve("../bin/tributary-loader").normalize();

    /** Enough for a YARN job on 2 cores shared with other work (one took 260 s at a load average of 40). */
    private static final long TIMEOUT_SECONDS = 480;

    private final Path work;
    private final Map<String, String> environment = new HashMap<>();
    private static final AtomicInteger RUNS = new AtomicInteger();

    public LoaderCommand(Path work) {
        this.work = work;
        environment.put("JAVA", java());
        environment.put("TRIBUTARY_JVM_OPTS", "-Xmx512m -Djava.io.tmpdir=" + work);
    }

    public LoaderCommand env(String name, String value) {
        environment.put(name, value);
        return this;
    }

    /** bin/tributary-loader with these arguments. */
    public Result loader(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", LOADER_SCRIPT.toString()));
        command.addAll(args);
        return run(command);
    }

    public Result run(List<String> command) throws IOException, InterruptedException {
        int run = RUNS.incrementAndGet(); // unique across instances: every run keeps its output files
        Path stdout = work.resolve("run-" + run + ".out");
        Path stderr = work.resolve("run-" + run + ".err");
        ProcessBuilder builder = new ProcessBuilder(command).directory(MODULE.toFile())
            .redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        builder.environment().remove("HADOOP_CONF_DIR");
        builder.environment().putAll(environment);
        long started = System.nanoTime();
        Process process = builder.start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("timed out after " + TIMEOUT_SECONDS + " s: " + command + "\n" + Files.readString(stderr, StandardCharsets.UTF_8));
        }
        System.out.printf("%s exited %d after %.1f s%n", command, process.exitValue(), (System.nanoTime() - started) / 1e9);
        return new Result(process.exitValue(), Files.readString(stdout, StandardCharsets.UTF_8), Files.readString(stderr, StandardCharsets.UTF_8));
    }

    public static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    public record Result(int exitCode, String stdout, String stderr) {
        /** Both streams, for assertion messages. */
        public String output() {
            return "stdout:\n" + stdout + "\nstderr:\n" + stderr;
        }
    }
}

package io.tributary.sink;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SinkMain} in a child JVM with the test JVM's class path, as {@code bin/tributary-sink}
 * runs it, or the loader's main as {@code bin/tributary-loader} runs it without a cluster. Its
 * output goes to {@code <name>.log} in the work directory.
 */
final class SinkProcess implements AutoCloseable {
    private final Process process;
    private final Path log;

    private SinkProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static SinkProcess start(Path workDir, String name, Map<String, ?> props, String... jvmOptions) throws IOException {
        Path config = workDir.resolve(name + ".properties");
        Properties p = new Properties();
        props.forEach((k, v) -> p.setProperty(k, String.valueOf(v)));
        try (Writer out = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
            p.store(out, "test sink " + name);
        }
        return launch(workDir, name, List.of(jvmOptions), SinkMain.class.getName(), List.of(config.toString()));
    }

    /** {@code TopicLoader} with {@code args}, with the local job runner in the child JVM. */
    static SinkProcess startLoader(Path workDir, String name, List<String> args, String... jvmOptions) throws IOException {
        return launch(workDir, name, List.of(jvmOptions), io.tributary.hadoop.loader.TopicLoader.class.getName(), args);
    }

    private static SinkProcess launch(Path workDir, String name, List<String> jvmOptions, String mainClass, List<String> args)
            throws IOException {
        Path log = workDir.resolve(name + ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-Djava.io.tmpdir=" + workDir);
        command.add("-Dlog4j.configuration=" + SinkProcess.class.getResource("/child-log4j.properties"));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new SinkProcess(process, log);
    }

    /** SIGKILL: no shutdown hook, no commit, open files and intents stay behind. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("killed sink exited").isTrue();
    }

    /** SIGSTOP: the sink stays in the group but reads nothing, as in a long pause, until {@link #resume()}. */
    void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0).as("kill -%s %d", name, process.pid()).isTrue();
    }

    /** SIGTERM, then asserts the sink committed its open files and exited as a terminated JVM does (143). */
    void assertStopsCleanly() throws InterruptedException, IOException {
        assertThat(terminate()).as("exit code after SIGTERM; %s", logEnd()).isEqualTo(143);
        assertThat(logText()).as("log of %s", log).contains(SinkMain.STOPPED_CLEANLY);
    }

    /** SIGTERM; waits up to 60 s for the exit and returns its code. */
    int terminate() throws InterruptedException, IOException {
        if (!process.isAlive()) {
            throw new AssertionError("sink exited with " + process.exitValue() + " before the SIGTERM; " + logEnd());
        }
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            throw new AssertionError("sink did not stop on SIGTERM within 60 s; " + logEnd());
        }
        return process.exitValue();
    }

    /** The log's path and last lines, for assertion messages: a CI report shows those, not the file. */
    String logEnd() throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return "the log " + log + " ends:\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    /** Waits for the sink to exit on its own and returns its exit code. */
    int awaitExit(Duration timeout) throws InterruptedException, IOException {
        assertThat(process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)).as("sink exited within %s; %s", timeout, logEnd()).isTrue();
        return process.exitValue();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String logText() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }
}

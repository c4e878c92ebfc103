package io.tributary.compat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Kafka program that runs until it is done or stopped (Kafka's Verifiable producer and consumer), in a JVM of its
 * own on this JVM's class path, as Kafka's system tests run them: they end with {@code System.exit} and stop cleanly
 * on SIGTERM. Standard output goes to a file that the test reads while the program runs; each line is a JSON event.
 */
final class ChildJvm implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String name;
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private ChildJvm(String name, Process process, Path stdout, Path stderr) {
        this.name = name;
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** Starts {@code mainClass} with {@code args}; {@code name} names its output files in {@code dir}. */
    static ChildJvm start(Class<?> mainClass, Path dir, String name, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // a short-lived client: quick to start, small
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(List.of(args));
        Path stdout = dir.resolve(name + ".out");
        Path stderr = dir.resolve(name + ".err");
        Process process = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        return new ChildJvm(name, process, stdout, stderr);
    }

    /** The JSON events printed so far, in order; other lines (a log line, a half-written last line) are skipped. */
    List<JsonNode> events() {
        List<JsonNode> events = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(stdout)) {
                if (line.startsWith("{") && line.endsWith("}")) {
                    events.add(JSON.readTree(line));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return events;
    }

    /** The events named {@code name}. */
    List<JsonNode> events(String eventName) {
        return events().stream().filter(event -> event.path("name").asText().equals(eventName)).toList();
    }

    /** Waits for the program to end by itself; returns its exit code. */
    int awaitExit(Duration timeout) throws InterruptedException, IOException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(name + " still runs after " + timeout + "; stderr: " + Files.readString(stderr));
        }
        return process.exitValue();
    }

    /** SIGTERM, as a user's Ctrl-C: the program's shutdown hook closes its client. Waits for the end. */
    void stop(Duration timeout) throws InterruptedException, IOException {
        process.destroy();
        awaitExit(timeout);
    }

    /** What the program logged, for failure messages. */
    String stderr() throws IOException {
        return Files.readString(stderr);
    }

    /** Kills the program if it still runs (a test that failed half-way), and waits until it is gone. */
    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
}

package io.tributary.broker.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One of Apache Kafka's command-line tools (kafka-tools 4.4, on the test class path) run in a JVM of its own, as a
 * user runs it: its exit calls and its output cannot touch the test's JVM.
 */
public final class KafkaTool {
    private KafkaTool() {
    }

    /** Runs {@code mainClass} with {@code args}; the deadline is two minutes. */
    public static ExternalCommand.Result run(Class<?> mainClass, Path workDir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(List.of(args));
        return ExternalCommand.run(command, workDir, "", 120);
    }

    /** As {@link #run}, and fails unless the tool exits 0; returns what it printed on standard output. */
    public static String succeed(Class<?> mainClass, Path workDir, String... args) throws Exception {
        ExternalCommand.Result result = run(mainClass, workDir, args);
        assertThat(result.exitCode()).as("%s %s: %s %s", mainClass.getSimpleName(), String.join(" ", args), result.stdout(),
                result.stderr()).isZero();
        return result.stdout();
    }
}

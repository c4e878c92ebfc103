package io.tributary.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's first command as a newcomer runs it: {@code bin/tributary-quickstart} with its
 * defaults (only the port is free-picked), from a fresh directory, against the packaged jars.
 * It must finish on its own, cleanly, within two minutes.
 */
class QuickStartScriptIT {
    private static final Path SCRIPT = Path.of("..", "bin", "tributary-quickstart").toAbsolutePath().normalize();

    @Test
    void theScriptRunsThePipelineAndExitsCleanlyWithinTwoMinutes(@TempDir Path cwd) throws Exception {
        Path output = cwd.resolve("console.txt");
        Process process = new ProcessBuilder(SCRIPT.toString(), "--port", "0")
            .directory(cwd.toFile())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
        try {
            boolean exited = process.waitFor(120, TimeUnit.SECONDS);
            String console = Files.readString(output, StandardCharsets.UTF_8);

            assertThat(exited).as("exited within 2 minutes; console so far:%n%s", console).isTrue();
            assertThat(process.exitValue()).as("exit code; console:%n%s", console).isZero();
            assertThat(console).contains("== Summary").doesNotContain("DISAGREE");
            assertThat(console.lines().filter(line -> line.endsWith("all agree"))).hasSize(2);
            assertThat(cwd.resolve("tributary-data/warehouse/page-views")).isDirectory();
            assertThat(cwd.resolve("tributary-data/warehouse/server-logs")).isDirectory();
            assertThat(cwd.resolve("tributary-data/quickstart.log")).isNotEmptyFile();
        } finally {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}

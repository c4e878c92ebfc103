package io.tributary.broker.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs an outside client (kcat, node) to completion with a deadline and captures what it printed. */
public final class ExternalCommand {
    private ExternalCommand() {
    }

    /** What a finished command printed. */
    public record Result(int exitCode, String stdout, String stderr) {
    }

    /** Output is captured in temporary files (never in {@code workDir}), removed afterwards. */
    public static Result run(List<String> command, Path workDir, String stdin, long timeoutSeconds) throws IOException, InterruptedException {
        return run(command, Map.of(), workDir, stdin, timeoutSeconds);
    }

    /** {@link #run(List, Path, String, long)} with {@code environment} added to this JVM's. */
    public static Result run(List<String> command, Map<String, String> environment, Path workDir, String stdin, long timeoutSeconds)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("command", ".out");
        Path err = Files.createTempFile("command", ".err");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            builder.environment().putAll(environment);
            Process process = builder.start();
            try (OutputStream in = process.getOutputStream()) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(command + " did not finish within " + timeoutSeconds + " s; stderr: " + Files.readString(err));
            }
            return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}

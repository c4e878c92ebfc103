package io.tributary.chaos.net;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs iproute2's {@code ip} with a deadline; a non-zero exit is an error unless the caller tolerates it. */
final class IpCommand {
    static final String IP_PATH = "/usr/sbin/ip";
    private static final long TIMEOUT_SECONDS = 20;

    private IpCommand() {
    }

    /** Runs {@code ip args...}; throws with its output if it fails. @return what it printed */
    static String run(String... args) {
        Result result = attempt(args);
        if (result.exitCode != 0) {
            throw new IllegalStateException("ip " + String.join(" ", args) + " failed (" + result.exitCode + "): " + result.output);
        }
        return result.output;
    }

    /** Runs {@code ip args...} and ignores a failure (for clean-up of things that may be gone already). */
    static void tolerant(String... args) {
        attempt(args);
    }

    private record Result(int exitCode, String output) {
    }

    private static Result attempt(String... args) {
        List<String> command = new ArrayList<>(List.of(IP_PATH));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(command + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
            return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + IP_PATH + " (the fault suite needs iproute2 and root)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        }
    }
}

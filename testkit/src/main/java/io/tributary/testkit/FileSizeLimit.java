package io.tributary.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A running process's file size limit ({@code RLIMIT_FSIZE}), set from outside with util-linux's {@code prlimit}: no
 * write may make a file of that process larger, so a write across the limit stops part-way and the next fails, as on
 * a full disk (the JVM ignores the SIGXFSZ that comes with it). The hard limit stays unlimited, so that lifting it
 * needs no privilege.
 */
public final class FileSizeLimit {
    private static final long TIMEOUT_SECONDS = 10;

    private FileSizeLimit() {
    }

    /** Files of process {@code pid} may grow to {@code bytes} and no further. */
    public static void set(long pid, long bytes) {
        prlimit(pid, bytes + ":unlimited");
    }

    /** Files of process {@code pid} may grow again. */
    public static void lift(long pid) {
        prlimit(pid, "unlimited:unlimited");
    }

    private static void prlimit(long pid, String limits) {
        try {
            Process process = new ProcessBuilder("prlimit", "--pid", Long.toString(pid), "--fsize=" + limits)
                    .redirectErrorStream(true).start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("prlimit did not finish within " + TIMEOUT_SECONDS + " s");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("prlimit --pid " + pid + " --fsize=" + limits + " failed ("
                        + process.exitValue() + "): " + new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run prlimit (util-linux)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running prlimit", e);
        }
    }
}

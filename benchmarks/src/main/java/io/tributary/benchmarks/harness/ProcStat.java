package io.tributary.benchmarks.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time a Linux process has used, read from {@code /proc/<pid>/stat}: user plus system time
 * of all its threads, in clock ticks (see {@code getconf CLK_TCK}).
 *
 * <p>The line is {@code pid (comm) state ppid ...}; {@code comm} is the executable name and may
 * itself contain spaces and parentheses, so fields are counted from the last {@code ')'}.
 * utime and stime are fields 14 and 15 of the whole line (1-based).
 */
public final class ProcStat {
    /** Fields after the closing parenthesis start at field 3 (state). */
    private static final int FIRST_FIELD_AFTER_COMM = 3;
    private static final int UTIME_FIELD = 14;
    private static final int STIME_FIELD = 15;
    private static final long DEFAULT_TICKS_PER_SECOND = 100;

    private final Path procRoot;
    private final long ticksPerSecond;

    /** @param ticksPerSecond the kernel's USER_HZ, almost always 100 */
    public ProcStat(Path procRoot, long ticksPerSecond) {
        if (ticksPerSecond <= 0) {
            throw new IllegalArgumentException("ticks per second must be positive, got " + ticksPerSecond);
        }
        this.procRoot = procRoot;
        this.ticksPerSecond = ticksPerSecond;
    }

    /** Reads {@code /proc} with this kernel's clock tick rate ({@code getconf CLK_TCK}; 100 if that fails). */
    public static ProcStat forThisMachine() {
        return new ProcStat(Path.of("/proc"), clockTicksPerSecond());
    }

    private static long clockTicksPerSecond() {
        try {
            Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            if (getconf.waitFor() == 0 && out.matches("\\d+")) {
                return Long.parseLong(out);
            }
        } catch (IOException e) {
            // fall through: Linux has used USER_HZ = 100 on every common architecture for decades
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return DEFAULT_TICKS_PER_SECOND;
    }

    /** CPU seconds (user + system) that process {@code pid} has used since it started. */
    public double cpuSeconds(long pid) {
        Path stat = procRoot.resolve(Long.toString(pid)).resolve("stat");
        try {
            return cpuTicks(Files.readString(stat, StandardCharsets.US_ASCII)) / (double) ticksPerSecond;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + stat + " (has process " + pid + " exited?)", e);
        }
    }

    /** utime + stime of one {@code /proc/<pid>/stat} line, in clock ticks. */
    public static long cpuTicks(String statLine) {
        int commEnd = statLine.lastIndexOf(')');
        if (commEnd < 0) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + statLine);
        }
        String[] fields = statLine.substring(commEnd + 1).trim().split("\\s+");
        int stimeIndex = STIME_FIELD - FIRST_FIELD_AFTER_COMM;
        if (fields.length <= stimeIndex) {
            throw new IllegalArgumentException("too few fields in /proc/<pid>/stat line: " + statLine);
        }
        try {
            return Long.parseLong(fields[UTIME_FIELD - FIRST_FIELD_AFTER_COMM]) + Long.parseLong(fields[stimeIndex]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("utime/stime are not numbers in: " + statLine, e);
        }
    }
}

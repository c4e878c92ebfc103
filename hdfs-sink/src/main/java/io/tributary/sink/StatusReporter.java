package io.tributary.sink;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.PrintStream;
import java.util.List;

/**
 * Reports partition snapshots: a summary plus one line per partition in the log every
 * {@code logIntervalMs} (the partition lines at DEBUG beyond {@value #PARTITION_LINES_AT_INFO}
 * partitions), and, when a console is attached, a one-line status rewritten in place every
 * second. Poll thread only.
 */
final class StatusReporter {
    private static final Logger log = LoggerFactory.getLogger(StatusReporter.class);
    private static final long CONSOLE_INTERVAL_MS = 1000;
    static final int PARTITION_LINES_AT_INFO = 20;

    private final long logIntervalMs;
    private final PrintStream console; // null when not interactive
    private long nextLogMs;
    private long nextConsoleMs;

    StatusReporter(long logIntervalMs, PrintStream console, long nowMs) {
        this.logIntervalMs = logIntervalMs;
        this.console = console;
        this.nextLogMs = nowMs + logIntervalMs;
        this.nextConsoleMs = nowMs;
    }

    /** The reporter for this process: the console line on stdout if {@code console} says so. */
    static StatusReporter forProcess(long logIntervalMs, ConsoleStatus console, long nowMs) {
        return new StatusReporter(logIntervalMs, console.isOn(System.console() != null) ? System.out : null, nowMs);
    }

    /** Whether the one-line console status is shown. */
    boolean hasConsole() {
        return console != null;
    }

    /** The next time a snapshot is wanted. */
    boolean isDue(long nowMs) {
        return nowMs >= nextLogMs || (console != null && nowMs >= nextConsoleMs);
    }

    void report(List<PartitionStatus> partitions, long nowMs) {
        String summary = summary(partitions);
        if (console != null && nowMs >= nextConsoleMs) {
            console.print("\r" + summary + "   ");
            console.flush();
            nextConsoleMs = nowMs + CONSOLE_INTERVAL_MS;
        }
        if (nowMs >= nextLogMs) {
            log.info(summary);
            if (partitions.size() <= PARTITION_LINES_AT_INFO) {
                partitions.forEach(p -> log.info(p.logLine()));
            } else if (log.isDebugEnabled()) {
                partitions.forEach(p -> log.debug(p.logLine()));
            }
            nextLogMs = nowMs + logIntervalMs;
        }
    }

    static String summary(List<PartitionStatus> partitions) {
        long lag = 0;
        long unknownLag = 0;
        long freshness = 0;
        double rate = 0;
        long files = 0;
        long recovering = 0;
        long lostRanges = 0;
        long lostRecords = 0;
        long held = 0;
        PartitionStatus longestHeld = null;
        for (PartitionStatus p : partitions) {
            if (p.heldBy().isPresent()) {
                held++;
                if (longestHeld == null || p.heldBy().get().sinceMs() < longestHeld.heldBy().get().sinceMs()) {
                    longestHeld = p;
                }
            }
            lostRanges += p.lostRanges();
            lostRecords += p.lostRecords();
            if (p.lag() < 0) {
                unknownLag++;
            } else {
                lag += p.lag();
            }
            freshness = Math.max(freshness, p.freshnessMs());
            rate += p.recordsPerSecond();
            files += p.filesCommitted();
            recovering += p.recovering() ? 1 : 0;
        }
        return String.format("tributary-sink: %d partitions, lag %d%s, oldest uncommitted %d ms, %.0f records/s, "
            + "%d files committed%s%s%s", partitions.size(), lag, unknownLag > 0 ? " (+" + unknownLag + " not fetched yet)" : "",
            freshness, rate, files,
            lostRanges > 0 ? ", " + lostRanges + " lost ranges skipped (" + lostRecords + " offsets, see _tributary/lost-ranges)" : "",
            recovering > 0 ? ", " + recovering + " RECOVERING (storage unreachable)" : "",
            held > 0 ? ", " + held + " HELD by open transactions (longest: " + longestHeld.partition() + " "
                + longestHeld.heldBy().get().describe() + ")" : "");
    }
}

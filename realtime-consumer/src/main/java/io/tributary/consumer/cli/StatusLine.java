package io.tributary.consumer.cli;

import org.apache.kafka.common.utils.Time;

import java.io.PrintWriter;
import java.util.OptionalLong;

/**
 * The live "records, rate, lag" line that {@code consume} keeps rewriting on a terminal's stderr
 * (carriage return, then erase to end of line). Redrawn at most once a second; the rate is over
 * the time since the previous redraw. Not thread-safe.
 */
final class StatusLine {
    private static final long REDRAW_NANOS = 1_000_000_000L;

    private final PrintWriter terminal;
    private final Time time;
    private long lastDrawNanos;
    private long lastDrawCount;

    StatusLine(PrintWriter terminal, Time time) {
        this.terminal = terminal;
        this.time = time;
        this.lastDrawNanos = time.nanoseconds();
    }

    /** Redraws if a second has passed since the last redraw. */
    void maybeRedraw(long consumed, OptionalLong lag) {
        long now = time.nanoseconds();
        if (now - lastDrawNanos < REDRAW_NANOS) {
            return;
        }
        double rate = (consumed - lastDrawCount) * 1e9 / (now - lastDrawNanos);
        terminal.print(String.format("\r\u001b[K%d records  %.1f records/s  lag %s", consumed, rate,
                lag.isPresent() ? Long.toString(lag.getAsLong()) : "?"));
        terminal.flush();
        lastDrawNanos = now;
        lastDrawCount = consumed;
    }

    /** Erases the line, leaving the cursor at its start. */
    void clear() {
        terminal.print("\r\u001b[K");
        terminal.flush();
    }
}

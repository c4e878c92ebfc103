package io.tributary.sink;

/** Exponential backoff: {@code initialMs}, doubling per consecutive failure, capped at {@code maxMs}. */
public record Backoff(long initialMs, long maxMs) {
    public Backoff {
        if (initialMs < 1 || maxMs < initialMs) {
            throw new IllegalArgumentException("bad backoff " + initialMs + ".." + maxMs + " ms");
        }
    }

    /** The wait after the {@code failures}-th consecutive failure (1-based). */
    public long delayMs(int failures) {
        int doublings = Math.min(Math.max(failures - 1, 0), 30);
        return Math.min(maxMs, initialMs << doublings);
    }
}

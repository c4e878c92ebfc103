package io.tributary.consumer.cli;

import org.apache.kafka.common.utils.Time;

/**
 * Spaces calls evenly at {@code perSecond} per second on the given clock: call n may pass at
 * start + n / perSecond, so short stalls are caught up instead of lowering the average rate.
 * Not thread-safe.
 */
final class RateLimiter {
    private final Time time;
    private final double nanosPerPermit;
    private final long startNanos;
    private long granted;

    RateLimiter(Time time, double perSecond) {
        if (!(perSecond > 0)) {
            throw new IllegalArgumentException("rate must be positive, got " + perSecond);
        }
        this.time = time;
        this.nanosPerPermit = 1e9 / perSecond;
        this.startNanos = time.nanoseconds();
    }

    /** Blocks until the next call is due. */
    void acquire() {
        long due = startNanos + (long) (granted++ * nanosPerPermit);
        long waitNanos = due - time.nanoseconds();
        if (waitNanos > 0) {
            time.sleep(Math.max(1, waitNanos / 1_000_000));
        }
    }
}

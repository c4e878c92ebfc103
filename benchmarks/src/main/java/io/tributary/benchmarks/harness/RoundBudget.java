package io.tributary.benchmarks.harness;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Keeps a run inside its time limit on a busy machine by cutting rounds rather than the run: each
 * section (produce, consume, latency) may end by its share of the limit, and starts another round
 * only if a round as long as its last one still ends by then. Every section gets at least
 * {@link #MIN_ROUNDS} rounds, so that each side has gone first once.
 */
public final class RoundBudget {
    public static final int MIN_ROUNDS = 2;

    private final LongSupplier nanoClock;
    private final long startNanos;
    private final long limitNanos;

    /** @param nanoClock a monotonic clock in nanoseconds, {@code System::nanoTime} outside tests */
    public RoundBudget(LongSupplier nanoClock, Duration limit) {
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
        this.limitNanos = limit.toNanos();
    }

    /**
     * Whether another round may start.
     *
     * @param roundsDone rounds this section has run so far
     * @param lastRound  how long the last of them took
     * @param share      the fraction of the limit by which the section must end
     */
    public boolean allowsAnother(int roundsDone, Duration lastRound, double share) {
        if (roundsDone < MIN_ROUNDS) {
            return true;
        }
        long projectedEnd = nanoClock.getAsLong() - startNanos + lastRound.toNanos();
        return projectedEnd <= share * limitNanos;
    }

    /** Time since the budget started. */
    Duration elapsed() {
        return Duration.ofNanos(nanoClock.getAsLong() - startNanos);
    }

    /** Nanoseconds on the budget's clock, for timing rounds. */
    long now() {
        return nanoClock.getAsLong();
    }
}

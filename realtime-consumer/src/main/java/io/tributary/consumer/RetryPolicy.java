package io.tributary.consumer;

import java.time.Duration;
import java.util.Objects;

/**
 * How often a failing handler is retried and how long to wait between attempts: the wait starts at
 * {@code initialBackoff} and doubles after each failure, capped at {@code maxBackoff}.
 */
public final class RetryPolicy {
    private final int maxRetries;
    private final Duration initialBackoff;
    private final Duration maxBackoff;

    private RetryPolicy(int maxRetries, Duration initialBackoff, Duration maxBackoff) {
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries must be >= 0, got " + maxRetries);
        }
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("need 0 <= initialBackoff <= maxBackoff, got "
                    + initialBackoff + " and " + maxBackoff);
        }
        this.maxRetries = maxRetries;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
    }

    public static RetryPolicy exponential(int maxRetries, Duration initialBackoff, Duration maxBackoff) {
        return new RetryPolicy(maxRetries, initialBackoff, maxBackoff);
    }

    /** Fail over to the {@link FailurePolicy} on the first failure. */
    public static RetryPolicy none() {
        return new RetryPolicy(0, Duration.ZERO, Duration.ZERO);
    }

    public int maxRetries() {
        return maxRetries;
    }

    /** The wait before retry number {@code retry} (1-based). */
    public Duration backoffBefore(int retry) {
        if (retry < 1) {
            throw new IllegalArgumentException("retry numbers start at 1, got " + retry);
        }
        Duration backoff = initialBackoff;
        for (int i = 1; i < retry && backoff.compareTo(maxBackoff) < 0; i++) {
            backoff = backoff.multipliedBy(2);
        }
        return backoff.compareTo(maxBackoff) > 0 ? maxBackoff : backoff;
    }

    @Override
    public String toString() {
        return maxRetries + " retries, backoff " + initialBackoff + " doubling up to " + maxBackoff;
    }
}

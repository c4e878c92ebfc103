package io.tributary.examples;

import org.apache.kafka.common.utils.Time;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

/** Waits for a condition the pipeline cannot be told about (a count catching up), polling it. */
public final class Deadline {
    private static final long POLL_MS = 100;

    private final Time time;

    public Deadline(Time time) {
        this.time = time;
    }

    /** The condition to wait for; may throw, which ends the wait. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /**
     * Returns once {@code condition} holds.
     *
     * @throws TimeoutException naming {@code what} if it does not hold within {@code timeout}
     */
    public void await(String what, Duration timeout, Condition condition) throws Exception {
        long end = time.milliseconds() + timeout.toMillis();
        while (!condition.holds()) {
            if (time.milliseconds() >= end) {
                throw new TimeoutException("gave up after " + timeout.toSeconds() + " s waiting for " + what);
            }
            time.sleep(POLL_MS);
        }
    }
}

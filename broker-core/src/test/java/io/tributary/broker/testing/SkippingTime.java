package io.tributary.broker.testing;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.utils.Time;

/**
 * The system clock, which a test can move forward at once: a broker on it sees the time pass that {@link #skip}
 * adds (an idle id expiring, a deadline passing) without the test waiting for it, and runs at real speed otherwise.
 * Thread-safe.
 */
public final class SkippingTime implements Time {
    private final AtomicLong skippedMs = new AtomicLong();

    @Override
    public long milliseconds() {
        return System.currentTimeMillis() + skippedMs.get();
    }

    @Override
    public long nanoseconds() {
        return System.nanoTime() + skippedMs.get() * 1_000_000L;
    }

    @Override
    public void sleep(long ms) {
        Time.SYSTEM.sleep(ms);
    }

    /** From now on the clock reads {@code skipped} later than it would have. */
    public void skip(Duration skipped) {
        skippedMs.addAndGet(skipped.toMillis());
    }
}

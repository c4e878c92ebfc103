package io.tributary.broker.testing;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.utils.Time;

/** A clock for tests outside the log package: it moves only when told to; {@link #sleep} advances it. */
public final class FakeTime implements Time {
    private final AtomicLong nowMs = new AtomicLong(1_700_000_000_000L);

    @Override
    public long milliseconds() {
        return nowMs.get();
    }

    @Override
    public long nanoseconds() {
        return TimeUnit.MILLISECONDS.toNanos(nowMs.get());
    }

    @Override
    public void sleep(long ms) {
        nowMs.addAndGet(ms);
    }
}

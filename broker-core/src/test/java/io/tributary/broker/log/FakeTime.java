package io.tributary.broker.log;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.utils.Time;

/** A clock that moves only when a test says so; {@link #sleep} advances it instead of waiting. */
final class FakeTime implements Time {

    private final AtomicLong nowMs;

    FakeTime(long startMs) {
        this.nowMs = new AtomicLong(startMs);
    }

    FakeTime() {
        this(1_700_000_000_000L);
    }

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

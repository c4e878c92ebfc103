package io.tributary.consumer.cli;

import org.apache.kafka.common.utils.Time;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when slept on, or by {@code tick} on every reading of the nanosecond
 * clock (to make "once a second" code fire on each call).
 */
final class FakeTime implements Time {
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final long tick;

    FakeTime(long tickNanos) {
        this.tick = tickNanos;
    }

    @Override
    public long milliseconds() {
        return nanos.get() / 1_000_000;
    }

    @Override
    public long nanoseconds() {
        return nanos.addAndGet(tick);
    }

    @Override
    public void sleep(long ms) {
        nanos.addAndGet(ms * 1_000_000);
    }
}

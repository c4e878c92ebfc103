package io.tributary.hadoop.dataset;

import org.apache.kafka.common.utils.Time;

import java.time.Duration;

/** The system clock, moved by a fixed amount (file modification times stay real). */
final class ShiftedTime implements Time {
    private final long shiftMs;

    ShiftedTime(Duration shift) {
        this.shiftMs = shift.toMillis();
    }

    @Override
    public long milliseconds() {
        return System.currentTimeMillis() + shiftMs;
    }

    @Override
    public long nanoseconds() {
        return System.nanoTime() + shiftMs * 1_000_000;
    }

    @Override
    public void sleep(long ms) {
        throw new UnsupportedOperationException("the ledger never sleeps");
    }
}

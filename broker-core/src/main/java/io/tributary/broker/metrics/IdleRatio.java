package io.tributary.broker.metrics;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The share of their time a pool of threads spent waiting for work (Kafka's NetworkProcessorAvgIdlePercent, as a
 * ratio from 0 to 1): each thread reports each turn of its loop and how much of it it waited. The ratio is that of
 * the last complete window of {@value #WINDOW_SECONDS} s, or of the current one before the first is complete.
 * Recording is two adds and a clock read; thread-safe.
 */
public final class IdleRatio {
    static final long WINDOW_SECONDS = 10;
    private static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(WINDOW_SECONDS);

    private final LongSupplier nanoClock;
    private volatile Window current;
    private volatile Window previous;

    /** One window's sums; a turn that ends in it counts in it whole. */
    private static final class Window {
        final long startNanos;
        final LongAdder idleNanos = new LongAdder();
        final LongAdder turnNanos = new LongAdder();

        Window(long startNanos) {
            this.startNanos = startNanos;
        }

        double ratio() {
            long turns = turnNanos.sum();
            return turns == 0 ? Double.NaN : Math.min(1.0, (double) idleNanos.sum() / turns);
        }
    }

    public IdleRatio() {
        this(System::nanoTime);
    }

    IdleRatio(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.current = new Window(nanoClock.getAsLong());
    }

    /** A thread finished one turn of its loop, {@code turnNanos} long, {@code idleNanos} of it waiting. */
    public void record(long idleNanos, long turnNanos) {
        Window window = windowAt(nanoClock.getAsLong());
        window.idleNanos.add(idleNanos);
        window.turnNanos.add(turnNanos);
    }

    /** The idle share of the last complete window (NaN before any thread finished a turn). */
    public double ratio() {
        windowAt(nanoClock.getAsLong());
        Window done = previous;
        if (done != null && done.turnNanos.sum() > 0) {
            return done.ratio();
        }
        return current.ratio();
    }

    private Window windowAt(long now) {
        Window window = current;
        if (now - window.startNanos < WINDOW_NANOS) {
            return window;
        }
        synchronized (this) {
            window = current;
            if (now - window.startNanos >= WINDOW_NANOS) {
                previous = window;
                current = new Window(now);
            }
            return current;
        }
    }
}

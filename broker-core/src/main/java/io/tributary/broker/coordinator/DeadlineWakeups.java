package io.tributary.broker.coordinator;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a deadline check at the moment the earliest deadline comes due, instead of sweeping at a fixed rate: whoever
 * sets a deadline asks to be woken by it ({@link #wakeBy}), and the check returns the next deadline it knows of,
 * which arms the next wake-up. A deadline that moved later (a heartbeat) needs no call; the check then finds
 * nothing due and sleeps until the new deadline. So a deadline is acted on within the timer thread's scheduling
 * delay of its time, and nothing runs while no deadline is near. Thread-safe.
 */
public final class DeadlineWakeups {
    private static final Logger log = LoggerFactory.getLogger(DeadlineWakeups.class);
    /** After a failed check, when to try again (its next deadline is unknown). */
    static final long RETRY_AFTER_FAILURE_MS = 1_000;

    private final ScheduledExecutorService timer;
    private final Time time;
    private final String name;
    private volatile LongSupplier check = () -> Long.MAX_VALUE;
    private long armedAtMs = Long.MAX_VALUE;
    private ScheduledFuture<?> armed;
    private long generation;

    /** Wake-ups on {@code timer} for deadlines on {@code time}; {@code name} is for the log. */
    public DeadlineWakeups(ScheduledExecutorService timer, Time time, String name) {
        this.timer = timer;
        this.time = time;
        this.name = name;
    }

    /**
     * Sets the check, before any deadline comes due (the owner of the deadlines is usually built after this).
     * @param check acts on what is due and returns the earliest deadline still ahead (ms on the clock), or
     *              {@link Long#MAX_VALUE} if none
     */
    public void checkWith(LongSupplier check) {
        this.check = check;
    }

    /** Makes sure the check runs at {@code deadlineMs} or earlier. Cheap when a wake-up that early is armed already. */
    public void wakeBy(long deadlineMs) {
        synchronized (this) {
            if (deadlineMs >= armedAtMs || timer.isShutdown()) {
                return;
            }
            if (armed != null) {
                armed.cancel(false);
            }
            long token = ++generation;
            armedAtMs = deadlineMs;
            armed = timer.schedule(() -> fire(token), Math.max(0, deadlineMs - time.milliseconds()), TimeUnit.MILLISECONDS);
        }
    }

    private void fire(long token) {
        synchronized (this) {
            if (token != generation) {
                return; // replaced by an earlier wake-up, which runs (or ran) the check
            }
            armedAtMs = Long.MAX_VALUE;
            armed = null;
        }
        long next;
        try {
            next = check.getAsLong();
        } catch (RuntimeException e) {
            log.error("{} failed; checking again in {} ms", name, RETRY_AFTER_FAILURE_MS, e);
            next = time.milliseconds() + RETRY_AFTER_FAILURE_MS;
        }
        if (next != Long.MAX_VALUE) {
            wakeBy(next);
        }
    }
}

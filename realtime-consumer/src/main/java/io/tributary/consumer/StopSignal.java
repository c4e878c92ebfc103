package io.tributary.consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Tells the poll loop to finish, from any thread: because someone closes the consumer or because
 * processing failed for good. Waking the consumer cuts a poll() in progress short.
 */
final class StopSignal {
    private static final Logger log = LoggerFactory.getLogger(StopSignal.class);

    private final Runnable wakeUp;
    private final long failureCloseTimeoutMs;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean requested;
    private volatile long deadlineMs = Long.MAX_VALUE;

    /**
     * @param wakeUp                 interrupts a blocking poll (the consumer's {@code wakeup()})
     * @param failureCloseTimeoutMs  time left for the final commit when stopping on a failure
     */
    StopSignal(Runnable wakeUp, long failureCloseTimeoutMs) {
        this.wakeUp = wakeUp;
        this.failureCloseTimeoutMs = failureCloseTimeoutMs;
    }

    /** Stop; the final commit should be done by {@code deadlineMs} (the earliest request wins). */
    void request(long deadlineMs) {
        synchronized (this) {
            this.deadlineMs = Math.min(this.deadlineMs, deadlineMs);
        }
        requested = true;
        wakeUp.run();
    }

    /** Stop because of {@code cause} (the first failure is kept), {@code nowMs} being the current time. */
    void fail(Throwable cause, long nowMs) {
        if (failure.compareAndSet(null, cause)) {
            log.error("Realtime consumer stopping after a failure", cause);
        }
        request(nowMs + failureCloseTimeoutMs);
    }

    boolean requested() {
        return requested;
    }

    long deadlineMs() {
        return deadlineMs;
    }

    Throwable failure() {
        return failure.get();
    }
}

package io.tributary.broker.purgatory;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An operation that completes when its condition holds or its deadline passes. Thread-safe:
 * {@link #tryComplete()} may run on any thread that changed a watched key, and completion happens
 * exactly once.
 */
public abstract class DelayedOperation {
    private final long delayMs;
    private final AtomicBoolean completed = new AtomicBoolean();
    private volatile Runnable onDone = () -> { };

    protected DelayedOperation(long delayMs) {
        this.delayMs = delayMs;
    }

    public long delayMs() {
        return delayMs;
    }

    /** Checks the condition; if it holds, completes (via {@link #forceComplete()}) and returns true. */
    public abstract boolean tryComplete();

    /** Produces the result; called once, by whichever of condition or deadline came first. */
    protected abstract void onComplete();

    /** Completes now whatever the condition; false if it had already completed. */
    public final boolean forceComplete() {
        if (!completed.compareAndSet(false, true)) {
            return false;
        }
        try {
            onComplete();
        } finally {
            onDone.run();
        }
        return true;
    }

    public final boolean isCompleted() {
        return completed.get();
    }

    /** The purgatory's clean-up hook (unwatch, cancel the timer). */
    final void onDone(Runnable hook) {
        this.onDone = hook;
    }
}

package io.tributary.broker.log;

import java.util.function.LongConsumer;

/**
 * Where the logs of one {@link LogManager} report how long each flush (an fsync of segments up to an offset) took: the
 * broker's log flush timer listens. Thread-safe; flushes before anyone listens go unheard.
 */
public final class FlushTimes {
    private volatile LongConsumer listener = nanos -> { };

    /** {@code listener} hears the duration in nanoseconds of every flush from now on, on the flushing thread. */
    public void listen(LongConsumer listener) {
        this.listener = listener;
    }

    void flushed(long nanos) {
        listener.accept(nanos);
    }
}

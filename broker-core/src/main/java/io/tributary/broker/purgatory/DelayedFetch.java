package io.tributary.broker.purgatory;

import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A fetch long-poll: re-reads when a watched partition changes and answers as soon as the read
 * is {@code enough} (min.bytes reached, or an error to report), or with whatever there is at the
 * deadline (max.wait.ms).
 *
 * @param <R> the read result (the handler's response data)
 */
public final class DelayedFetch<R> extends DelayedOperation {
    private final Supplier<R> read;
    private final Predicate<R> enough;
    private final Consumer<R> respond;
    private volatile R satisfying;

    public DelayedFetch(long maxWaitMs, Supplier<R> read, Predicate<R> enough, Consumer<R> respond) {
        super(maxWaitMs);
        this.read = read;
        this.enough = enough;
        this.respond = respond;
    }

    @Override
    public boolean tryComplete() {
        if (isCompleted()) {
            return false;
        }
        R result = read.get();
        if (!enough.test(result)) {
            return false;
        }
        satisfying = result;
        return forceComplete();
    }

    @Override
    protected void onComplete() {
        R result = satisfying;
        respond.accept(result != null ? result : read.get());
    }
}

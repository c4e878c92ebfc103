package io.tributary.broker.metrics;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * ISR changes this broker made as leader and stored in ZooKeeper, Kafka's IsrShrinksPerSec and IsrExpandsPerSec: a
 * shrink drops followers that fell behind, an expansion adds one that caught up. Changes the controller makes (a
 * dead broker removed) are not counted, as in Kafka. Thread-safe.
 */
public final class IsrChanges {
    private final LongAdder shrinks = new LongAdder();
    private final LongAdder expands = new LongAdder();

    /** A leader stored {@code after} in place of {@code before}. */
    public void stored(List<Integer> before, List<Integer> after) {
        if (!before.containsAll(after)) {
            expands.increment();
        }
        if (!after.containsAll(before)) {
            shrinks.increment();
        }
    }

    public long shrinks() {
        return shrinks.sum();
    }

    public long expands() {
        return expands.sum();
    }
}

package io.tributary.sink;

/**
 * The limits the poll loop enforces: file rotation, the memory budget over all open writers,
 * and the backoff after storage failures.
 */
record SinkLimits(RotationPolicy rotation, long memoryBudgetBytes, Backoff backoff) {
    SinkLimits {
        if (memoryBudgetBytes < 1) {
            throw new IllegalArgumentException("memory budget must be positive: " + memoryBudgetBytes);
        }
    }
}

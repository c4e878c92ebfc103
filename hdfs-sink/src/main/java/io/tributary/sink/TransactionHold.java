package io.tributary.sink;

import java.time.Instant;

/**
 * A partition the sink is held at by an open transaction: reading {@code read_committed}, it cannot go past
 * {@code offset}, its last stable offset, until the transaction of {@code producerId} (-1 if the broker did not say)
 * commits or aborts. {@code sinceMs}: when the sink first saw it held there.
 */
public record TransactionHold(long offset, long producerId, long sinceMs) {
    String describe() {
        return "at offset " + offset + " by the open transaction of producer " + producerId + " since "
            + Instant.ofEpochMilli(sinceMs);
    }
}

package io.tributary.hadoop.dataset;

import java.util.Map;
import java.util.TreeMap;

/**
 * A ledger state as one writer read it, with the number of the version file it came from (0:
 * no version yet). A writer plans from it and later advances the ledger only if the partitions
 * it writes still hold the offsets it read ({@link OffsetLedger#advance}).
 */
public record LedgerVersion(long number, LedgerState state) {
    /** The entries of {@code partitions} as read; a partition without one is absent. */
    public Map<Integer, Long> entriesOf(Iterable<Integer> partitions) {
        Map<Integer, Long> entries = new TreeMap<>();
        for (int p : partitions) {
            state.nextOffset(p).ifPresent(o -> entries.put(p, o));
        }
        return entries;
    }
}

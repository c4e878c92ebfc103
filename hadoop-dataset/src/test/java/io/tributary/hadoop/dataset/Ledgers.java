package io.tributary.hadoop.dataset;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Ledger writes of tests: a writer that reads the ledger and advances it at once. */
public final class Ledgers {
    private Ledgers() {
    }

    /** A commit with no intent file: nothing to pin, as for a writer that never needs a recovery. */
    public static LedgerCommit unpinned(String id) {
        return new LedgerCommit(id, List.of());
    }

    /** Reads {@code ledger} and advances it from what it read, as a writer with nothing in between would. */
    public static LedgerState advanceNow(OffsetLedger ledger, Map<Integer, Long> nextOffsets) throws IOException {
        LedgerVersion read = ledger.readVersion();
        return ledger.advance(read.entriesOf(nextOffsets.keySet()), nextOffsets, unpinned("test-" + UUID.randomUUID())).state();
    }
}

package io.tributary.sink;

import java.util.OptionalLong;

/**
 * Where a partition resumes and the ledger it was planned from: its next offset there (empty if
 * the ledger had none) and the number of the version that held it. The partition's next commit
 * advances the ledger only if that entry is still there.
 *
 * @param position the first offset to read; empty for a partition the dataset has never seen
 */
record ResumePoint(OptionalLong position, long basisVersion, OptionalLong ledgerEntry) {
}

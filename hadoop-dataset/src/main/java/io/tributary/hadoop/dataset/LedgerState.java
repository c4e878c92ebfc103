package io.tributary.hadoop.dataset;

import java.util.Collections;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * The content of a topic's ledger: for each partition, the next offset to load (everything
 * below it is in the dataset). Immutable.
 */
public record LedgerState(String topic, Map<Integer, Long> nextOffsets) {
    public LedgerState {
        Topics.requireLegal(topic);
        TreeMap<Integer, Long> copy = new TreeMap<>();
        nextOffsets.forEach((p, o) -> {
            if (p < 0 || o < 0) {
                throw new IllegalArgumentException("bad ledger entry partition " + p + " -> " + o);
            }
            copy.put(p, o);
        });
        nextOffsets = Collections.unmodifiableMap(copy);
    }

    public static LedgerState empty(String topic) {
        return new LedgerState(topic, Map.of());
    }

    /** The next offset to load of {@code partition}, empty if the dataset has none of it yet. */
    public OptionalLong nextOffset(int partition) {
        Long next = nextOffsets.get(partition);
        return next == null ? OptionalLong.empty() : OptionalLong.of(next);
    }

    /**
     * The partitions of {@code partitions} whose entry is no longer what a writer read
     * ({@code read}; a partition absent there had no entry), with what it read and what is here:
     * the compare of a compare-and-set.
     */
    public Map<Integer, LedgerConflictException.Moved> movedSince(Map<Integer, Long> read, Set<Integer> partitions) {
        Map<Integer, LedgerConflictException.Moved> moved = new TreeMap<>();
        for (int p : partitions) {
            OptionalLong expected = read.containsKey(p) ? OptionalLong.of(read.get(p)) : OptionalLong.empty();
            OptionalLong now = nextOffset(p);
            if (!expected.equals(now)) {
                moved.put(p, new LedgerConflictException.Moved(expected, now));
            }
        }
        return moved;
    }

    /**
     * This state with {@code updates} applied.
     *
     * @throws LedgerRegressionException if any partition would move backward
     */
    public LedgerState advancedBy(Map<Integer, Long> updates) {
        TreeMap<Integer, Long> merged = new TreeMap<>(nextOffsets);
        updates.forEach((partition, next) -> {
            Long current = nextOffsets.get(partition);
            if (current != null && next < current) {
                throw new LedgerRegressionException(topic, partition, current, next);
            }
            merged.put(partition, next);
        });
        return new LedgerState(topic, merged);
    }

    /**
     * Where each partition resumes: the larger of the ledger's next offset and the offset after
     * the newest committed file (a file renamed just before a crash, before its ledger write).
     *
     * @param lastCommitted inclusive last offsets of the newest final files, per partition
     */
    public Map<Integer, Long> resumeOffsets(Map<Integer, Long> lastCommitted) {
        TreeMap<Integer, Long> resume = new TreeMap<>(nextOffsets);
        lastCommitted.forEach((partition, last) -> resume.merge(partition, last + 1, Math::max));
        return Collections.unmodifiableMap(resume);
    }
}

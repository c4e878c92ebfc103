package io.tributary.hadoop.dataset;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Concurrent writers of one topic's ledger on the local filesystem lose none of each other's entries. */
class OffsetLedgerConcurrencyTest {
    @TempDir
    java.nio.file.Path dir;

    @Test
    void writerThreadsOfDifferentPartitionsKeepEveryEntry() throws Exception {
        int updates = OffsetLedger.KEPT_VERSIONS + 5; // a few prunes, and many lost races
        Map<Integer, Long> last = ConcurrentLedgerWriters.inThreads(DatasetLayout.utc(new Path(dir.toUri())), new Configuration(), 3, updates);
        assertThat(last).isEqualTo(Map.of(0, (long) updates, 1, (long) updates, 2, (long) updates));
    }

    @Test
    void writersOfTheSamePartitionAdvanceItOneAtATime() throws Exception {
        ConcurrentLedgerWriters.raceForOnePartition(DatasetLayout.utc(new Path(dir.toUri())), new Configuration(), 3, 10);
    }
}

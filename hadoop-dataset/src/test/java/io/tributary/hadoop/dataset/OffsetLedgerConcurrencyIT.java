package io.tributary.hadoop.dataset;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Concurrent ledger writers in threads on HDFS (MiniDFSCluster), and in separate JVMs on the local
 * filesystem (two JVM starts cost more than the HDFS case would add: every writer has its own
 * {@link OffsetLedger} and shares nothing in memory with the others either way).
 */
class OffsetLedgerConcurrencyIT {
    private static final int UPDATES = OffsetLedger.KEPT_VERSIONS + 5;
    private static MiniDFSCluster dfs;
    private static Configuration conf;

    @TempDir
    java.nio.file.Path dir;

    @BeforeAll
    static void startHdfs(@TempDir java.nio.file.Path base) throws Exception {
        conf = new Configuration();
        dfs = new MiniDFSCluster.Builder(conf, base.resolve("dfs").toFile()).numDataNodes(1).build();
    }

    @AfterAll
    static void stopHdfs() {
        if (dfs != null) {
            dfs.shutdown();
        }
    }

    @Test
    void writerThreadsOnHdfsKeepEveryEntry() throws Exception {
        Map<Integer, Long> last = ConcurrentLedgerWriters.inThreads(hdfs("threads"), conf, 3, UPDATES);
        assertThat(last).isEqualTo(Map.of(0, (long) UPDATES, 1, (long) UPDATES, 2, (long) UPDATES));
    }

    @Test
    void writersOfTheSamePartitionOnHdfsAdvanceItOneAtATime() throws Exception {
        ConcurrentLedgerWriters.raceForOnePartition(hdfs("race"), conf, 3, 10);
    }

    @Test
    void writerProcessesOnTheLocalFilesystemKeepEveryEntry() throws Exception {
        DatasetLayout layout = DatasetLayout.utc(new Path(dir.toUri()));
        Map<Integer, Long> last = ConcurrentLedgerWriters.inProcesses(layout, new Configuration(), 2, UPDATES);
        assertThat(last).isEqualTo(Map.of(0, (long) UPDATES, 1, (long) UPDATES));
    }

    private static DatasetLayout hdfs(String name) throws Exception {
        return DatasetLayout.utc(new Path(dfs.getFileSystem().getUri().toString() + "/" + name));
    }
}

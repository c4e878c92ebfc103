package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.input.InputConfig;
import io.tributary.hadoop.testing.Datasets;
import io.tributary.hadoop.testing.BrokerExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The loader as a real YARN job (MiniMRYarnCluster) through ToolRunner, writing into HDFS (MiniDFSCluster). */
class YarnLoaderIT {
    @RegisterExtension
    static final BrokerExtension BROKER = new BrokerExtension();
    private static MiniDFSCluster dfs;
    private static MiniMRYarnCluster yarn;
    private static Configuration cluster;

    @BeforeAll
    static void startClusters(@TempDir java.nio.file.Path dir) throws Exception {
        Configuration conf = new Configuration();
        dfs = new MiniDFSCluster.Builder(conf, dir.resolve("dfs").toFile()).numDataNodes(1).build();
        conf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
        // Sized for 2 shared cores (see NOTES.md): small containers, no memory checks, quick stop.
        conf.setInt(MRJobConfig.MR_AM_VMEM_MB, 512);
        conf.setInt(MRJobConfig.MAP_MEMORY_MB, 384);
        conf.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx256m");
        conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
        conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
        conf.setLong(YarnConfiguration.NM_SLEEP_DELAY_BEFORE_SIGKILL_MS, 100);
        conf.setLong(YarnConfiguration.NM_PROCESS_KILL_WAIT_MS, 100);
        conf.setBoolean(YarnConfiguration.LOG_AGGREGATION_ENABLED, true);
        conf.setBoolean(MRJobConfig.MAP_SPECULATIVE, false);
        yarn = new MiniMRYarnCluster("tributary-loader-it", 1);
        yarn.init(conf);
        yarn.start();
        cluster = new Configuration(yarn.getConfig());
        cluster.set("mapreduce.client.completion.pollinterval", "100");
    }

    @AfterAll
    static void stopClusters() {
        if (yarn != null) {
            yarn.stop();
        }
        if (dfs != null) {
            dfs.shutdown();
        }
    }

    @Test
    void loadsAMillionRecordsOfSixPartitionsIntoHdfsExactlyOnce() throws Exception {
        int perPartition = 166_667; // 1,000,002 records
        BROKER.broker().createTopic("million", 6);
        BROKER.broker().produce("million", 6, perPartition, System.currentTimeMillis() - 3_600_000, 1,
            (p, i) -> ("value-" + i).getBytes(StandardCharsets.UTF_8));
        Path output = new Path(dfs.getFileSystem().getUri().toString() + "/data/million");

        LocalLoaderIT.Run run = LocalLoaderIT.load(cluster,
            "-D", MRJobConfig.JOB_UBERTASK_ENABLE + "=true",
            "-D", InputConfig.SPLIT_MAX_RECORDS + "=200000",
            "--bootstrap-server", BROKER.broker().bootstrapServers(), "--topic", "million", "--output", output.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("loaded " + 6 * perPartition + " records");
        Datasets.assertEveryOffsetOnce(output, "million", 6, perPartition, cluster);
        assertThat(LocalLoaderIT.ledger(output, "million", cluster)).hasSize(6).allSatisfy((p, next) -> assertThat(next).isEqualTo(perPartition));
        assertNoStagingLeft(output, "million");
    }

    @Test
    void retriedAndSpeculativeAttemptsNeverDuplicate() throws Exception {
        BROKER.broker().createTopic("flaky", 2);
        BROKER.broker().produce("flaky", 2, 5_000, System.currentTimeMillis() - 3_600_000, 1, (p, i) -> ("v" + i).getBytes(StandardCharsets.UTF_8));
        Path output = new Path(dfs.getFileSystem().getUri().toString() + "/data/flaky");

        LocalLoaderIT.Run run = LocalLoaderIT.load(cluster,
            "-D", MRJobConfig.JOB_UBERTASK_ENABLE + "=false",
            "-D", MRJobConfig.MAP_SPECULATIVE + "=true",
            "-D", MRJobConfig.MAP_CLASS_ATTR + "=" + FailFirstAttemptMapper.class.getName(),
            "-D", InputConfig.SPLIT_MAX_RECORDS + "=5000",
            "--bootstrap-server", BROKER.broker().bootstrapServers(), "--topic", "flaky", "--output", output.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("loaded 10000 records");
        Datasets.assertEveryOffsetOnce(output, "flaky", 2, 5_000, cluster);
        assertThat(LocalLoaderIT.ledger(output, "flaky", cluster)).isEqualTo(Map.of(0, 5_000L, 1, 5_000L));
        assertNoStagingLeft(output, "flaky");
    }

    private static void assertNoStagingLeft(Path output, String topic) throws Exception {
        FileSystem fs = output.getFileSystem(cluster);
        assertThat(fs.listStatus(DatasetLayout.utc(output).jobsDir(topic))).isEmpty();
    }
}

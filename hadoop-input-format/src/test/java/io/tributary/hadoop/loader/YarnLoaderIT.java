package io.tributary.hadoop.loader;

import io.tributary.hadoop.dataset.DatasetLayout;
import io.tributary.hadoop.testing.BrokerExtension;
import io.tributary.hadoop.testing.Datasets;
import io.tributary.hadoop.testing.HadoopInstallation;
import io.tributary.hadoop.testing.LoaderCommand;
import io.tributary.hadoop.testing.MiniHadoop;
import io.tributary.hadoop.testing.TestBroker;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * bin/tributary-loader as a user runs it against a YARN cluster: a process of its own that knows
 * the cluster only from the client {@code *-site.xml} files, submitting to HDFS, YARN and the
 * history server, whose containers have a Hadoop installation's jars and nothing of ours.
 */
@Timeout(1200) // two YARN jobs on 2 shared cores
class YarnLoaderIT {
    @RegisterExtension
    static final BrokerExtension BROKER = new BrokerExtension();
    private static final int PARTITIONS = 4;
    private static MiniHadoop cluster;

    @TempDir
    java.nio.file.Path work;

    @BeforeAll
    static void startCluster(@TempDir java.nio.file.Path dir) throws Exception {
        cluster = MiniHadoop.start(dir);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theContainersGetHadoopsJarsAndNoneOfOurs() throws Exception {
        List<String> jars = HadoopInstallation.jarNames(cluster.containerJars());
        assertThat(jars).anyMatch(n -> n.startsWith("hadoop-mapreduce-client-app-")).anyMatch(n -> n.startsWith("hadoop-hdfs-client-"))
            .noneMatch(n -> n.startsWith("kafka") || n.startsWith("parquet-") || n.startsWith("hadoop-input-format") || n.startsWith("hadoop-dataset")
                || n.startsWith("junit-"));
    }

    @Test
    void loadsATopicAsAYarnJobExactlyOnceAndIncrementallyWithAMapPerPartition() throws Exception {
        BROKER.broker().createTopic("clicks", PARTITIONS);
        BROKER.broker().produce("clicks", PARTITIONS, 12_500, System.currentTimeMillis() - 3_600_000, 1,
            (p, i) -> ("click-" + i).getBytes(StandardCharsets.UTF_8));
        Path output = new Path(cluster.hdfsUri() + "/data/lake");
        Configuration client = cluster.clientConf();
        LoaderCommand command = new LoaderCommand(work).env("HADOOP_CONF_DIR", cluster.clientConfDir().toString());

        LoaderCommand.Result first = command.loader(List.of("-D", LoaderConfig.PROGRESS_INTERVAL_MS + "=1000",
            "--bootstrap-server", BROKER.broker().bootstrapServers(), "--topic", "clicks", "--output", output.toString()));

        assertThat(first.exitCode()).as(first.output()).isZero();
        assertThat(first.stdout()).contains("plan: 4 splits (map tasks) for 50000 offsets of clicks in 4 of 4 partitions",
            "submitted application application_", "tracking URL: http://", "progress: running, map ",
            "loaded 50000 records", "lost ranges: none", "map tasks: 4, attempts: 4", "dataset: " + new Path(output, "clicks"));
        Datasets.assertEveryOffsetOnce(output, "clicks", PARTITIONS, 12_500, client);
        assertThat(LocalLoaderIT.ledger(output, "clicks", client)).hasSize(PARTITIONS).allSatisfy((p, next) -> assertThat(next).isEqualTo(12_500L));

        // More records, loaded by a job whose first task attempts fail half way (a mapper shipped
        // with -libjars) and whose maps may run speculatively, with the cluster named by --conf instead of the environment, and the
        // other generic options: -conf (which sets the progress interval) and -files.
        BROKER.broker().produce("clicks", PARTITIONS, 2_000, System.currentTimeMillis() - 3_600_000, 1,
            (p, i) -> ("later-" + i).getBytes(StandardCharsets.UTF_8));
        java.nio.file.Path extraConf = Files.writeString(work.resolve("loader-site.xml"), "<configuration><property><name>"
            + LoaderConfig.PROGRESS_INTERVAL_MS + "</name><value>1000</value></property></configuration>");
        java.nio.file.Path sideFile = Files.writeString(work.resolve("side.txt"), "shipped to every task");
        LoaderCommand.Result second = new LoaderCommand(work).loader(List.of("--conf", cluster.clientConfDir().toString(),
            "-conf", extraConf.toString(), "-files", sideFile.toString(),
            "-libjars", mapperJar().toString(),
            "-D", MRJobConfig.MAP_CLASS_ATTR + "=" + FailFirstAttemptMapper.class.getName(),
            "-D", MRJobConfig.MAP_SPECULATIVE + "=true",
            "--bootstrap-server", BROKER.broker().bootstrapServers(), "--topic", "clicks", "--output", output.toString()));

        assertThat(second.exitCode()).as(second.output()).isZero();
        assertThat(second.stdout()).as("tiny ranges packed into one split, its first attempt failed")
            .contains("plan: 1 split (map tasks) for 8000 offsets", "progress: running", "loaded 8000 records", "map tasks: 1, attempts: ")
            .doesNotContain("map tasks: 1, attempts: 1\n");
        Datasets.assertEveryOffsetOnce(output, "clicks", PARTITIONS, 14_500, client);
        assertThat(LocalLoaderIT.ledger(output, "clicks", client)).isEqualTo(Map.of(0, 14_500L, 1, 14_500L, 2, 14_500L, 3, 14_500L));
        FileSystem fs = output.getFileSystem(client);
        assertThat(fs.listStatus(DatasetLayout.utc(output).jobsDir("clicks"))).as("job staging left behind").isEmpty();
    }

    /**
     * With {@code --delegation-token} the containers get the token in the job's credentials and no password: they
     * read the topic over SASL with the token alone, which the loader renews while the job runs (it would expire
     * within the job otherwise) and expires at the end.
     */
    @Test
    void theContainersOfAJobWithATokenLogInWithItAlone() throws Exception {
        try (TestBroker secured = TestBroker.startWithTokens(work.resolve("secured"), Duration.ofSeconds(10))) {
            secured.addScramUser("etl", "etl-secret");
            secured.createTopic("payments", 2);
            secured.produce("payments", 2, 1_000, System.currentTimeMillis(), 1, (p, i) -> ("pay-" + i).getBytes(StandardCharsets.UTF_8));
            Path output = new Path(cluster.hdfsUri() + "/data/secured");
            LoaderCommand.Result load = new LoaderCommand(work).env("HADOOP_CONF_DIR", cluster.clientConfDir().toString())
                .loader(List.of("--bootstrap-server", secured.saslBootstrapServers(), "--topic", "payments", "--output",
                    output.toString(), "--command-config",
                    TestBroker.writeScramClientConfig(work.resolve("etl.properties"), "etl", "etl-secret").toString(),
                    "--delegation-token"));

            assertThat(load.exitCode()).as(load.output()).isZero();
            assertThat(load.stdout()).contains("submitted application application_", "loaded 2000 records");
            Datasets.assertEveryOffsetOnce(output, "payments", 2, 1_000, cluster.clientConf());
        }
    }

    /** A jar of the failure-injecting mapper alone, built from the test classes, as a user builds theirs. */
    private java.nio.file.Path mapperJar() throws IOException {
        String entry = FailFirstAttemptMapper.class.getName().replace('.', '/') + ".class";
        java.nio.file.Path jar = work.resolve("mapper.jar");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
             var in = FailFirstAttemptMapper.class.getClassLoader().getResourceAsStream(entry)) {
            out.putNextEntry(new JarEntry(entry));
            in.transferTo(out);
            out.closeEntry();
        }
        return jar;
    }
}

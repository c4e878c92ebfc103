package io.tributary.hadoop.loader;

import io.tributary.hadoop.testing.Datasets;
import io.tributary.hadoop.testing.BrokerExtension;
import io.tributary.hadoop.testing.HadoopInstallation;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two ways users start the loader, each in its own JVM: {@code bin/tributary-loader}, and
 * the job jar through Hadoop's {@code RunJar} (what {@code hadoop jar} does) with only Hadoop's
 * own jars on the class path. Runs after {@code package}, which builds both.
 */
class CommandLineIT {
    private static final java.nio.file.Path MODULE = Paths.get("").toAbsolutePath();
    private static final java.nio.file.Path TARGET = MODULE.resolve("target");
    @RegisterExtension
    static final BrokerExtension BROKER = new BrokerExtension();

    @TempDir
    java.nio.file.Path work;

    @BeforeAll
    static void createTopics() throws Exception {
        BROKER.broker().createTopic("cli", 2);
        BROKER.broker().produce("cli", 2, 2_000, System.currentTimeMillis() - 60_000, 1, (p, i) -> ("v" + i).getBytes(StandardCharsets.UTF_8));
    }


    @Test
    void binScriptLoadsWithTheLocalJobRunner() throws Exception {
        Path output = new Path(work.resolve("lake").toUri());
        List<String> command = new ArrayList<>(List.of("bash", MODULE.resolve("../bin/tributary-loader").normalize().toString()));
        command.addAll(localRunnerOptions());
        command.addAll(List.of("--bootstrap-server", BROKER.broker().bootstrapServers(), "--topic", "cli", "--output", output.toString()));

        Result result = run(command);
        assertThat(result.exitCode).as(result.stderr).isZero();
        assertThat(result.stdout).contains("loaded 4000 records");
        Datasets.assertEveryOffsetOnce(output, "cli", 2, 2_000, new Configuration());

        Result usage = run(List.of("bash", MODULE.resolve("../bin/tributary-loader").normalize().toString(), "--topic"));
        assertThat(usage.exitCode).isEqualTo(2);
        assertThat(usage.stderr).contains("--topic needs a value", "usage: tributary-loader");

        Result noCluster = run(List.of("bash", MODULE.resolve("../bin/tributary-loader").normalize().toString(),
            "--conf", work.resolve("no-such-dir").toString(), "--topic", "cli"));
        assertThat(noCluster.exitCode).isEqualTo(2);
        assertThat(noCluster.stderr).contains("no Hadoop configuration directory");
    }

    @Test
    void jobJarRunsThroughHadoopRunJarWithOnlyHadoopOnTheClassPath() throws Exception {
        java.nio.file.Path jobJar;
        try (Stream<java.nio.file.Path> jars = Files.list(TARGET)) {
            jobJar = jars.filter(p -> p.getFileName().toString().endsWith("-job.jar")).findFirst().orElseThrow();
        }
        Path output = new Path(work.resolve("jar-lake").toUri());
        List<String> command = new ArrayList<>(List.of(java(), "-cp", hadoopProvidedClassPath(jobJar),
            "org.apache.hadoop.util.RunJar", jobJar.toString()));
        command.addAll(localRunnerOptions());
        command.addAll(List.of("--bootstrap-server", BROKER.broker().bootstrapServers(), "--topic", "cli", "--output", output.toString(),
            "--start", "earliest"));

        Result result = run(command);
        assertThat(result.exitCode).as(result.stderr).isZero();
        assertThat(result.stdout).contains("loaded 4000 records");
        Datasets.assertEveryOffsetOnce(output, "cli", 2, 2_000, new Configuration());
    }

    /**
     * target/lib without the libraries a Hadoop installation does not have (Kafka's client,
     * Parquet and what only they pull in): roughly the class path of {@code hadoop jar}. The job
     * jar must bring those itself.
     */
    private static String hadoopProvidedClassPath(java.nio.file.Path jobJar) throws IOException {
        List<String> notInHadoop = HadoopInstallation.NOT_IN_HADOOP;
        Set<String> bundled;
        try (ZipFile zip = new ZipFile(jobJar.toFile())) {
            bundled = zip.stream().map(e -> e.getName()).filter(n -> n.startsWith("lib/") && n.endsWith(".jar"))
                .map(n -> n.substring("lib/".length())).collect(Collectors.toSet());
        }
        assertThat(bundled).as("Hadoop's own jars in the job jar").noneMatch(n -> n.startsWith("hadoop-") && notInHadoop.stream().noneMatch(n::startsWith));
        for (String library : notInHadoop) {
            assertThat(bundled).as("the job jar bundles " + library).anyMatch(n -> n.startsWith(library));
        }
        try (Stream<java.nio.file.Path> lib = Files.list(TARGET.resolve("lib"))) {
            return lib.filter(p -> notInHadoop.stream().noneMatch(p.getFileName().toString()::startsWith))
                .map(java.nio.file.Path::toString).collect(Collectors.joining(File.pathSeparator));
        }
    }

    private List<String> localRunnerOptions() {
        return List.of("-D", "mapreduce.framework.name=local", "-D", "fs.defaultFS=file:///",
            "-D", "hadoop.tmp.dir=" + work.resolve("hadoop-tmp"),
            "-D", "mapreduce.jobtracker.staging.root.dir=" + work.resolve("staging"),
            "-D", "mapreduce.client.completion.pollinterval=100");
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    private Result run(List<String> command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).directory(MODULE.toFile())
            .redirectOutput(work.resolve("stdout.txt").toFile()).redirectError(work.resolve("stderr.txt").toFile());
        builder.environment().put("JAVA", java());
        builder.environment().put("TRIBUTARY_JVM_OPTS", "-Xmx512m -Djava.io.tmpdir=" + work);
        builder.environment().remove("HADOOP_CONF_DIR");
        Process process = builder.start();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("timed out: " + command);
        }
        return new Result(process.exitValue(), Files.readString(work.resolve("stdout.txt")), Files.readString(work.resolve("stderr.txt")));
    }

    private record Result(int exitCode, String stdout, String stderr) {
    }
}

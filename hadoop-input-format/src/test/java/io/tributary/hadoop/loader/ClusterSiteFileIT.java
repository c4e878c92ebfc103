package io.tributary.hadoop.loader;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The loader's local-runner defaults against a {@code mapred-site.xml} on the class path, as
 * {@code hadoop jar} runs it. Needs a JVM of its own: Hadoop adds that file to every configuration
 * once a {@code JobConf} class has loaded, which in this test JVM has long happened, so the order
 * the loader reads the configuration in can only be seen in a fresh one.
 */
class ClusterSiteFileIT {
    @TempDir
    Path dir;

    @Test
    void aClusterNamedInMapredSiteGetsNoLocalDefaultsAndItsSettingsStay() throws Exception {
        Files.writeString(dir.resolve("mapred-site.xml"), """
            <configuration>
              <property><name>mapreduce.framework.name</name><value>yarn</value></property>
              <property><name>mapreduce.client.completion.pollinterval</name><value>1000</value></property>
            </configuration>
            """);

        assertThat(settingsOfALoaderJob(dir)).isEqualTo("poll=1000 maps=null");
    }

    @Test
    void aLocalSiteFileStillGetsTheLocalDefaults() throws Exception {
        Files.writeString(dir.resolve("mapred-site.xml"), """
            <configuration>
              <property><name>mapreduce.framework.name</name><value>local</value></property>
            </configuration>
            """);

        assertThat(settingsOfALoaderJob(dir)).isEqualTo("poll=20 maps=" + Runtime.getRuntime().availableProcessors());
    }

    /** Runs {@link Probe} in a fresh JVM with {@code siteDir} first on its class path. */
    private static String settingsOfALoaderJob(Path siteDir) throws IOException, InterruptedException {
        Path javaBinary = Path.of(System.getProperty("java.home"), "bin", "java");
        Path log = siteDir.resolve("probe.out"); // a file, not a pipe: Hadoop's warnings can never fill it and stall the probe
        Process probe = new ProcessBuilder(javaBinary.toString(), "-cp", siteDir + File.pathSeparator + System.getProperty("java.class.path"),
            Probe.class.getName()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!probe.waitFor(60, TimeUnit.SECONDS)) {
            probe.destroyForcibly();
            throw new AssertionError("the probe JVM did not finish in 60 s");
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(probe.exitValue()).as(output).isZero();
        return output.lines().filter(line -> line.startsWith("poll=")).findFirst().orElseThrow(() -> new AssertionError(output));
    }

    /** Makes the loader's job as {@code TopicLoader.run} does, from a plain configuration, and prints the two settings. */
    public static final class Probe {
        public static void main(String[] args) throws Exception {
            Job job = TopicLoader.newJob(new Configuration(), "t");
            System.out.println("poll=" + job.getConfiguration().get("mapreduce.client.completion.pollinterval")
                + " maps=" + job.getConfiguration().get("mapreduce.local.map.tasks.maximum"));
        }
    }
}

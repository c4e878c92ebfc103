package io.tributary.examples.docs;

import io.tributary.examples.DatasetRows;
import io.tributary.testkit.FreePorts;
import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.tools.AclCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The secured end-to-end example of docs/operations.md ("A secured pipeline, end to end") as a new user runs it:
 * the fenced block, word for word, in bash from the repository, against the packaged jars. Only the ports (free ones
 * for 9093 and 2181) and the {@code demo/} folder (a temporary one) differ; {@code kafka-acls.sh} is Apache Kafka's
 * AclCommand (kafka-tools) on this test's class path. Both datasets must hold every record exactly once. The block
 * starts about twenty JVMs (keytool, the broker, the CLI, the loader, the sink): 8 minutes at a load average of 30.
 */
class SecuredPipelineDocIT {
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern BLOCK = Pattern.compile("### 7\\. A secured pipeline, end to end\\n.*?```\\n(.*?)```", Pattern.DOTALL);
    private static final int RECORDS = 1000;

    @Test
    @Timeout(900)
    void theDocumentedCommandsLandEveryRecordOnceThroughLoaderAndSink(@TempDir Path work) throws Exception {
        Path demo = work.resolve("demo");
        String script = documentedScript()
                .replace("localhost:9093", "localhost:" + FreePorts.next())
                .replace("2181", Integer.toString(FreePorts.next()))
                .replace("demo/", demo + "/")
                .replace("mkdir -p demo", "mkdir -p " + demo);
        Path scriptFile = Files.writeString(work.resolve("secured-pipeline.sh"),
                "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n" + script, StandardCharsets.UTF_8);
        Path tools = Files.createDirectories(work.resolve("kafka/bin"));
        Path kafkaAcls = Files.writeString(tools.resolve("kafka-acls.sh"), "#!/bin/sh\nexec '" + java() + "' -cp '"
                + System.getProperty("java.class.path") + "' " + AclCommand.class.getName() + " \"$@\"\n");
        Files.setPosixFilePermissions(kafkaAcls, PosixFilePermissions.fromString("rwxr-xr-x"));

        Path output = work.resolve("console.txt");
        ProcessBuilder builder = new ProcessBuilder("bash", "-euo", "pipefail", scriptFile.toString())
                .directory(REPO.toFile()).redirectErrorStream(true).redirectOutput(output.toFile());
        String javaBin = Path.of(System.getProperty("java.home"), "bin").toString();
        builder.environment().put("PATH", tools + ":" + javaBin + ":" + System.getenv("PATH"));
        builder.environment().put("JAVA", java());
        builder.environment().put("TRIBUTARY_JVM_OPTS", "-Xmx512m -Djava.io.tmpdir=" + work);
        builder.environment().remove("HADOOP_CONF_DIR");
        Process process = builder.start();
        try {
            boolean exited = process.waitFor(840, TimeUnit.SECONDS);
            String console = Files.readString(output, StandardCharsets.UTF_8);
            assertThat(exited).as("finished within 14 minutes; console so far:%n%s", console).isTrue();
            assertThat(process.exitValue()).as("exit code; console:%n%s", console).isZero();

            assertThat(console).contains("Created topic orders.");
            assertThat(console.lines().filter(line -> line.startsWith("{\"amount\":"))).as("consumed values; %s", console).hasSize(3);
            assertThat(console).as(console).contains("tributary: not authorized to access topics: [orders]")
                    .contains("tributary: Authentication failed").contains("loaded " + RECORDS + " records");
            assertThat(console.lines().filter(line -> line.equals("exit 1"))).as(console).hasSize(2);
            // Both stopped by the block's SIGTERM, cleanly (143); no stack trace anywhere.
            assertThat(console.lines()).as(console).contains("sink exit 143", "broker exit 143");
            assertThat(console).as(console).doesNotContain("\tat ");
            assertThat(Files.readString(demo.resolve("sink.log"))).contains("stopped cleanly: open files committed");

            Configuration conf = new Configuration();
            for (String dataset : List.of("lake", "stream")) {
                List<String> positions = DatasetRows.positions(new org.apache.hadoop.fs.Path(demo.resolve(dataset).toUri()), "orders",
                        conf);
                assertThat(positions).as(dataset).hasSize(RECORDS).doesNotHaveDuplicates();
            }
        } finally {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static String documentedScript() throws Exception {
        Matcher block = BLOCK.matcher(Files.readString(REPO.resolve("docs/operations.md"), StandardCharsets.UTF_8));
        assertThat(block.find()).as("docs/operations.md has the secured pipeline block").isTrue();
        return block.group(1);
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }
}

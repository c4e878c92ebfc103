package io.tributary.hadoop.loader;

import io.tributary.hadoop.testing.Datasets;
import io.tributary.hadoop.testing.LoaderCommand;
import io.tributary.testkit.tributary.SecuredBroker;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/tributary-loader --command-config FILE} against a broker with one SASL_SSL listener (SCRAM) and ACLs:
 * a user allowed to read the topic loads it; a wrong password and a user without READ each fail with one line and
 * exit 1, leaving the dataset without a ledger.
 */
@Timeout(240)
class SecuredLoaderIT {
    private static final String TOPIC = "payments";
    private static final int PER_PARTITION = 500;

    @TempDir
    static java.nio.file.Path work;
    private static SecuredBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = SecuredBroker.start(work.resolve("broker"), Map.of());
        broker.addUser("etl", "etl-secret");
        broker.addUser("intruder", "intruder-secret");
        broker.allow("etl", ResourceType.TOPIC, TOPIC, AclOperation.READ);
        broker.createTopic(TOPIC, 2);
        broker.produce(TOPIC, 2, PER_PARTITION);
        broker.writeClientConfig(work.resolve("etl.properties"), "etl", "etl-secret");
        broker.writeClientConfig(work.resolve("wrong.properties"), "etl", "not-the-password");
        broker.writeClientConfig(work.resolve("intruder.properties"), "intruder", "intruder-secret");
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    /** bin/tributary-loader, logged in as {@code user} through {@code --command-config}. */
    private static LoaderCommand.Result load(String user, Path output) throws Exception {
        return new LoaderCommand(work).loader(loaderArgs(user, output));
    }

    private static List<String> loaderArgs(String user, Path output) {
        List<String> args = new ArrayList<>(List.of("-D", "mapreduce.framework.name=local", "-D", "fs.defaultFS=file:///",
            "-D", "hadoop.tmp.dir=" + work.resolve("hadoop-tmp"),
            "-D", "mapreduce.jobtracker.staging.root.dir=" + work.resolve("staging")));
        args.addAll(List.of("--bootstrap-server", broker.bootstrapServers(), "--topic", TOPIC, "--output", output.toString(),
            "--command-config", work.resolve(user + ".properties").toString()));
        return args;
    }

    private static void assertOneLineFailure(LoaderCommand.Result result, String expected) {
        assertThat(result.exitCode()).as(result.output()).isEqualTo(1);
        assertThat(result.stderr().lines().filter(line -> line.startsWith("tributary-loader: ")))
            .as(result.output()).singleElement().asString().contains(expected);
        assertThat(result.stderr()).as(result.output()).doesNotContain("\tat ");
    }

    @Test
    void anAllowedUserLoadsTheTopic() throws Exception {
        Path output = new Path(work.resolve("lake").toUri());
        LoaderCommand.Result result = load("etl", output);
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.stdout()).contains("loaded " + 2 * PER_PARTITION + " records");
        Datasets.assertEveryOffsetOnce(output, TOPIC, 2, PER_PARTITION, new Configuration());
    }

    @Test
    void aWrongPasswordFailsWithOneLine() throws Exception {
        Path output = new Path(work.resolve("wrong-lake").toUri());
        assertOneLineFailure(load("wrong", output), "Authentication failed");
        assertThat(work.resolve("wrong-lake/_tributary")).doesNotExist();
    }

    @Test
    void aUserWithoutReadFailsWithOneLine() throws Exception {
        // In this JVM (TopicLoader as bin/tributary-loader runs it), to spare a third loader JVM on a loaded machine.
        Path output = new Path(work.resolve("intruder-lake").toUri());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode = ToolRunner.run(new Configuration(), new TopicLoader(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8)), loaderArgs("intruder", output).toArray(String[]::new));
        assertOneLineFailure(new LoaderCommand.Result(exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)),
            "not authorized to access topics: [" + TOPIC + "]");
        assertThat(work.resolve("intruder-lake/_tributary")).doesNotExist();
    }
}

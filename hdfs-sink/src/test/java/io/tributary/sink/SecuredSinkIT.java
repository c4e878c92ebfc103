package io.tributary.sink;

import io.tributary.testkit.tributary.SecuredBroker;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code bin/tributary-sink} against a broker with one SASL_SSL listener (SCRAM) and ACLs, its security settings
 * given once, unprefixed, in the sink's properties: a user allowed the topic and the group lands every record
 * exactly once; a wrong password stops the sink with one log line naming the failure, no stack trace, and exit 1.
 */
@Timeout(420)
class SecuredSinkIT {
    private static final String TOPIC = "clicks";
    private static final int PER_PARTITION = 300;
    private static final Duration WAIT = Duration.ofSeconds(180); // a sink JVM took 60 s to start at a load average of 50

    @TempDir
    static java.nio.file.Path work;
    private static SecuredBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = SecuredBroker.start(work.resolve("broker"), Map.of());
        broker.addUser("lake", "lake-secret");
        broker.allow("lake", ResourceType.TOPIC, TOPIC, AclOperation.READ);
        broker.allow("lake", ResourceType.GROUP, "clicks-sink", AclOperation.READ);
        broker.createTopic(TOPIC, 2);
        broker.produce(TOPIC, 2, PER_PARTITION);
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private static Map<String, Object> sinkSettings(String output, String password) {
        Map<String, Object> props = new HashMap<>(broker.clientSettings("lake", password));
        props.put("bootstrap.servers", broker.bootstrapServers());
        props.put("topics", TOPIC);
        props.put("group.id", "clicks-sink");
        props.put("output.dir", work.resolve(output).toUri().toString());
        props.put("flush.size", PER_PARTITION);
        props.put("rotate.interval.ms", 1_000);
        props.put("status.console", "off");
        return props;
    }

    @Test
    void anAllowedUserLandsEveryRecordOnce() throws Exception {
        try (SinkProcess sink = SinkProcess.start(work, "secured", sinkSettings("lake", "lake-secret"))) {
            Path root = new Path(work.resolve("lake").toUri());
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(sink.isAlive()).as("sink running; %s", sink.logEnd()).isTrue();
                DatasetContents contents = DatasetContents.read(root, TOPIC, new Configuration());
                assertThat(contents.offsets()).as("partitions landed; %s", sink.logEnd()).hasSize(2);
                assertThat(contents.offsets().values()).allSatisfy(offsets -> assertThat(offsets.cardinality()).isEqualTo(PER_PARTITION));
                assertThat(contents.duplicates()).isEmpty();
            });
            sink.assertStopsCleanly();
        }
    }

    @Test
    void aWrongPasswordStopsTheSinkWithOneLine() throws Exception {
        try (SinkProcess sink = SinkProcess.start(work, "wrong-password", sinkSettings("wrong-lake", "not-the-password"))) {
            assertThat(sink.awaitExit(WAIT)).as(sink.logEnd()).isEqualTo(1);
            String log = sink.logText();
            assertThat(log.lines().filter(line -> line.contains("SinkMain:") && line.contains("ERROR")))
                .as(sink.logEnd()).singleElement().asString().contains("Authentication failed");
            assertThat(log).as(sink.logEnd()).doesNotContain("\tat ");
        }
    }
}

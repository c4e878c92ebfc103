package io.tributary.sink;

import io.tributary.hadoop.dataset.MissingPolicy;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.time.ZoneId;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SinkConfigTest {
    private static Map<String, String> minimal() {
        Map<String, String> props = new HashMap<>();
        props.put("bootstrap.servers", "127.0.0.1:9092");
        props.put("topics", "orders");
        props.put("group.id", "g");
        props.put("output.dir", "/data/lake");
        return props;
    }

    @Test
    void defaultsAreUsable() {
        SinkConfig config = new SinkConfig(minimal());
        assertThat(config.topics()).containsExactly("orders");
        assertThat(config.topicPattern()).isEmpty();
        assertThat(config.rotationPolicy()).isEqualTo(new RotationPolicy(100_000, 128L << 20, 600_000));
        assertThat(config.zone()).isEqualTo(ZoneId.of("UTC"));
        assertThat(config.badRecordPolicy()).isEqualTo(BadRecordPolicy.FAIL);
        assertThat(config.memoryBudgetBytes()).isEqualTo(Runtime.getRuntime().maxMemory() / 4);
        assertThat(config.backoff()).isEqualTo(new Backoff(500, 30_000));
    }

    @Test
    void prefixedSettingsPassThroughWithoutThePrefix() {
        Map<String, String> props = minimal();
        props.put("consumer.max.poll.records", "7");
        props.put("hadoop.dfs.replication", "2");
        props.put("producer.linger.ms", "3");
        SinkConfig config = new SinkConfig(props);
        assertThat(config.passThrough(SinkConfig.CONSUMER_PREFIX)).containsEntry("max.poll.records", "7");
        assertThat(config.passThrough(SinkConfig.HADOOP_PREFIX)).containsEntry("dfs.replication", "2");
        assertThat(SinkFactory.consumerProps(config)).containsEntry("max.poll.records", "7")
            .containsEntry("enable.auto.commit", false);
        assertThat(SinkFactory.hadoopConf(config).get("dfs.replication")).isEqualTo("2");
    }

    @Test
    void readsCommittedRecordsUnlessTheUserAsksForEveryRecord() {
        assertThat(SinkFactory.consumerProps(new SinkConfig(minimal()))).containsEntry("isolation.level", "read_committed");
        Map<String, String> uncommitted = minimal();
        uncommitted.put("consumer.isolation.level", "read_uncommitted");
        assertThat(SinkFactory.consumerProps(new SinkConfig(uncommitted))).containsEntry("isolation.level", "read_uncommitted");
    }

    @Test
    void recordsGoneFromTheLogFailByDefaultAndNeverResetTheConsumer() {
        SinkConfig config = new SinkConfig(minimal());
        assertThat(config.onMissing()).isEqualTo(MissingPolicy.FAIL);
        assertThat(SinkFactory.consumerProps(config)).containsEntry("auto.offset.reset", "none");
        Map<String, String> skip = minimal();
        skip.put("on.missing", "skip");
        assertThat(new SinkConfig(skip).onMissing()).isEqualTo(MissingPolicy.SKIP);

        Map<String, String> reset = minimal();
        reset.put("consumer.auto.offset.reset", "earliest");
        assertThatThrownBy(() -> new SinkConfig(reset)).isInstanceOf(ConfigException.class)
            .hasMessageContaining("consumer.auto.offset.reset cannot be set").hasMessageContaining("on.missing");
    }

    @Test
    void topicsThatCannotMakeADatasetFolderAreRefusedBeforeAnythingStarts() {
        for (String topic : new String[] {"_private", ".hidden", "_tributary", "t".repeat(240)}) {
            Map<String, String> props = minimal();
            props.put("topics", "orders," + topic);
            assertThatThrownBy(() -> new SinkConfig(props)).as(topic).isInstanceOf(ConfigException.class)
                .hasMessageContaining("topic '" + topic + "'").hasMessageContaining("Copy it to a topic");
        }
    }

    @Test
    void aPatternReplacesTheTopicList() {
        Map<String, String> props = minimal();
        props.remove("topics");
        props.put("topics.regex", "orders-.*");
        assertThat(new SinkConfig(props).topicPattern()).hasValueSatisfying(p -> assertThat(p.pattern()).isEqualTo("orders-.*"));
    }

    @Test
    void rejectsWhatCannotWork() {
        Map<String, String> both = minimal();
        both.put("topics.regex", "x.*");
        assertThatThrownBy(() -> new SinkConfig(both)).isInstanceOf(ConfigException.class).hasMessageContaining("exactly one");

        Map<String, String> noGroup = minimal();
        noGroup.remove("group.id");
        assertThatThrownBy(() -> new SinkConfig(noGroup)).isInstanceOf(ConfigException.class).hasMessageContaining("group.id");

        Map<String, String> deadLetterWithoutTopic = minimal();
        deadLetterWithoutTopic.put("bad.record.policy", "dead-letter");
        assertThatThrownBy(() -> new SinkConfig(deadLetterWithoutTopic)).hasMessageContaining("dead.letter.topic");

        Map<String, String> badZone = minimal();
        badZone.put("timezone", "Mars/Olympus");
        assertThatThrownBy(() -> new SinkConfig(badZone)).hasMessageContaining("timezone");

        Map<String, String> badFlush = minimal();
        badFlush.put("flush.size", "0");
        assertThatThrownBy(() -> new SinkConfig(badFlush)).hasMessageContaining("flush.size");
    }

    @Test
    void theCommandLineOverridesTheFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = dir.resolve("sink.properties");
        java.nio.file.Files.writeString(file, "topics=a\nflush.size=10\n");
        Map<String, String> settings = SinkMain.parse(new String[] {file.toString(), "--override", "flush.size=20",
            "--override", "output.dir=hdfs://nn:8020/x=y"});
        assertThat(settings).containsEntry("topics", "a").containsEntry("flush.size", "20")
            .containsEntry("output.dir", "hdfs://nn:8020/x=y");
        assertThatThrownBy(() -> SinkMain.parse(new String[] {file.toString(), "--override"}))
            .hasMessageContaining("unexpected argument");
        assertThatThrownBy(() -> SinkMain.parse(new String[] {file.toString(), "--override", "novalue"}))
            .hasMessageContaining("key=value");
    }
}

package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import io.tributary.broker.testing.Clients;
import io.tributary.testkit.wire.RawConnection;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AlterConfigsResponse;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.tools.TopicCommand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Kafka 4.4's topic configs through kafka-clients: accepted, reported, and applied to what producers send. */
@Timeout(120)
class TopicConfigsIT {
    private static TestBroker broker;
    private static Admin admin;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        broker = TestBroker.start(dir, Map.of("auto.create.topics.enable", "false"));
        admin = Clients.admin(broker.bootstrapServers());
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    /** A value other than the default for every topic key of Kafka 4.4 that a user may set. */
    private static Map<String, String> everyKafkaTopicConfig() {
        Map<String, String> configs = new HashMap<>();
        configs.put("segment.bytes", "2097152");
        configs.put("segment.ms", "3600000");
        configs.put("segment.jitter.ms", "60000");
        configs.put("segment.index.bytes", "65536");
        configs.put("flush.messages", "100000");
        configs.put("flush.ms", "60000");
        configs.put("retention.bytes", "1073741824");
        configs.put("retention.ms", "86400000");
        configs.put("max.message.bytes", "2000000");
        configs.put("max.decompressed.message.bytes", "50000000");
        configs.put("index.interval.bytes", "8192");
        configs.put("delete.retention.ms", "3600000");
        configs.put("min.compaction.lag.ms", "1000");
        configs.put("max.compaction.lag.ms", "86400000");
        configs.put("file.delete.delay.ms", "30000");
        configs.put("min.cleanable.dirty.ratio", "0.3");
        configs.put("cleanup.policy", "compact,delete");
        configs.put("unclean.leader.election.enable", "true");
        configs.put("min.insync.replicas", "1");
        configs.put("compression.type", "zstd");
        configs.put("compression.gzip.level", "6");
        configs.put("compression.lz4.level", "12");
        configs.put("compression.zstd.level", "5");
        configs.put("preallocate", "true");
        configs.put("message.timestamp.type", "CreateTime");
        configs.put("message.timestamp.before.max.ms", "604800000");
        configs.put("message.timestamp.after.max.ms", "7200000");
        configs.put("leader.replication.throttled.replicas", "0:0");
        configs.put("follower.replication.throttled.replicas", "0:0");
        configs.put("remote.storage.enable", "false");
        configs.put("local.retention.ms", "-2");
        configs.put("local.retention.bytes", "-2");
        configs.put("remote.log.copy.disable", "false");
        configs.put("remote.copy.lag.ms", "1000");
        configs.put("remote.copy.lag.bytes", "1000");
        configs.put("remote.log.delete.on.disable", "false");
        configs.put("errors.deadletterqueue.group.enable", "false");
        return configs;
    }

    @Test
    void everyKafkaTopicConfigIsAcceptedAndReportedAsTheTopicsOwn() throws Exception {
        Map<String, String> configs = everyKafkaTopicConfig();
        admin.createTopics(List.of(new NewTopic("all-configs", 1, (short) 1).configs(configs))).all().get();
        Config described = describe("all-configs");
        configs.forEach((key, value) -> {
            ConfigEntry entry = described.get(key);
            assertThat(entry).as(key).isNotNull();
            assertThat(entry.value()).as(key).isEqualTo(value);
            assertThat(entry.source()).as(key).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
        });
    }

    @Test
    void aTopicWithoutOverridesReportsKafkasDefaultsAsDefaults() throws Exception {
        admin.createTopics(List.of(new NewTopic("plain", 1, (short) 1))).all().get();
        Config described = describe("plain");
        assertThat(described.get("compression.type").value()).isEqualTo("producer");
        assertThat(described.get("message.timestamp.after.max.ms").value()).isEqualTo("3600000");
        assertThat(described.get("segment.jitter.ms").value()).isEqualTo("0");
        for (String key : List.of("compression.type", "message.timestamp.after.max.ms", "segment.jitter.ms",
                "min.compaction.lag.ms", "unclean.leader.election.enable", "retention.bytes")) {
            assertThat(described.get(key).source()).as(key).isEqualTo(ConfigEntry.ConfigSource.DEFAULT_CONFIG);
        }
    }

    @Test
    void turningOnTieredStorageIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("tiered", 1, (short) 1)
                .configs(Map.of("remote.storage.enable", "true")))).all().get())
                .hasCauseInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("remote.storage.enable");
    }

    @Test
    void aCompactedTopicRefusesKeylessRecordsFromAJavaProducerAndKeepsTheKeyedOnes() throws Exception {
        admin.createTopics(List.of(new NewTopic("compacted", 1, (short) 1)
                .configs(Map.of("cleanup.policy", "compact")))).all().get();
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers())) {
            producer.send(record("compacted", "k1", "v1")).get();
            assertThatThrownBy(() -> producer.send(record("compacted", null, "orphan")).get())
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(InvalidRecordException.class);
            producer.send(record("compacted", "k2", "v2")).get();
        }
        assertThat(readAll("compacted", 2)).containsExactly("k1=v1", "k2=v2");
    }

    @Test
    void aProducerWhoseClockRunsTwoHoursAheadIsRefusedByDefault() throws Exception {
        admin.createTopics(List.of(new NewTopic("clocks", 1, (short) 1))).all().get();
        long twoHoursAhead = System.currentTimeMillis() + 2 * 3_600_000L;
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers())) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("clocks", null, twoHoursAhead,
                    bytes("k"), bytes("late"))).get())
                    .hasCauseInstanceOf(InvalidTimestampException.class);
            producer.send(record("clocks", "k", "now")).get();
        }
        assertThat(readAll("clocks", 1)).containsExactly("k=now");
    }

    @Test
    void recordsSentWithGzipToAZstdTopicReadBackUnchanged() throws Exception {
        admin.createTopics(List.of(new NewTopic("recompressed", 1, (short) 1)
                .configs(Map.of("compression.type", "zstd")))).all().get();
        List<String> sent = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(broker.bootstrapServers(),
                Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, "gzip", ProducerConfig.LINGER_MS_CONFIG, 20))) {
            for (int i = 0; i < 500; i++) {
                producer.send(record("recompressed", "key-" + i, "value-" + i));
                sent.add("key-" + i + "=value-" + i);
            }
            producer.flush();
        }
        assertThat(readAll("recompressed", 500)).isEqualTo(sent);
    }

    @Test
    void describeConfigsListsTheSynonymsOfEachValueInPrecedenceOrder() throws Exception {
        admin.createTopics(List.of(new NewTopic("synonyms", 1, (short) 1)
                .configs(Map.of("retention.ms", "1000")))).all().get();
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, "synonyms");
        Config described = admin.describeConfigs(List.of(resource), new DescribeConfigsOptions().includeSynonyms(true))
                .all().get().get(resource);
        // As Kafka lists them: a topic key's broker synonyms from the first one (log.retention.ms) on, and that has no
        // default, so the default of log.retention.hours is not listed.
        assertThat(described.get("retention.ms").synonyms())
                .extracting(ConfigEntry.ConfigSynonym::name, ConfigEntry.ConfigSynonym::value, ConfigEntry.ConfigSynonym::source)
                .containsExactly(tuple("retention.ms", "1000", ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG));
        assertThat(described.get("retention.bytes").synonyms())
                .extracting(ConfigEntry.ConfigSynonym::name, ConfigEntry.ConfigSynonym::source)
                .containsExactly(tuple("log.retention.bytes", ConfigEntry.ConfigSource.DEFAULT_CONFIG));
    }

    @Test
    void kafkaTopicsDescribeShowsOnlyTheTopicsOwnOverrides() throws Exception {
        admin.createTopics(List.of(new NewTopic("described", 1, (short) 1)
                .configs(Map.of("retention.ms", "1000")))).all().get();
        String printed = kafkaTopics("--describe", "--topic", "described");
        String configsLine = printed.lines().filter(line -> line.contains("Configs:")).findFirst().orElseThrow();
        assertThat(configsLine.substring(configsLine.indexOf("Configs:")).trim()).isEqualTo("Configs: retention.ms=1000");
    }

    @Test
    void alterConfigsReplacesAllOfATopicsOverridesAndRefusesUnknownKeys() throws Exception {
        admin.createTopics(List.of(new NewTopic("replaced", 1, (short) 1)
                .configs(Map.of("retention.ms", "1000", "segment.ms", "60000")))).all().get();
        try (RawConnection raw = new RawConnection("127.0.0.1", broker.port())) {
            assertThat(alterConfigs(raw, "replaced", Map.of("cleanup.policy", "compact"), true)).isEqualTo(Errors.NONE);
            assertThat(overrides("replaced")).as("validate_only changes nothing")
                    .containsOnly(Map.entry("retention.ms", "1000"), Map.entry("segment.ms", "60000"));

            assertThat(alterConfigs(raw, "replaced", Map.of("cleanup.policy", "compact"), false)).isEqualTo(Errors.NONE);
            assertThat(overrides("replaced")).containsOnly(Map.entry("cleanup.policy", "compact"));

            assertThat(alterConfigs(raw, "replaced", Map.of("no.such.config", "1"), false)).isEqualTo(Errors.INVALID_CONFIG);
            assertThat(overrides("replaced")).containsOnly(Map.entry("cleanup.policy", "compact"));
        }
    }

    private static Errors alterConfigs(RawConnection raw, String topic, Map<String, String> configs, boolean validateOnly)
            throws Exception {
        AlterConfigsRequestData.AlterableConfigCollection entries = new AlterConfigsRequestData.AlterableConfigCollection();
        configs.forEach((name, value) -> entries.add(new AlterConfigsRequestData.AlterableConfig().setName(name).setValue(value)));
        AlterConfigsRequestData.AlterConfigsResourceCollection resources = new AlterConfigsRequestData.AlterConfigsResourceCollection();
        resources.add(new AlterConfigsRequestData.AlterConfigsResource().setResourceType(ConfigResource.Type.TOPIC.id())
                .setResourceName(topic).setConfigs(entries));
        AlterConfigsResponse response = (AlterConfigsResponse) raw.request(ApiKeys.ALTER_CONFIGS, (short) 2,
                new AlterConfigsRequestData().setResources(resources).setValidateOnly(validateOnly));
        return Errors.forCode(response.data().responses().get(0).errorCode());
    }

    /** The topic's own overrides, as DescribeConfigs reports them. */
    private static Map<String, String> overrides(String topic) throws Exception {
        Map<String, String> overrides = new HashMap<>();
        describe(topic).entries().stream().filter(entry -> entry.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG)
                .forEach(entry -> overrides.put(entry.name(), entry.value()));
        return overrides;
    }

    /** Runs Kafka's {@code kafka-topics} against the broker and returns what it printed; fails if it exits non-zero. */
    private static String kafkaTopics(String... args) {
        List<String> all = new ArrayList<>(List.of("--bootstrap-server", broker.bootstrapServers()));
        all.addAll(List.of(args));
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        Exit.setExitProcedure((code, message) -> {
            if (code != 0) {
                throw new AssertionError("kafka-topics exited with " + code + ": " + message);
            }
        });
        try {
            TopicCommand.main(all.toArray(String[]::new));
        } finally {
            Exit.resetExitProcedure();
            System.setOut(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    private static Config describe(String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        return admin.describeConfigs(List.of(resource)).all().get().get(resource);
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, String key, String value) {
        return new ProducerRecord<>(topic, key == null ? null : bytes(key), bytes(value));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> readAll(String topic, int expected) {
        List<String> read = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(broker.bootstrapServers())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.currentTimeMillis() + 30_000;
            while (read.size() < expected && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    read.add(new String(record.key(), StandardCharsets.UTF_8) + "="
                            + new String(record.value(), StandardCharsets.UTF_8));
                }
            }
        }
        return read;
    }
}

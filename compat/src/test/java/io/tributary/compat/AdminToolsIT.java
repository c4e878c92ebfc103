package io.tributary.compat;

import io.tributary.testkit.tributary.BrokerUnderTest.Kind;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.coordinator.group.GroupConfig;
import org.apache.kafka.storage.internals.log.LogConfig;
import org.apache.kafka.tools.BrokerApiVersionsCommand;
import org.apache.kafka.tools.ClusterTool;
import org.apache.kafka.tools.ConfigCommand;
import org.apache.kafka.tools.ConsumerPerformance;
import org.apache.kafka.tools.DeleteRecordsCommand;
import org.apache.kafka.tools.EndToEndLatency;
import org.apache.kafka.tools.FeatureCommand;
import org.apache.kafka.tools.GetOffsetShell;
import org.apache.kafka.tools.GroupsCommand;
import org.apache.kafka.tools.ProducerPerformance;
import org.apache.kafka.tools.StreamsResetter;
import org.apache.kafka.tools.TopicCommand;
import org.apache.kafka.tools.consumer.group.ConsumerGroupCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Kafka's admin tools of kafka-tools 4.4, by their main classes ({@code kafka-topics}, {@code kafka-configs},
 * {@code kafka-consumer-groups}, {@code kafka-features}, {@code kafka-get-offsets}, {@code kafka-delete-records},
 * {@code kafka-producer-perf-test}, {@code kafka-consumer-perf-test}, {@code kafka-e2e-latency},
 * {@code kafka-broker-api-versions}, {@code kafka-cluster}, {@code kafka-groups},
 * {@code kafka-streams-application-reset}), each doing what a user does with it; the expected output is Apache Kafka
 * 4.4's.
 */
@Timeout(60)
class AdminToolsIT {
    @RegisterExtension
    static final CompatBroker broker = new CompatBroker();

    private static String[] bootstrap(String... args) {
        return Stream.concat(Stream.of("--bootstrap-server", broker.bootstrapServers()), Stream.of(args)).toArray(String[]::new);
    }

    private static String topics(String... args) throws Exception {
        return KafkaCommand.succeed(TopicCommand.class, bootstrap(args));
    }

    private static String configs(String... args) throws Exception {
        return KafkaCommand.succeed(ConfigCommand.class, bootstrap(args));
    }

    private static String groups(String... args) throws Exception {
        return KafkaCommand.succeed(ConsumerGroupCommand.class, bootstrap(args));
    }

    private static String getOffsets(String... args) throws Exception {
        return KafkaCommand.succeed(GetOffsetShell.class, bootstrap(args));
    }

    /** The output's lines, each trimmed. */
    private static List<String> lines(String output) {
        return output.lines().map(String::trim).filter(line -> !line.isEmpty()).toList();
    }

    /** The table rows of {@code kafka-consumer-groups --describe} for {@code group}, split into columns. */
    private static List<List<String>> rows(String output, String group) {
        return lines(output).stream().filter(line -> line.startsWith(group + " ")).map(line -> List.of(line.split("\\s+"))).toList();
    }

    @Test
    void kafkaTopicsCreatesListsDescribesAltersAndDeletesATopic() throws Exception {
        assertThat(topics("--create", "--topic", "tool-topic", "--partitions", "3", "--replication-factor", "1",
                "--config", "retention.ms=3600000")).contains("Created topic tool-topic.");
        assertThat(lines(topics("--list"))).contains("tool-topic");

        // With eligible leader replicas (KIP-966, on in Kafka 4.4) Kafka's controller writes the cluster's
        // min.insync.replicas into each new topic's configs; Tributary elects from the ISR only and does not.
        String overrides = broker.kind() == Kind.APACHE_KAFKA ? "min.insync.replicas=1,retention.ms=3600000" : "retention.ms=3600000";
        String described = topics("--describe", "--topic", "tool-topic");
        assertThat(described).containsPattern("Topic: tool-topic\\s+TopicId: \\S+\\s+PartitionCount: 3\\s+ReplicationFactor: 1\\s+"
                + "Configs: " + overrides + "\\n");
        assertThat(lines(described).stream().filter(line -> line.matches("Topic: tool-topic\\s+Partition: \\d.*")))
                .as("a line per partition, each with a leader in the ISR").hasSize(3)
                .allSatisfy(line -> assertThat(line).containsPattern("Leader: (\\d+)\\s+Replicas: \\1\\s+Isr: \\1"));

        KafkaCommand.Result again = KafkaCommand.run(TopicCommand.class,
                bootstrap("--create", "--topic", "tool-topic", "--partitions", "1"));
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.out() + again.err()).contains("Topic 'tool-topic' already exists.");
        topics("--create", "--if-not-exists", "--topic", "tool-topic", "--partitions", "1");

        topics("--alter", "--topic", "tool-topic", "--partitions", "4");
        assertThat(topics("--describe", "--topic", "tool-topic")).contains("PartitionCount: 4");
        assertThat(KafkaCommand.run(TopicCommand.class, bootstrap("--alter", "--topic", "tool-topic", "--partitions", "4")).out())
                .contains("Error while executing topic command : Topic already has 4 partition(s).");
        assertThat(KafkaCommand.run(TopicCommand.class, bootstrap("--alter", "--topic", "tool-topic", "--partitions", "2")).out())
                .contains("Error while executing topic command : "
                        + "The topic tool-topic currently has 4 partition(s); 2 would not be an increase.");

        topics("--delete", "--topic", "tool-topic");
        await().atMost(CompatBroker.TIMEOUT).untilAsserted(() -> assertThat(lines(topics("--list"))).doesNotContain("tool-topic"));
    }

    @Test
    void kafkaConfigsAltersDescribesAndDeletesTopicConfigs() throws Exception {
        broker.createTopic("configured", 1);
        assertThat(configs(entity("topics", "configured", "--alter", "--add-config", "cleanup.policy=compact,min.compaction.lag.ms=1000")))
                .contains("Completed updating config for topic configured.");
        assertThat(lines(configs(entity("topics", "configured", "--describe")))).containsExactly(
                "Dynamic configs for topic configured are:",
                "cleanup.policy=compact sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:cleanup.policy=compact, "
                        + "DEFAULT_CONFIG:log.cleanup.policy=delete}",
                "min.compaction.lag.ms=1000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:min.compaction.lag.ms=1000, "
                        + "DEFAULT_CONFIG:log.cleaner.min.compaction.lag.ms=0}");

        configs(entity("topics", "configured", "--alter", "--delete-config", "min.compaction.lag.ms"));
        assertThat(lines(configs(entity("topics", "configured", "--describe")))).hasSize(2)
                .noneMatch(line -> line.startsWith("min.compaction.lag.ms"));

        Map<String, String> all = describedConfigs(entity("topics", "configured", "--describe", "--all"));
        assertThat(all.keySet()).containsExactlyInAnyOrderElementsOf(LogConfig.nonInternalConfigNames());
        assertThat(all).containsEntry("cleanup.policy", "compact sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:cleanup.policy=compact, "
                        + "DEFAULT_CONFIG:log.cleanup.policy=delete}")
                .containsEntry("retention.bytes", "-1 sensitive=false synonyms={DEFAULT_CONFIG:log.retention.bytes=-1}")
                .containsEntry("max.message.bytes", "1048588 sensitive=false synonyms={DEFAULT_CONFIG:message.max.bytes=1048588}")
                // Kafka lists a topic key's broker synonyms from its first one on: log.retention.ms and log.roll.ms
                // have no default, so the defaults of log.retention.hours and log.roll.hours are not listed.
                .containsEntry("retention.ms", "604800000 sensitive=false synonyms={}")
                .containsEntry("segment.ms", "604800000 sensitive=false synonyms={}")
                // keys without a broker synonym have none
                .containsEntry("follower.replication.throttled.replicas", " sensitive=false synonyms={}")
                .containsEntry("remote.storage.enable", "false sensitive=false synonyms={}");

        KafkaCommand.Result unknown = KafkaCommand.run(ConfigCommand.class,
                bootstrap(entity("topics", "configured", "--alter", "--add-config", "no.such.config=1")));
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.out() + unknown.err()).contains("no.such.config");
        KafkaCommand.Result missing = KafkaCommand.run(ConfigCommand.class,
                bootstrap(entity("topics", "missing-topic", "--alter", "--add-config", "retention.ms=1000")));
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.out() + missing.err()).contains("UnknownTopicOrPartitionException: The topic 'missing-topic' does not exist.");
    }

    /** A dynamic broker config reaches the topics that take their default from it, and their synonyms say so. */
    @Test
    void kafkaConfigsAltersBrokerDefaultsThatTopicsInherit() throws Exception {
        broker.createTopic("inheriting", 1);
        String id = broker.admin().describeCluster().nodes().get().iterator().next().idString();
        configs(entity("brokers", id, "--alter", "--add-config", "log.retention.ms=86400000"));
        configs("--entity-type", "brokers", "--entity-default", "--alter", "--add-config", "message.max.bytes=2097152");
        try {
            await().atMost(CompatBroker.TIMEOUT).untilAsserted(() -> assertThat(lines(configs(entity("brokers", id, "--describe"))))
                    .contains("Dynamic configs for broker " + id + " are:")
                    .anyMatch(line -> line.startsWith("log.retention.ms=86400000 sensitive=false "
                            + "synonyms={DYNAMIC_BROKER_CONFIG:log.retention.ms=86400000")));
            await().atMost(CompatBroker.TIMEOUT).untilAsserted(() -> assertThat(describedConfigs(
                            entity("topics", "inheriting", "--describe", "--all")))
                    .containsEntry("retention.ms", "86400000 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:log.retention.ms=86400000, "
                            + "DEFAULT_CONFIG:log.retention.hours=168}")
                    .containsEntry("max.message.bytes", "2097152 sensitive=false "
                            + "synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:message.max.bytes=2097152, "
                            + "DEFAULT_CONFIG:message.max.bytes=1048588}"));
        } finally {
            configs(entity("brokers", id, "--alter", "--delete-config", "log.retention.ms"));
            configs("--entity-type", "brokers", "--entity-default", "--alter", "--delete-config", "message.max.bytes");
        }
        await().atMost(CompatBroker.TIMEOUT).untilAsserted(() -> assertThat(describedConfigs(
                        entity("topics", "inheriting", "--describe", "--all")))
                .containsEntry("retention.ms", "604800000 sensitive=false synonyms={}")
                .containsEntry("max.message.bytes", "1048588 sensitive=false synonyms={DEFAULT_CONFIG:message.max.bytes=1048588}"));
    }

    /**
     * A group's configs, each with the broker key it defaults to (Kafka's {@code group.consumer.*},
     * {@code group.share.*}, {@code group.streams.*}); Kafka's internal group keys are not described.
     */
    @Test
    void kafkaConfigsAltersAndDescribesAGroupsConfigs() throws Exception {
        configs(entity("groups", "configured-group", "--alter", "--add-config", "consumer.session.timeout.ms=50000"));
        assertThat(lines(configs(entity("groups", "configured-group", "--describe")))).containsExactly(
                "Dynamic configs for group configured-group are:",
                "consumer.session.timeout.ms=50000 sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:consumer.session.timeout.ms=50000, "
                        + "DEFAULT_CONFIG:group.consumer.session.timeout.ms=45000}");
        Map<String, String> all = describedConfigs(entity("groups", "configured-group", "--describe", "--all"));
        assertThat(all.keySet()).containsExactlyInAnyOrderElementsOf(GroupConfig.CONFIG_DEF.configKeys().values().stream()
                .filter(key -> !key.internalConfig).map(key -> key.name).toList());
        assertThat(all).containsEntry("consumer.assignment.interval.ms",
                        "1000 sensitive=false synonyms={DEFAULT_CONFIG:group.consumer.assignment.interval.ms=1000}")
                .containsEntry("share.delivery.count.limit",
                        "5 sensitive=false synonyms={DEFAULT_CONFIG:group.share.delivery.count.limit=5}")
                .containsEntry("streams.assignor.name", "sticky sensitive=false synonyms={DEFAULT_CONFIG:group.streams.assignors=sticky}")
                .containsEntry("share.isolation.level", "read_uncommitted sensitive=false "
                        + "synonyms={DEFAULT_CONFIG:share.isolation.level=read_uncommitted}");

        for (String outOfBounds : List.of("1", "70000")) {
            KafkaCommand.Result refused = KafkaCommand.run(ConfigCommand.class, bootstrap(entity("groups", "configured-group",
                    "--alter", "--add-config", "consumer.session.timeout.ms=" + outOfBounds)));
            assertThat(refused.exitCode()).isEqualTo(1);
            assertThat(refused.out() + refused.err())
                    .contains("InvalidConfigurationException: consumer.session.timeout.ms must be in the range 45000 to 60000 inclusive.");
        }
    }

    /** A group of each protocol, classic and consumer (KIP-848), described while it consumes, then reset and deleted. */
    @ParameterizedTest(name = "group.protocol={0}")
    @CsvSource({"classic, Classic, range", "consumer, Consumer, uniform"})
    void kafkaConsumerGroupsDescribesResetsAndDeletesAGroup(String protocol, String type, String assignor) throws Exception {
        String topic = "grouped-" + protocol;
        String group = "tool-" + protocol;
        broker.createTopic(topic, 2);
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            records.add(new ProducerRecord<>(topic, i % 2, "k" + i, "v" + i));
        }
        broker.produce(records);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol,
                ConsumerConfig.CLIENT_ID_CONFIG, "tool-client",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class))) {
            consumer.subscribe(List.of(topic));
            int[] consumed = {0};
            await().atMost(CompatBroker.TIMEOUT).until(() -> {
                consumed[0] += consumer.poll(Duration.ofMillis(100)).count();
                return consumed[0] == 20;
            });
            consumer.commitSync();
            assertThat(rows(groups("--describe", "--group", group), group)).hasSize(2).allSatisfy(row -> {
                assertThat(row.get(1)).isEqualTo(topic);
                assertThat(row.subList(3, 6)).as("current offset, log end offset, lag").containsExactly("10", "10", "0");
                assertThat(row.get(row.size() - 1)).isEqualTo("tool-client");
            });
            assertThat(rows(groups("--describe", "--group", group, "--state"), group).get(0)).contains(assignor, "Stable", "1");
            assertThat(rows(groups("--list", "--type"), group)).containsExactly(List.of(group, type));
            KafkaCommand.Result busy = KafkaCommand.run(ConsumerGroupCommand.class,
                    bootstrap("--reset-offsets", "--group", group, "--topic", topic, "--to-earliest", "--execute"));
            assertThat(busy.out() + busy.err()).contains("Assignments can only be reset if the group '" + group + "' is inactive");
        }

        assertThat(lines(groups("--list", "--state", "Empty"))).anyMatch(line -> line.matches(group + "\\s+Empty"));
        assertThat(rows(groups("--reset-offsets", "--group", group, "--topic", topic + ":0", "--to-offset", "3", "--execute"),
                group)).containsExactly(List.of(group, topic, "0", "3"));
        groups("--reset-offsets", "--group", group, "--topic", topic + ":1", "--shift-by", "-4", "--execute");
        assertThat(rows(groups("--describe", "--group", group), group))
                .map(row -> row.subList(1, 6))
                .containsExactlyInAnyOrder(List.of(topic, "0", "3", "10", "7"), List.of(topic, "1", "6", "10", "4"));

        assertThat(groups("--delete-offsets", "--group", group, "--topic", topic + ":0"))
                .containsPattern(topic + "\\s+0\\s+Successful");
        assertThat(rows(groups("--describe", "--group", group), group)).map(row -> row.get(2)).containsExactly("1");
        assertThat(groups("--delete", "--group", group))
                .contains("Deletion of requested consumer groups ('" + group + "') was successful.");
        assertThat(lines(groups("--list"))).doesNotContain(group);
        KafkaCommand.Result missing = KafkaCommand.run(ConsumerGroupCommand.class, bootstrap("--describe", "--group", group));
        assertThat(missing.out() + missing.err()).contains("GroupIdNotFoundException: Group " + group + " not found.");
    }

    /**
     * Both brokers finalize the features of the protocols both serve at Kafka 4.4's levels. The rest differ on purpose
     * (docs/operations.md, "Kafka APIs, features and telemetry"): Tributary has no KRaft metadata log or quorum
     * ({@code metadata.version}, {@code kraft.version}), elects leaders from the ISR only
     * ({@code eligible.leader.replicas.version}) and runs no share or streams groups; and its levels cannot be changed.
     */
    @Test
    void kafkaFeaturesDescribesTheFinalizedFeatures() throws Exception {
        Map<String, String> common = Map.of("group.version", "0 1 1", "transaction.version", "0 2 2");
        Map<String, String> own = broker.kind() == Kind.APACHE_KAFKA
                ? Map.of("eligible.leader.replicas.version", "0 1 1", "share.version", "0 2 2", "streams.version", "0 1 1",
                        "kraft.version", "0 1 0", "metadata.version", "3.3-IV3 4.4-IV2 4.4-IV2")
                : Map.of("eligible.leader.replicas.version", "0 0 0", "share.version", "0 0 0", "streams.version", "0 0 0");
        Map<String, String> expected = new TreeMap<>(common);
        expected.putAll(own);

        Pattern feature = Pattern.compile("Feature: (\\S+)\\s+SupportedMinVersion: (\\S+)\\s+SupportedMaxVersion: (\\S+)\\s+"
                + "FinalizedVersionLevel: (\\S+)\\s+Epoch: \\d+");
        Map<String, String> described = new TreeMap<>();
        for (String line : lines(KafkaCommand.succeed(FeatureCommand.class, bootstrap("describe")))) {
            Matcher matcher = feature.matcher(line);
            assertThat(matcher.matches()).as(line).isTrue();
            described.put(matcher.group(1), matcher.group(2) + " " + matcher.group(3) + " " + matcher.group(4));
        }
        assertThat(described).as("feature: supported min, max, finalized").isEqualTo(expected);

        // Tributary's levels are those it implements, so there is nothing to move them to: it does not serve
        // UpdateFeatures, not even the no-op Kafka accepts.
        KafkaCommand.Result upgrade = KafkaCommand.run(FeatureCommand.class, bootstrap("upgrade", "--feature", "transaction.version=2"));
        if (broker.kind() == Kind.APACHE_KAFKA) {
            assertThat(upgrade.exitCode()).isZero();
            assertThat(upgrade.out()).contains("transaction.version was upgraded to 2.");
        } else {
            assertThat(upgrade.exitCode()).isEqualTo(1);
            assertThat(upgrade.out()).contains("Could not upgrade transaction.version to 2. The node does not support UPDATE_FEATURES");
        }
    }

    @Test
    void kafkaGetOffsetsFindsOffsetsByPositionAndByTime() throws Exception {
        broker.createTopic("positions", 3);
        // a second apart up to the 13th record; from there on the records share the newest timestamp
        long base = System.currentTimeMillis() - Duration.ofHours(1).toMillis();
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int partition = 0; partition < 3; partition++) {
            for (int i = 0; i < 10 * (partition + 1); i++) {
                records.add(new ProducerRecord<>("positions", partition, base + Math.min(i, 12) * 1000L, "k", "v" + i));
            }
        }
        broker.produce(records);

        assertThat(lines(getOffsets("--topic", "positions"))).containsExactly("positions:0:10", "positions:1:20", "positions:2:30");
        assertThat(lines(getOffsets("--topic", "positions", "--time", "earliest"))).containsExactly("positions:0:0", "positions:1:0",
                "positions:2:0");
        assertThat(lines(getOffsets("--topic", "positions", "--time", String.valueOf(base + 9_500))))
                .as("the first record at or after the time; none after the last").containsExactly("positions:1:10", "positions:2:10");
        assertThat(lines(getOffsets("--topic", "positions", "--time", "max-timestamp")))
                .as("the first record with the newest timestamp").containsExactly("positions:0:9", "positions:1:12", "positions:2:12");
        assertThat(lines(getOffsets("--topic-partitions", "positions:1-3", "--time", "-1")))
                .containsExactly("positions:1:20", "positions:2:30");
    }

    @Test
    void kafkaDeleteRecordsMovesTheLogStartOffset() throws Exception {
        broker.createTopic("trimmed", 2);
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            records.add(new ProducerRecord<>("trimmed", i % 2, "k", "v" + i));
        }
        broker.produce(records);
        Path plan = Files.writeString(broker.dir().resolve("delete-records.json"),
                "{\"version\":1,\"partitions\":[{\"topic\":\"trimmed\",\"partition\":0,\"offset\":4},"
                        + "{\"topic\":\"trimmed\",\"partition\":1,\"offset\":-1}]}");
        String deleted = KafkaCommand.succeed(DeleteRecordsCommand.class, bootstrap("--offset-json-file", plan.toString()));
        assertThat(lines(deleted)).contains("partition: trimmed-0\tlow_watermark: 4", "partition: trimmed-1\tlow_watermark: 10");
        assertThat(lines(getOffsets("--topic", "trimmed", "--time", "earliest"))).containsExactly("trimmed:0:4", "trimmed:1:10");

        Path beyond = Files.writeString(broker.dir().resolve("delete-beyond.json"),
                "{\"version\":1,\"partitions\":[{\"topic\":\"trimmed\",\"partition\":0,\"offset\":11}]}");
        KafkaCommand.Result refused = KafkaCommand.run(DeleteRecordsCommand.class, bootstrap("--offset-json-file", beyond.toString()));
        assertThat(refused.out()).contains("partition: trimmed-0\terror: org.apache.kafka.common.errors.OffsetOutOfRangeException");
        assertThat(lines(getOffsets("--topic", "trimmed", "--time", "earliest"))).containsExactly("trimmed:0:4", "trimmed:1:10");
    }

    @Test
    void kafkasPerformanceToolsWriteReadAndTimeRecords() throws Exception {
        broker.createTopic("perf", 2);
        assertThat(KafkaCommand.succeed(ProducerPerformance.class, bootstrap("--topic", "perf", "--num-records", "5000",
                "--record-size", "100", "--throughput", "-1", "--command-property", "acks=all")))
                .contains("5000 records sent");
        List<String> read = lines(KafkaCommand.succeed(ConsumerPerformance.class, bootstrap("--topic", "perf",
                "--num-records", "5000", "--group", "perf-readers", "--timeout", "30000")));
        assertThat(read.get(0)).contains("data.consumed.in.nMsg");
        assertThat(read.get(1).split(",\\s*")[4]).as("records read").isEqualTo("5000");

        broker.createTopic("latency", 1);
        assertThat(KafkaCommand.succeed(EndToEndLatency.class, bootstrap("--topic", "latency", "--num-records", "200",
                "--producer-acks", "all", "--record-size", "100"))).contains("Avg latency:", "Percentiles: 50th = ");
    }

    @Test
    void kafkasInspectionToolsDescribeTheBrokerClusterAndGroups() throws Exception {
        assertThat(KafkaCommand.succeed(BrokerApiVersionsCommand.class, bootstrap()))
                .containsPattern("Produce\\(0\\): \\d+ to \\d+ \\[usable: \\d+]")
                .containsPattern("Fetch\\(1\\): \\d+ to \\d+ \\[usable: \\d+]");
        assertThat(KafkaCommand.succeed(ClusterTool.class, Stream.concat(Stream.of("cluster-id"), Stream.of(bootstrap()))
                .toArray(String[]::new))).isEqualTo("Cluster ID: " + broker.admin().describeCluster().clusterId().get() + "\n");

        broker.createTopic("streams-input", 2);
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            records.add(new ProducerRecord<>("streams-input", i % 2, "k", "v" + i));
        }
        broker.produce(records);
        String application = "resettable-app";
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(), ConsumerConfig.GROUP_ID_CONFIG, application,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of("streams-input"));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200));
                consumer.commitSync();
                return broker.committed(application).equals(Map.of(0, 5L, 1, 5L));
            });
        }
        assertThat(lines(KafkaCommand.succeed(GroupsCommand.class, bootstrap("--list"))))
                .anyMatch(line -> line.matches(application + "\\s+Classic\\s+consumer"));
        assertThat(KafkaCommand.succeed(StreamsResetter.class, bootstrap("--application-id", application,
                "--input-topics", "streams-input"))).contains("Topic: streams-input Partition: 0 Offset: 0");
        assertThat(broker.committed(application)).isEqualTo(Map.of(0, 0L, 1, 0L));
    }

    /** {@code --entity-type type --entity-name name} and more arguments. */
    private static String[] entity(String type, String name, String... more) {
        return Stream.concat(Stream.of("--entity-type", type, "--entity-name", name), Stream.of(more)).toArray(String[]::new);
    }

    /** The entries {@code kafka-configs --describe} prints after its heading: each key and the rest of its line. */
    private static Map<String, String> describedConfigs(String... args) throws Exception {
        List<String> lines = lines(configs(args));
        Map<String, String> described = new TreeMap<>();
        for (String line : lines.subList(1, lines.size())) {
            int equals = line.indexOf('=');
            described.put(line.substring(0, equals), line.substring(equals + 1));
        }
        return described;
    }
}

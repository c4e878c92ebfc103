package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.TestBroker;
import io.tributary.testkit.wire.RawConnection;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListConfigResourcesOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.ListConfigResourcesRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ConsumerGroupHeartbeatResponse;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.apache.kafka.common.requests.ListConfigResourcesResponse;
import org.apache.kafka.tools.ClientMetricsCommand;
import org.apache.kafka.tools.ConfigCommand;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Config resources beyond topics and brokers: ListConfigResources through Kafka's {@code kafka-client-metrics --list} and
 * the Java admin client, and GROUP and BROKER_LOGGER resources through Kafka's {@code kafka-configs}.
 */
@Timeout(120)
class ConfigResourcesIT {
    private static Path workDir;
    private static TestBroker broker;
    private static Admin admin;
    private static String brokerId;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        workDir = dir;
        broker = TestBroker.start(dir, Map.of("offsets.topic.num.partitions", "1"));
        admin = Clients.admin(broker.bootstrapServers());
        admin.createTopics(List.of(new NewTopic("listed", 1, (short) 1))).all().get();
        brokerId = admin.describeCluster().nodes().get().iterator().next().idString();
    }

    @AfterAll
    static void stop() {
        if (admin != null) {
            admin.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void kafkaClientMetricsListsNoSubscriptions() throws Exception {
        String listed = KafkaTool.succeed(ClientMetricsCommand.class, workDir, "--bootstrap-server", broker.bootstrapServers(),
                "--list");
        assertThat(listed).isBlank();
    }

    @Test
    void topicsBrokersAndTheirLoggersAreListed() throws Exception {
        assertThat(admin.listConfigResources(Set.of(ConfigResource.Type.TOPIC, ConfigResource.Type.BROKER,
                ConfigResource.Type.BROKER_LOGGER), new ListConfigResourcesOptions()).all().get())
                .containsExactlyInAnyOrder(new ConfigResource(ConfigResource.Type.TOPIC, "listed"),
                        new ConfigResource(ConfigResource.Type.BROKER, brokerId),
                        new ConfigResource(ConfigResource.Type.BROKER_LOGGER, brokerId));
        assertThat(admin.listConfigResources().all().get()).contains(new ConfigResource(ConfigResource.Type.TOPIC, "listed"),
                new ConfigResource(ConfigResource.Type.BROKER, brokerId));
        assertThat(admin.listClientMetricsResources().all().get()).isEmpty();
    }

    @Test
    void aTypeThisBrokerDoesNotKnowIsRefused() throws Exception {
        try (RawConnection raw = new RawConnection("127.0.0.1", broker.port())) {
            var response = (ListConfigResourcesResponse) raw.request(ApiKeys.LIST_CONFIG_RESOURCES, (short) 1,
                    new ListConfigResourcesRequestData().setResourceTypes(List.of((byte) 99)));
            assertThat(Errors.forCode(response.data().errorCode())).isEqualTo(Errors.UNSUPPORTED_VERSION);
        }
    }

    @Test
    void kafkaConfigsSetsAGroupsOwnConfigsWhichItsCoordinatorApplies() throws Exception {
        String group = "configured";
        configs("groups", group, "--alter", "--add-config", "consumer.heartbeat.interval.ms=6000,consumer.session.timeout.ms=50000");
        assertThat(configs("groups", group, "--describe")).contains("consumer.heartbeat.interval.ms=6000",
                "consumer.session.timeout.ms=50000");
        assertThat(admin.listConfigResources(Set.of(ConfigResource.Type.GROUP), new ListConfigResourcesOptions()).all().get())
                .contains(new ConfigResource(ConfigResource.Type.GROUP, group));
        Awaitility.await("the coordinator applies the group's heartbeat interval").atMost(Duration.ofSeconds(60))
                .until(() -> heartbeatIntervalOfANewMember(group) == 6000);

        ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, group);
        assertThatThrownBy(() -> alter(resource, "consumer.session.timeout.ms", "1000", AlterConfigOp.OpType.SET))
                .hasCauseInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("consumer.session.timeout.ms must be in the range 45000 to 60000 inclusive.");
        assertThatThrownBy(() -> alter(resource, "consumer.nothing", "1", AlterConfigOp.OpType.SET))
                .hasCauseInstanceOf(InvalidConfigurationException.class).hasMessageContaining("Unknown group config name: consumer.nothing");

        alter(resource, "consumer.heartbeat.interval.ms", null, AlterConfigOp.OpType.DELETE);
        Awaitility.await("the broker's heartbeat interval again").atMost(Duration.ofSeconds(30))
                .until(() -> heartbeatIntervalOfANewMember(group) == 5000);
    }

    @Test
    void kafkaConfigsReadsAndSetsThisBrokersLogLevelsUntilTheyAreDeleted() throws Exception {
        String name = FetchHandler.class.getName();
        Logger logger = Logger.getLogger(name); // the broker runs in this JVM: its loggers are these
        try {
            configs("broker-loggers", brokerId, "--alter", "--add-config", name + "=DEBUG");
            assertThat(logger.getEffectiveLevel()).isEqualTo(Level.DEBUG);
            assertThat(configs("broker-loggers", brokerId, "--describe")).contains(name + "=DEBUG", "root=WARN");

            ConfigResource resource = new ConfigResource(ConfigResource.Type.BROKER_LOGGER, brokerId);
            assertThatThrownBy(() -> alter(resource, name, "VERBOSE", AlterConfigOp.OpType.SET))
                    .hasCauseInstanceOf(InvalidConfigurationException.class).hasMessageContaining("not a supported log level");
            alter(resource, name, null, AlterConfigOp.OpType.DELETE);
            assertThat(logger.getLevel()).as("the parent's level again").isNull();
            assertThat(logger.getEffectiveLevel()).isEqualTo(Level.WARN);
        } finally {
            logger.setLevel(null);
        }
    }

    private static void alter(ConfigResource resource, String name, String value, AlterConfigOp.OpType op) throws Exception {
        admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry(name, value), op)))).all().get();
    }

    /** kafka-configs for one entity; it must succeed. */
    private static String configs(String entityType, String entityName, String... action) throws Exception {
        return KafkaTool.succeed(ConfigCommand.class, workDir, configArgs(entityType, entityName, action));
    }

    private static String[] configArgs(String entityType, String entityName, String... action) {
        List<String> args = new ArrayList<>(List.of("--bootstrap-server", broker.bootstrapServers(), "--entity-type", entityType,
                "--entity-name", entityName));
        args.addAll(List.of(action));
        return args.toArray(String[]::new);
    }

    /** The heartbeat interval the coordinator gives a member joining {@code group} (it leaves at once). */
    private static int heartbeatIntervalOfANewMember(String group) throws Exception {
        try (RawConnection raw = new RawConnection("127.0.0.1", broker.port())) {
            var found = (FindCoordinatorResponse) raw.request(ApiKeys.FIND_COORDINATOR, (short) 4, new FindCoordinatorRequestData()
                    .setKeyType((byte) 0).setCoordinatorKeys(List.of(group)));
            if (found.data().coordinators().get(0).errorCode() != Errors.NONE.code()) {
                return -1; // the offsets topic is being created
            }
            String memberId = Uuid.randomUuid().toString();
            var joined = (ConsumerGroupHeartbeatResponse) raw.request(ApiKeys.CONSUMER_GROUP_HEARTBEAT, (short) 1,
                    new ConsumerGroupHeartbeatRequestData().setGroupId(group).setMemberId(memberId).setMemberEpoch(0)
                            .setRebalanceTimeoutMs(30_000).setSubscribedTopicNames(List.of("listed")).setTopicPartitions(List.of()));
            if (joined.data().errorCode() != Errors.NONE.code()) {
                return -1; // its offsets partition is still loading
            }
            raw.request(ApiKeys.CONSUMER_GROUP_HEARTBEAT, (short) 1, new ConsumerGroupHeartbeatRequestData().setGroupId(group)
                    .setMemberId(memberId).setMemberEpoch(-1));
            return joined.data().heartbeatIntervalMs();
        }
    }
}

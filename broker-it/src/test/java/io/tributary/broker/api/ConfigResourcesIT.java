package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.TestBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConfigResourcesOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.tools.ClientMetricsCommand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** ListConfigResources through Kafka's {@code kafka-client-metrics --list} and the Java admin client. */
@Timeout(60)
class ConfigResourcesIT {
    private static Path workDir;
    private static TestBroker broker;
    private static Admin admin;
    private static String brokerId;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        workDir = dir;
        broker = TestBroker.start(dir);
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
    void aTypeThisBrokerDoesNotListIsRefused() {
        assertThatThrownBy(() -> admin.listConfigResources(Set.of(ConfigResource.Type.GROUP), new ListConfigResourcesOptions()).all().get())
                .hasCauseInstanceOf(UnsupportedVersionException.class);
    }
}

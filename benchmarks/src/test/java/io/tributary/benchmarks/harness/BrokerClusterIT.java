package io.tributary.benchmarks.harness;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Each flavor's three-broker cluster in child JVMs, as the replicated part of a run uses it: every
 * partition on all three brokers, acks=all produce, a consumer group, CPU summed over the brokers,
 * and nothing left running after close.
 */
class BrokerClusterIT {
    /** Generous: on a crowded 2-core machine four Kafka JVMs took more than 90 s to form a cluster. */
    private static final Duration LIMIT = Duration.ofSeconds(180);

    @ParameterizedTest
    @EnumSource(BrokerFlavor.class)
    void startsAReplicatedClusterThatTheWorkloadsReachAndCloseStops(BrokerFlavor flavor, @TempDir Path dir) throws Exception {
        BrokerSettings settings = BrokerSettings.replicated();
        ClusterLaunch launch = flavor.launchCluster(dir, settings);
        List<ProcessHandle> children;
        try (BrokerCluster cluster = BrokerCluster.start(flavor.optionName(), launch, "512m", "256m", new ChildProcesses(),
                ProcStat.forThisMachine())) {
            children = ProcessHandle.current().children().toList();
            assertThat(children).hasSize(4);
            cluster.awaitReady(LIMIT);
            assertThat(cluster.bootstrapServers().split(",")).hasSize(3);
            ProduceWorkload workload = new ProduceWorkload(100, "all", 2, 3);
            Topics.create(cluster, Map.of(workload.topic(), workload.partitions(), "group", 6), 3);
            assertThat(describe(cluster, workload.topic()).partitions()).allSatisfy(partition -> {
                assertThat(partition.replicas()).hasSize(3);
                assertThat(partition.isr()).hasSize(3);
            });

            double cpuBefore = cluster.cpuSeconds();
            try (ProducePhase producer = new ProducePhase(cluster)) {
                PhaseMeasurement produced = producer.forDuration(workload, Duration.ofMillis(500));
                assertThat(produced.records()).isPositive();
                producer.exactly("group", 100, 6_000, LIMIT);
            }
            assertThat(cluster.cpuSeconds()).isGreaterThan(cpuBefore);

            PhaseMeasurement grouped = GroupConsumePhase.read(cluster, "group", 100, "it-group", LIMIT);
            assertThat(grouped.records()).isEqualTo(6_000);
            assertThat(children).allSatisfy(child -> assertThat(child.info().commandLine().orElse(""))
                    .containsAnyOf("-Xmx512m", "-Xmx256m"));
        }
        assertThat(children).noneMatch(ProcessHandle::isAlive);
    }

    /**
     * The topic as the broker the admin client picks describes it. A new topic's ISR starts full, so
     * {@link Topics#create} may return before every broker has heard of the topic: until then, the
     * ones that have not answer UNKNOWN_TOPIC_OR_PARTITION, as Kafka's brokers do.
     */
    private static TopicDescription describe(Broker broker, String topic) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            return await("a broker that knows " + topic).atMost(LIMIT)
                    .ignoreExceptionsMatching(e -> e.getCause() instanceof UnknownTopicOrPartitionException)
                    .until(() -> admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic), Objects::nonNull);
        }
    }
}

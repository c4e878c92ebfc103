package io.tributary.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.MetadataRequest;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class BrokerMetricsTest {
    private static final MBeanServer MBEANS = ManagementFactory.getPlatformMBeanServer();

    /** Server hands over a ClusterGauges nothing else holds; Micrometer alone keeps gauge objects only weakly. */
    @Test
    void theClusterGaugesOutliveAGarbageCollection() {
        try (BrokerMetrics metrics = new BrokerMetrics(sources(new BrokerTopicStats(), new FixedGauges(3, 2, true), new AtomicInteger(4)::get))) {
            WeakReference<Object> collected = new WeakReference<>(new Object());
            Awaitility.await("a collection has run").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        System.gc();
                        return collected.get() == null;
                    });
            String scrape = metrics.scrape();
            assertThat(scrape).contains("tributary_partitions_under_replicated 3.0", "tributary_partitions_offline 2.0",
                    "tributary_controller_active 1.0", "tributary_request_queue_size 4.0", "tributary_fetch_sessions 2.0",
                    "tributary_fetch_sessions_partitions 1500.0", "tributary_fetch_sessions_evicted_total 7.0");
        }
    }

    @Test
    void aTopicsCountersAppearWithItsFirstTraffic() {
        BrokerTopicStats stats = new BrokerTopicStats();
        stats.recordProduced("before", 2, 100);
        try (BrokerMetrics metrics = new BrokerMetrics(sources(stats, new FixedGauges(0, 0, false), () -> 0))) {
            stats.recordFetched("after", 50);
            stats.recordFetched("after", 0);
            String scrape = metrics.scrape();
            assertThat(scrape).contains("tributary_broker_messages_in_total{topic=\"before\"} 2.0",
                    "tributary_broker_bytes_in_total{topic=\"before\"} 100.0",
                    "tributary_broker_bytes_out_total{topic=\"after\"} 50.0", "tributary_controller_active 0.0");
        }
    }

    @Test
    void isrChangesFlushesIdleTimeAndGroupLagAreScraped() {
        IsrChanges isr = new IsrChanges();
        isr.stored(List.of(1, 2, 3), List.of(1, 2));
        isr.stored(List.of(1, 2), List.of(1, 2, 3));
        isr.stored(List.of(1, 2, 3), List.of(1));
        IdleRatio idle = new IdleRatio();
        idle.record(750, 1000);
        List<PartitionLag> lags = List.of(new PartitionLag("readers", new TopicPartition("events", 0), 40, 100),
                new PartitionLag("readers", new TopicPartition("events", 1), 7, 7));
        try (BrokerMetrics metrics = new BrokerMetrics(new BrokerMetrics.Sources(new BrokerTopicStats(), isr,
                new FixedGauges(0, 0, true), () -> 0, idle, () -> lags, NO_SESSIONS))) {
            metrics.recordLogFlush(3_000_000);
            String scrape = metrics.scrape();
            assertThat(scrape).contains("tributary_isr_shrinks_total 2.0", "tributary_isr_expands_total 1.0",
                    "tributary_network_idle_ratio 0.75", "tributary_log_flush_seconds_count 1",
                    "tributary_log_flush_seconds_sum 0.003",
                    "tributary_group_lag{group=\"readers\",partition=\"0\",topic=\"events\"} 60.0",
                    "tributary_group_lag{group=\"readers\",partition=\"1\",topic=\"events\"} 0.0");
        }
    }

    @Test
    void theMainMetersAreMBeansUnderKafkasNamesUntilClosed() throws Exception {
        BrokerTopicStats stats = new BrokerTopicStats();
        IsrChanges isr = new IsrChanges();
        ObjectName topicMessages = new ObjectName("kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=clicks");
        try (BrokerMetrics metrics = new BrokerMetrics(new BrokerMetrics.Sources(stats, isr, new FixedGauges(2, 1, true),
                () -> 3, new IdleRatio(), List::of, NO_SESSIONS))) {
            stats.recordProduced("clicks", 10, 1000);
            stats.recordProduced("views", 5, 400);
            stats.recordFetched("clicks", 300);
            isr.stored(List.of(1, 2), List.of(1));
            metrics.recordLogFlush(2_000_000);
            metrics.requestLatency().time(MetadataRequest.Builder.allTopics().build((short) 12), () -> CompletableFuture.completedFuture(null));

            assertThat(attribute(topicMessages, "Count")).isEqualTo(10L);
            assertThat(attribute("kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec", "Count"))
                    .as("all topics").isEqualTo(15L);
            assertThat(attribute("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec,topic=views", "Count")).isEqualTo(400L);
            assertThat(attribute("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec", "Count")).isEqualTo(1400L);
            assertThat(attribute("kafka.server:type=BrokerTopicMetrics,name=BytesOutPerSec,topic=clicks", "Count")).isEqualTo(300L);
            assertThat(attribute(topicMessages, "OneMinuteRate")).isInstanceOf(Double.class);
            assertThat(attribute("kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions", "Value")).isEqualTo(2.0);
            assertThat(attribute("kafka.server:type=ReplicaManager,name=IsrShrinksPerSec", "Count")).isEqualTo(1L);
            assertThat(attribute("kafka.server:type=ReplicaManager,name=IsrExpandsPerSec", "Count")).isEqualTo(0L);
            assertThat(attribute("kafka.controller:type=KafkaController,name=ActiveControllerCount", "Value")).isEqualTo(1.0);
            assertThat(attribute("kafka.controller:type=KafkaController,name=OfflinePartitionsCount", "Value")).isEqualTo(1.0);
            assertThat(attribute("kafka.network:type=RequestChannel,name=RequestQueueSize", "Value")).isEqualTo(3.0);
            assertThat(attribute("kafka.network:type=SocketServer,name=NetworkProcessorAvgIdlePercent", "Value")).isNotNull();
            assertThat(attribute("kafka.log:type=LogFlushStats,name=LogFlushRateAndTimeMs", "Count")).isEqualTo(1L);
            assertThat((Double) attribute("kafka.log:type=LogFlushStats,name=LogFlushRateAndTimeMs", "Max")).isEqualTo(2.0);
            assertThat(attribute("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Metadata", "Count")).isEqualTo(1L);
            assertThat(attribute("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Metadata", "99thPercentile"))
                    .isInstanceOf(Double.class);
            Set<String> brokerMBeans = new TreeSet<>();
            for (String domain : List.of("kafka.server", "kafka.controller", "kafka.network", "kafka.log")) {
                MBEANS.queryNames(new ObjectName(domain + ":*"), null).forEach(name -> brokerMBeans.add(name.getCanonicalName()));
            }
            assertThat(brokerMBeans).as("Kafka's names only, nothing else (no percentile gauges, no tributary names)")
                    .hasSize(18).allMatch(name -> name.contains(":name=") && !name.contains("tributary"));
        }
        assertThat(MBEANS.isRegistered(topicMessages)).isFalse();
    }

    /** Kafka's dashboards read fetches as FetchConsumer and FetchFollower, never as Fetch. */
    @Test
    void fetchLatencyIsSplitByWhoFetchesAsInKafka() throws Exception {
        FetchRequest consumer = FetchRequest.Builder.forConsumer((short) 12, 500, 1, Map.of()).build((short) 12);
        FetchRequest follower = FetchRequest.Builder.forReplica((short) 12, 2, -1, 500, 1, Map.of()).build((short) 12);
        try (BrokerMetrics metrics = new BrokerMetrics(sources(new BrokerTopicStats(), new FixedGauges(0, 0, false), () -> 0))) {
            for (FetchRequest fetch : List.of(consumer, consumer, follower)) {
                metrics.requestLatency().time(fetch, () -> CompletableFuture.completedFuture(null));
            }
            assertThat(attribute("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=FetchConsumer", "Count")).isEqualTo(2L);
            assertThat(attribute("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=FetchFollower", "Count")).isEqualTo(1L);
            assertThat(MBEANS.isRegistered(new ObjectName("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Fetch"))).isFalse();
            assertThat(metrics.scrape()).contains("tributary_request_latency_seconds_count{api=\"FetchConsumer\"} 2",
                    "tributary_request_latency_seconds_count{api=\"FetchFollower\"} 1").doesNotContain("api=\"Fetch\"");
        }
    }

    private static Object attribute(String name, String attribute) throws Exception {
        return attribute(new ObjectName(name), attribute);
    }

    private static Object attribute(ObjectName name, String attribute) throws Exception {
        return MBEANS.getAttribute(name, attribute);
    }

    private static BrokerMetrics.Sources sources(BrokerTopicStats stats, ClusterGauges cluster, java.util.function.IntSupplier queued) {
        return new BrokerMetrics.Sources(stats, new IsrChanges(), cluster, queued, new IdleRatio(), List::of, new FixedSessions(2, 1500, 7));
    }

    private record FixedGauges(int underReplicatedPartitions, int offlinePartitions, boolean activeController)
            implements ClusterGauges {
    }

    private static final FetchSessionGauges NO_SESSIONS = new FixedSessions(0, 0, 0);

    private record FixedSessions(int sessions, long cachedPartitions, long evictions) implements FetchSessionGauges {
    }
}

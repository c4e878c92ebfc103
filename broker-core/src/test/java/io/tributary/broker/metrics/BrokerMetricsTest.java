package io.tributary.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class BrokerMetricsTest {
    /** Server hands over a ClusterGauges nothing else holds; Micrometer alone keeps gauge objects only weakly. */
    @Test
    void theClusterGaugesOutliveAGarbageCollection() {
        BrokerMetrics metrics = new BrokerMetrics(new BrokerTopicStats(), new FixedGauges(3, 2, true), new AtomicInteger(4)::get,
                new FixedSessions(2, 1500, 7));
        WeakReference<Object> collected = new WeakReference<>(new Object());
        Awaitility.await("a collection has run").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    System.gc();
                    return collected.get() == null;
                });
        String scrape = metrics.registry().scrape();
        assertThat(scrape).contains("tributary_partitions_under_replicated 3.0", "tributary_partitions_offline 2.0",
                "tributary_controller_active 1.0", "tributary_request_queue_size 4.0", "tributary_fetch_sessions 2.0",
                "tributary_fetch_sessions_partitions 1500.0", "tributary_fetch_sessions_evicted_total 7.0");
    }

    @Test
    void aTopicsCountersAppearWithItsFirstTraffic() {
        BrokerTopicStats stats = new BrokerTopicStats();
        stats.recordProduced("before", 2, 100);
        BrokerMetrics metrics = new BrokerMetrics(stats, new FixedGauges(0, 0, false), () -> 0, new FixedSessions(0, 0, 0));
        stats.recordFetched("after", 50);
        stats.recordFetched("after", 0);
        String scrape = metrics.registry().scrape();
        assertThat(scrape).contains("tributary_broker_messages_in_total{topic=\"before\"} 2.0",
                "tributary_broker_bytes_in_total{topic=\"before\"} 100.0",
                "tributary_broker_bytes_out_total{topic=\"after\"} 50.0", "tributary_controller_active 0.0");
    }

    private record FixedGauges(int underReplicatedPartitions, int offlinePartitions, boolean activeController)
            implements ClusterGauges {
    }

    private record FixedSessions(int sessions, long cachedPartitions, long evictions) implements FetchSessionGauges {
    }
}

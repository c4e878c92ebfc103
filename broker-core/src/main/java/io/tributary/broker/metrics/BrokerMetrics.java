package io.tributary.broker.metrics;

import java.util.function.IntSupplier;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The broker's meters in one Prometheus registry: per-topic traffic from {@link BrokerTopicStats} and the cluster
 * gauges, which are computed only when scraped.
 */
public final class BrokerMetrics {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final RequestLatency requestLatency = new RequestLatency(registry);

    /** Micrometer holds a gauge's object weakly: here it is held strongly, since nothing else may keep it. */
    public BrokerMetrics(BrokerTopicStats topicStats, ClusterGauges cluster, IntSupplier queuedRequests, FetchSessionGauges fetchSessions) {
        topicStats.onNewTopic(topic -> registerTopic(topic, topicStats.of(topic)));
        Gauge.builder("tributary.request.queue.size", queuedRequests, IntSupplier::getAsInt)
                .description("Requests waiting for a handler thread (at most queued.max.requests)").strongReference(true)
                .register(registry);
        Gauge.builder("tributary.partitions.under.replicated", cluster, ClusterGauges::underReplicatedPartitions)
                .description("Partitions this broker leads whose ISR is smaller than their replica list").strongReference(true)
                .register(registry);
        Gauge.builder("tributary.partitions.offline", cluster, ClusterGauges::offlinePartitions)
                .description("Partitions without a live leader; counted by the active controller only (0 on the others)")
                .strongReference(true).register(registry);
        Gauge.builder("tributary.controller.active", cluster, gauges -> gauges.activeController() ? 1 : 0)
                .description("1 on the active controller, 0 on every other broker").strongReference(true).register(registry);
        Gauge.builder("tributary.fetch.sessions", fetchSessions, FetchSessionGauges::sessions)
                .description("Incremental fetch sessions open (at most max.incremental.fetch.session.cache.slots)")
                .strongReference(true).register(registry);
        Gauge.builder("tributary.fetch.sessions.partitions", fetchSessions, FetchSessionGauges::cachedPartitions)
                .description("Partitions over all open fetch sessions").strongReference(true).register(registry);
        FunctionCounter.builder("tributary.fetch.sessions.evicted", fetchSessions, FetchSessionGauges::evictions)
                .description("Fetch sessions evicted to make room for another").register(registry);
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    public RequestLatency requestLatency() {
        return requestLatency;
    }

    private void registerTopic(String topic, BrokerTopicStats.TopicStats stats) {
        FunctionCounter.builder("tributary.broker.messages.in", stats, BrokerTopicStats.TopicStats::messagesIn)
                .description("Records produced to the topic on this broker").tag("topic", topic).register(registry);
        FunctionCounter.builder("tributary.broker.bytes.in", stats, BrokerTopicStats.TopicStats::bytesIn)
                .description("Bytes of record batches produced to the topic on this broker").tag("topic", topic).register(registry);
        FunctionCounter.builder("tributary.broker.bytes.out", stats, BrokerTopicStats.TopicStats::bytesOut)
                .description("Bytes of record batches of the topic sent to consumers (not followers)").tag("topic", topic)
                .register(registry);
    }
}

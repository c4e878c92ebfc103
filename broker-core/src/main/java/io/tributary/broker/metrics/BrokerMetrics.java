package io.tributary.broker.metrics;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.jmx.JmxReporter;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The broker's meters, each defined once in a composite registry that publishes it twice: in the Prometheus text
 * format (GET /metrics, {@link #scrape()}) and as a JMX MBean under Kafka's name ({@link KafkaJmxNames}; meters
 * without a Kafka counterpart stay out of JMX). Cluster gauges and group lag are computed only when read.
 * The MBeans go to the platform MBean server: one broker per JVM, as with Kafka (a second broker's MBeans of the same
 * names are not registered).
 */
public final class BrokerMetrics implements AutoCloseable {
    static final String MESSAGES_IN = "tributary.broker.messages.in";
    static final String BYTES_IN = "tributary.broker.bytes.in";
    static final String BYTES_OUT = "tributary.broker.bytes.out";
    static final String UNDER_REPLICATED = "tributary.partitions.under.replicated";
    static final String OFFLINE = "tributary.partitions.offline";
    static final String CONTROLLER_ACTIVE = "tributary.controller.active";
    static final String ISR_SHRINKS = "tributary.isr.shrinks";
    static final String ISR_EXPANDS = "tributary.isr.expands";
    static final String REQUEST_QUEUE_SIZE = "tributary.request.queue.size";
    static final String NETWORK_IDLE = "tributary.network.idle.ratio";
    static final String LOG_FLUSH = "tributary.log.flush";
    static final String GROUP_LAG = "tributary.group.lag";
    static final String TOPIC = "topic";

    /** Where the meters read their values. */
    public record Sources(BrokerTopicStats topics, IsrChanges isrChanges, ClusterGauges cluster, IntSupplier queuedRequests,
                         IdleRatio networkIdle, Supplier<List<PartitionLag>> groupLags, FetchSessionGauges fetchSessions) {
    }

    private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JmxMeterRegistry jmx = kafkaNamedJmx();
    private final CompositeMeterRegistry registry = new CompositeMeterRegistry(Clock.SYSTEM, List.of(prometheus, jmx));
    private final RequestLatency requestLatency = new RequestLatency(registry);
    private final Timer logFlush = Timer.builder(LOG_FLUSH).description("Time to flush (fsync) a log's segments up to an offset")
            .publishPercentiles(0.5, 0.99).register(registry);
    private final Supplier<List<PartitionLag>> groupLags;
    private final MultiGauge groupLag = MultiGauge.builder(GROUP_LAG)
            .description("Records a group is behind on a partition: its end offset minus the group's committed offset; "
                    + "on the group's coordinator").register(prometheus);

    /** Micrometer holds a gauge's object weakly: here it is held strongly, since nothing else may keep it. */
    public BrokerMetrics(Sources sources) {
        this.groupLags = sources.groupLags();
        BrokerTopicStats topics = sources.topics();
        topics.onNewTopic(topic -> registerTopic(topic, topics.of(topic)));
        FunctionCounter.builder(MESSAGES_IN, topics, BrokerTopicStats::messagesIn).register(jmx); // Kafka's "all topics"
        FunctionCounter.builder(BYTES_IN, topics, BrokerTopicStats::bytesIn).register(jmx);
        FunctionCounter.builder(BYTES_OUT, topics, BrokerTopicStats::bytesOut).register(jmx);
        Gauge.builder(REQUEST_QUEUE_SIZE, sources.queuedRequests(), IntSupplier::getAsInt)
                .description("Requests waiting for a handler thread (at most queued.max.requests)").strongReference(true)
                .register(registry);
        Gauge.builder(NETWORK_IDLE, sources.networkIdle(), IdleRatio::ratio)
                .description("Share of the network threads' time spent waiting for sockets, over the last 10 s (1 = idle)")
                .strongReference(true).register(registry);
        FunctionCounter.builder(ISR_SHRINKS, sources.isrChanges(), IsrChanges::shrinks)
                .description("ISR shrinks this broker stored as leader (followers dropped for lagging)").register(registry);
        FunctionCounter.builder(ISR_EXPANDS, sources.isrChanges(), IsrChanges::expands)
                .description("ISR expansions this broker stored as leader (followers that caught up)").register(registry);
        ClusterGauges cluster = sources.cluster();
        Gauge.builder(UNDER_REPLICATED, cluster, ClusterGauges::underReplicatedPartitions)
                .description("Partitions this broker leads whose ISR is smaller than their replica list").strongReference(true)
                .register(registry);
        Gauge.builder(OFFLINE, cluster, ClusterGauges::offlinePartitions)
                .description("Partitions without a live leader; counted by the active controller only (0 on the others)")
                .strongReference(true).register(registry);
        Gauge.builder(CONTROLLER_ACTIVE, cluster, gauges -> gauges.activeController() ? 1 : 0)
                .description("1 on the active controller, 0 on every other broker").strongReference(true).register(registry);
        FetchSessionGauges fetchSessions = sources.fetchSessions();
        Gauge.builder("tributary.fetch.sessions", fetchSessions, FetchSessionGauges::sessions)
                .description("Incremental fetch sessions open (at most max.incremental.fetch.session.cache.slots)")
                .strongReference(true).register(registry);
        Gauge.builder("tributary.fetch.sessions.partitions", fetchSessions, FetchSessionGauges::cachedPartitions)
                .description("Partitions over all open fetch sessions").strongReference(true).register(registry);
        FunctionCounter.builder("tributary.fetch.sessions.evicted", fetchSessions, FetchSessionGauges::evictions)
                .description("Fetch sessions evicted to make room for another").register(registry);
    }

    /** A registry whose MBeans carry Kafka's names and attributes (Count and rates, Value, percentiles in ms). */
    private static JmxMeterRegistry kafkaNamedJmx() {
        MetricRegistry dropwizard = new MetricRegistry();
        JmxReporter reporter = JmxReporter.forRegistry(dropwizard).convertDurationsTo(TimeUnit.MILLISECONDS)
                .convertRatesTo(TimeUnit.SECONDS).createsObjectNamesWith((type, domain, name) -> {
                    try {
                        return ObjectName.getInstance(name);
                    } catch (MalformedObjectNameException e) {
                        throw new IllegalArgumentException("not a JMX name: " + name, e);
                    }
                }).build();
        JmxMeterRegistry jmx = new JmxMeterRegistry(JmxConfig.DEFAULT, Clock.SYSTEM,
                (id, convention) -> KafkaJmxNames.of(id).orElseThrow(), dropwizard, reporter);
        jmx.config().meterFilter(MeterFilter.denyUnless(KafkaJmxNames::has));
        return jmx;
    }

    /** The meters in the Prometheus text format, group lag computed now. */
    public String scrape() {
        groupLag.register(groupLags.get().stream().map(lag -> MultiGauge.Row.of(Tags.of("group", lag.group(),
                TOPIC, lag.partition().topic(), "partition", Integer.toString(lag.partition().partition())), lag.lag())).toList(), true);
        return prometheus.scrape();
    }

    /** Adds meters defined elsewhere (the client quotas'); like the others, they reach JMX only where Kafka names them. */
    public void bind(MeterBinder binder) {
        binder.bindTo(registry);
    }

    public RequestLatency requestLatency() {
        return requestLatency;
    }

    /** Records one log flush, {@code nanos} long (a {@code FlushTimes} listener). */
    public void recordLogFlush(long nanos) {
        logFlush.record(nanos, TimeUnit.NANOSECONDS);
    }

    private void registerTopic(String topic, BrokerTopicStats.TopicStats stats) {
        FunctionCounter.builder(MESSAGES_IN, stats, BrokerTopicStats.TopicStats::messagesIn)
                .description("Records produced to the topic on this broker").tag(TOPIC, topic).register(registry);
        FunctionCounter.builder(BYTES_IN, stats, BrokerTopicStats.TopicStats::bytesIn)
                .description("Bytes of record batches produced to the topic on this broker").tag(TOPIC, topic).register(registry);
        FunctionCounter.builder(BYTES_OUT, stats, BrokerTopicStats.TopicStats::bytesOut)
                .description("Bytes of record batches of the topic sent to consumers (not followers)").tag(TOPIC, topic)
                .register(registry);
    }

    /** Unregisters the MBeans. */
    @Override
    public void close() {
        registry.close();
    }
}

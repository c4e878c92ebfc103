package io.tributary.broker.quota;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricsReporter;

/**
 * Shows the quota metrics of the quotas' kafka-clients registry as Micrometer gauges (GET /metrics), each read when
 * scraped: Kafka's metrics under {@code tributary_*} names, a gauge per metric while its sensor lives (a client's
 * expire after an hour without traffic). Averages over a window without events (NaN in kafka-clients) read 0.
 */
final class QuotaMeters implements MetricsReporter {
    /** A Kafka metric (group, name) shown as a gauge: its name, the tags it adds, its description. */
    private record Exported(String name, Tags tags, String description) {
    }

    private static final String THROTTLE_TIME = "tributary.quota.throttle.time.ms";
    private static final String THROTTLE_DESCRIPTION = "Average throttle time of the client's throttled responses over "
            + "the quota window, by the quota that throttled them; 0 when none was";
    private static final String CONNECTION_THROTTLE_TIME = "tributary.quota.connection.throttle.time.ms";
    private static final String CONNECTION_THROTTLE_DESCRIPTION = "Average throttle time of the throttled new connections "
            + "on the listener over the quota window, by the limit that throttled them; 0 when none was";
    private static final Map<List<String>, Exported> EXPORTED = Map.of(
            List.of("Produce", "byte-rate"), new Exported("tributary.quota.byte.rate", Tags.of("quota", "produce"),
                    "Bytes per second of produce requests, as producer_byte_rate measures them"),
            List.of("Fetch", "byte-rate"), new Exported("tributary.quota.byte.rate", Tags.of("quota", "fetch"),
                    "Bytes per second of fetch responses, as consumer_byte_rate measures them"),
            List.of("Request", "request-time"), new Exported("tributary.quota.request.time.percent", Tags.empty(),
                    "Request handler and network thread time, in percent of one thread, as request_percentage measures it"),
            List.of("Produce", "throttle-time"), new Exported(THROTTLE_TIME, Tags.of("quota", "produce"), THROTTLE_DESCRIPTION),
            List.of("Fetch", "throttle-time"), new Exported(THROTTLE_TIME, Tags.of("quota", "fetch"), THROTTLE_DESCRIPTION),
            List.of("Request", "throttle-time"), new Exported(THROTTLE_TIME, Tags.of("quota", "request"), THROTTLE_DESCRIPTION),
            List.of("socket-server-metrics", "connection-accept-throttle-time"), new Exported(CONNECTION_THROTTLE_TIME,
                    Tags.of("quota", "max.connection.creation.rate"), CONNECTION_THROTTLE_DESCRIPTION),
            List.of("socket-server-metrics", "ip-connection-accept-throttle-time"), new Exported(CONNECTION_THROTTLE_TIME,
                    Tags.of("quota", "connection_creation_rate"), CONNECTION_THROTTLE_DESCRIPTION));

    private final MeterRegistry registry;
    private final Map<MetricName, Meter> gauges = new ConcurrentHashMap<>();

    QuotaMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void configure(Map<String, ?> configs) {
    }

    @Override
    public void init(List<KafkaMetric> metrics) {
        metrics.forEach(this::metricChange);
    }

    @Override
    public void metricChange(KafkaMetric metric) {
        MetricName name = metric.metricName();
        Exported exported = EXPORTED.get(List.of(name.group(), name.name()));
        if (exported == null) {
            return;
        }
        Tags tags = exported.tags();
        for (Map.Entry<String, String> tag : name.tags().entrySet()) {
            tags = tags.and(tag.getKey().replace('-', '_'), tag.getValue()); // client-id: client_id, as Prometheus spells labels
        }
        // A sensor re-created under the same name reports its removal first: no gauge is left reading a dead metric.
        gauges.put(name, Gauge.builder(exported.name(), metric, QuotaMeters::valueOf).description(exported.description())
                .tags(tags).strongReference(true).register(registry));
    }

    @Override
    public void metricRemoval(KafkaMetric metric) {
        Meter gauge = gauges.remove(metric.metricName());
        if (gauge != null) {
            registry.remove(gauge);
        }
    }

    @Override
    public void close() {
        gauges.values().forEach(registry::remove);
        gauges.clear();
    }

    private static double valueOf(KafkaMetric metric) {
        double value = ((Number) metric.metricValue()).doubleValue();
        return Double.isNaN(value) ? 0 : value;
    }
}

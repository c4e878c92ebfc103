package io.tributary.broker.quota;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Quota;
import org.apache.kafka.common.metrics.QuotaViolationException;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Rate;

/**
 * Measures one {@link QuotaType} per client against its quota, with a kafka-clients {@link Sensor} per rate (a
 * {@link Rate} over {@code quota.window.num} windows of {@code quota.window.size.seconds}, bounded by a
 * {@link Quota}). A value that takes the rate over the bound is still recorded, and the client is throttled for as
 * long as the rate needs to come back to it, as Kafka computes it: {@code (rate - bound) / bound * window}, at most
 * the whole window for a byte rate and at most one sample ({@code quota.window.size.seconds}) for request time, as
 * Kafka bounds it. Sensors of clients idle for an hour expire. Thread-safe.
 */
final class ClientQuotaManager {
    private static final long INACTIVE_SENSOR_EXPIRATION_SECONDS = 3600;

    private final QuotaType type;
    private final Metrics metrics;
    private final QuotaWindow window;
    private volatile ClientQuotas quotas = ClientQuotas.NONE;

    /** {@code quota.window.num} and {@code quota.window.size.seconds}. */
    record QuotaWindow(int samples, int sizeSeconds) {
        long maxThrottleTimeMs(QuotaType type) {
            return TimeUnit.SECONDS.toMillis(type == QuotaType.REQUEST ? sizeSeconds : (long) samples * sizeSeconds);
        }
    }

    ClientQuotaManager(QuotaType type, Metrics metrics, QuotaWindow window) {
        this.type = type;
        this.metrics = metrics;
        this.window = window;
    }

    /** Applies new quotas: rates measured so far start again against their new bounds. */
    void update(ClientQuotas updated) {
        quotas = updated;
        List<MetricName> ours = metrics.metrics().keySet().stream()
                .filter(name -> name.group().equals(type.metricGroup())).toList();
        for (MetricName name : ours) {
            metrics.removeSensor(sensorName(name.tags().get("user"), name.tags().get("client-id")));
        }
    }

    /**
     * Records {@code value} (bytes, or percent-seconds of handler time) for the client.
     *
     * @return how long the client must wait for its rate to be back within its quota (0 if it is, or has none)
     */
    long recordAndGetThrottleTimeMs(String user, String clientId, double value, long nowMs) {
        var applied = quotas.find(user, clientId, type);
        if (applied.isEmpty()) {
            return 0;
        }
        Sensor sensor = sensor(applied.get());
        try {
            sensor.record(value, nowMs, true);
            return 0;
        } catch (QuotaViolationException e) {
            return throttleTimeMs(e, nowMs);
        }
    }

    /**
     * Records {@code value} for the client without checking its quota: a negative value takes back one recorded
     * before, a positive one counts against the client's next request.
     */
    void recordNoThrottle(String user, String clientId, double value, long nowMs) {
        quotas.find(user, clientId, type).ifPresent(applied -> sensor(applied).record(value, nowMs, false));
    }

    private long throttleTimeMs(QuotaViolationException e, long nowMs) {
        KafkaMetric metric = e.metric();
        long windowMs = ((Rate) metric.measurable()).windowSize(metric.config(), nowMs);
        long throttleMs = Math.round((e.value() - e.bound()) / e.bound() * windowMs);
        return Math.max(0, Math.min(throttleMs, window.maxThrottleTimeMs(type)));
    }

    private Sensor sensor(ClientQuotas.Applied applied) {
        String name = sensorName(applied.user(), applied.clientId());
        Sensor existing = metrics.getSensor(name);
        if (existing != null) {
            return existing;
        }
        MetricConfig config = new MetricConfig()
                .samples(window.samples())
                .timeWindow(window.sizeSeconds(), TimeUnit.SECONDS)
                .quota(Quota.upperBound(applied.bound()));
        synchronized (this) {
            Sensor sensor = metrics.sensor(name, config, INACTIVE_SENSOR_EXPIRATION_SECONDS);
            if (!sensor.hasMetrics()) {
                sensor.add(metrics.metricName(type.metricName(), type.metricGroup(),
                        "Tracking " + type.configKey() + " per user and client-id",
                        Map.of("user", applied.user(), "client-id", applied.clientId())), new Rate(), config);
            }
            return sensor;
        }
    }

    private String sensorName(String user, String clientId) {
        return type.metricGroup() + ":" + user + ":" + clientId;
    }
}

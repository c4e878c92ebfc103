package io.tributary.broker.quota;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.MeasurableStat;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Quota;
import org.apache.kafka.common.metrics.QuotaViolationException;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Avg;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.server.quota.QuotaUtils;

/**
 * Measures one {@link QuotaType} per client against its quota, with a kafka-clients {@link Sensor} per rate (a
 * {@link Rate} over the {@link QuotaWindow}, bounded by a {@link Quota}) and one for the throttle times it caused (an
 * {@link Avg} of those above 0), under Kafka's metric names: group {@code Produce}, {@code Fetch} or {@code Request},
 * {@code byte-rate} or {@code request-time} and {@code throttle-time}, tags {@code user} and {@code client-id} of the
 * entity whose quota applies ("" where it names none). A value that takes the rate over the bound is still recorded,
 * and the client is throttled for as long as the rate needs to come back to it, as Kafka computes it:
 * {@code (rate - bound) / bound * window}, at most the whole window for a byte rate and at most one sample for request
 * time, as Kafka bounds it. Sensors of clients idle for an hour expire. Thread-safe.
 */
final class ClientQuotaManager {
    private static final long INACTIVE_SENSOR_EXPIRATION_SECONDS = 3600;

    private final QuotaType type;
    private final Metrics metrics;
    private final QuotaWindow window;
    private volatile ClientQuotas quotas = ClientQuotas.NONE;

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
            String user = name.tags().get("user");
            String clientId = name.tags().get("client-id");
            metrics.removeSensor(rateSensorName(user, clientId));
            metrics.removeSensor(throttleSensorName(user, clientId));
        }
    }

    /**
     * Records {@code value} (bytes, or percent-seconds of request time) for the client.
     *
     * @return how long the client must wait for its rate to be back within its quota (0 if it is, or has none)
     */
    long recordAndGetThrottleTimeMs(String user, String clientId, double value, long nowMs) {
        var applied = quotas.find(user, clientId, type);
        if (applied.isEmpty()) {
            return 0;
        }
        try {
            rateSensor(applied.get()).record(value, nowMs, true);
            return 0;
        } catch (QuotaViolationException e) {
            long maxMs = type == QuotaType.REQUEST ? window.sampleMs() : window.windowMs();
            return Math.max(0, QuotaUtils.boundedThrottleTime(e, maxMs, nowMs));
        }
    }

    /**
     * Records {@code value} for the client without checking its quota: a negative value takes back one recorded
     * before, a positive one counts against the client's next request.
     */
    void recordNoThrottle(String user, String clientId, double value, long nowMs) {
        quotas.find(user, clientId, type).ifPresent(applied -> rateSensor(applied).record(value, nowMs, false));
    }

    /** The client was throttled {@code throttleMs} (above 0) for this quota: counted in its {@code throttle-time}. */
    void recordThrottleTime(String user, String clientId, long throttleMs, long nowMs) {
        quotas.find(user, clientId, type).ifPresent(applied -> sensor(throttleSensorName(applied.user(), applied.clientId()),
                "throttle-time", "Average throttle time in ms, of the throttled responses", applied, new Avg(), null)
                .record(throttleMs, nowMs, false));
    }

    private Sensor rateSensor(ClientQuotas.Applied applied) {
        return sensor(rateSensorName(applied.user(), applied.clientId()), type.metricName(),
                "Tracking " + type.configKey() + " per user and client-id", applied, new Rate(), Quota.upperBound(applied.bound()));
    }

    private Sensor sensor(String name, String metricName, String description, ClientQuotas.Applied applied,
                          MeasurableStat stat, Quota quota) {
        Sensor existing = metrics.getSensor(name);
        if (existing != null) {
            return existing;
        }
        synchronized (this) {
            Sensor sensor = metrics.sensor(name, window.metricConfig(quota), INACTIVE_SENSOR_EXPIRATION_SECONDS);
            if (!sensor.hasMetrics()) {
                sensor.add(metrics.metricName(metricName, type.metricGroup(), description,
                        Map.of("user", applied.user(), "client-id", applied.clientId())), stat, window.metricConfig(quota));
            }
            return sensor;
        }
    }

    private String rateSensorName(String user, String clientId) {
        return type.metricGroup() + ":" + user + ":" + clientId;
    }

    private String throttleSensorName(String user, String clientId) {
        return type.metricGroup() + "ThrottleTime:" + user + ":" + clientId;
    }
}

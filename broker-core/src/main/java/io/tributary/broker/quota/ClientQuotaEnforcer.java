package io.tributary.broker.quota;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.tributary.broker.network.ConnectionRates;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.utils.Time;

/**
 * The broker's client quotas: one {@link ClientQuotaManager} per {@link QuotaType} and the {@link ConnectionRateQuotas}
 * over one kafka-clients {@link Metrics} registry (whose expiry thread drops the sensors of idle clients), which
 * {@link #bindTo} shows on GET /metrics. The user is the authenticated principal's name; on a PLAINTEXT listener every
 * client is {@code ANONYMOUS}, as in Kafka. Thread-safe.
 */
public final class ClientQuotaEnforcer implements MeterBinder, AutoCloseable {
    /** The user of an unauthenticated connection. */
    public static final String ANONYMOUS_USER = KafkaPrincipal.ANONYMOUS.getName();
    /** Request time (handler and network threads') is recorded in percent-seconds: 100 for one thread busy for one second. */
    private static final double PERCENT_PER_NANO = 100.0 / TimeUnit.SECONDS.toNanos(1);

    private final Metrics metrics;
    private final Time time;
    private final Map<QuotaType, ClientQuotaManager> managers = new EnumMap<>(QuotaType.class);
    private final ConnectionRateQuotas connectionRates;
    private volatile boolean anyQuota;

    /**
     * @param windowSamples {@code quota.window.num}; @param windowSeconds {@code quota.window.size.seconds}
     * @param connectionRateLimits {@code max.connection.creation.rate}, broker-wide and per listener
     */
    public ClientQuotaEnforcer(int windowSamples, int windowSeconds, ConnectionRateLimits connectionRateLimits, Time time) {
        this.metrics = new Metrics(new MetricConfig(), new ArrayList<>(), time, true); // a list bindTo can add to
        this.time = time;
        QuotaWindow window = new QuotaWindow(windowSamples, windowSeconds);
        for (QuotaType type : QuotaType.values()) {
            managers.put(type, new ClientQuotaManager(type, metrics, window));
        }
        this.connectionRates = new ConnectionRateQuotas(metrics, window, connectionRateLimits);
    }

    /** Applies the quotas as configured now (every entity's, as {@code ClientQuotaStore} reads them). */
    public void update(Map<ClientQuotaEntity, Map<String, Double>> configured) {
        ClientQuotas quotas = new ClientQuotas(configured);
        managers.values().forEach(manager -> manager.update(quotas));
        connectionRates.update(configured);
        anyQuota = configured.keySet().stream().anyMatch(entity -> !entity.entries().containsKey(ClientQuotaEntity.IP));
    }

    /** What the acceptors ask about new connections. */
    public ConnectionRates connectionRates() {
        return connectionRates;
    }

    /** False while no user or client-id quota is configured: nothing needs recording then. */
    public boolean anyQuota() {
        return anyQuota;
    }

    /** Records {@code bytes} of a produce request or fetch response; @return the throttle time in ms, or 0 */
    public long recordBytes(QuotaType type, String user, String clientId, long bytes) {
        if (type == QuotaType.REQUEST) {
            throw new IllegalArgumentException("request_percentage counts request time, not bytes");
        }
        return managers.get(type).recordAndGetThrottleTimeMs(user, clientId, bytes, time.milliseconds());
    }

    /** Takes back bytes recorded by {@link #recordBytes} that were not sent after all (a throttled fetch's). */
    public void unrecordBytes(QuotaType type, String user, String clientId, long bytes) {
        managers.get(type).recordNoThrottle(user, clientId, -bytes, time.milliseconds());
    }

    /** Records handler time spent on one request; @return the throttle time in ms, or 0 */
    public long recordHandlerTime(String user, String clientId, long nanos) {
        return managers.get(QuotaType.REQUEST).recordAndGetThrottleTimeMs(user, clientId, nanos * PERCENT_PER_NANO,
                time.milliseconds());
    }

    /**
     * Records network-thread time spent on one request (reading it, writing its response, TLS included), once the
     * response is out: it throttles nothing now but counts against the client's next request, as in Kafka (KIP-124).
     */
    public void recordNetworkThreadTime(String user, String clientId, long nanos) {
        managers.get(QuotaType.REQUEST).recordNoThrottle(user, clientId, nanos * PERCENT_PER_NANO, time.milliseconds());
    }

    /** The client's response carries {@code throttleMs} (above 0) because of its {@code type} quota: for its metrics. */
    public void recordThrottleTime(QuotaType type, String user, String clientId, long throttleMs) {
        managers.get(type).recordThrottleTime(user, clientId, throttleMs, time.milliseconds());
    }

    /** Shows the quota metrics in {@code registry} (see {@link QuotaMeters}), from now on. */
    @Override
    public void bindTo(MeterRegistry registry) {
        metrics.addReporter(new QuotaMeters(registry));
    }

    @Override
    public void close() {
        metrics.close();
    }
}

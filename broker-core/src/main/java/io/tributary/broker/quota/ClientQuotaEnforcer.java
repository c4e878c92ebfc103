package io.tributary.broker.quota;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.utils.Time;

/**
 * The broker's client quotas: one {@link ClientQuotaManager} per {@link QuotaType} over one kafka-clients
 * {@link Metrics} registry (whose expiry thread drops the sensors of idle clients). The user is the authenticated
 * principal's name; on a PLAINTEXT listener every client is {@code ANONYMOUS}, as in Kafka. Thread-safe.
 */
public final class ClientQuotaEnforcer implements AutoCloseable {
    /** The user of an unauthenticated connection. */
    public static final String ANONYMOUS_USER = KafkaPrincipal.ANONYMOUS.getName();
    /** Request time (handler and network threads') is recorded in percent-seconds: 100 for one thread busy for one second. */
    private static final double PERCENT_PER_NANO = 100.0 / TimeUnit.SECONDS.toNanos(1);

    private final Metrics metrics;
    private final Time time;
    private final Map<QuotaType, ClientQuotaManager> managers = new EnumMap<>(QuotaType.class);
    private volatile boolean anyQuota;

    /** @param windowSamples {@code quota.window.num}; @param windowSeconds {@code quota.window.size.seconds} */
    public ClientQuotaEnforcer(int windowSamples, int windowSeconds, Time time) {
        this.metrics = new Metrics(new MetricConfig(), List.of(), time, true);
        this.time = time;
        ClientQuotaManager.QuotaWindow window = new ClientQuotaManager.QuotaWindow(windowSamples, windowSeconds);
        for (QuotaType type : QuotaType.values()) {
            managers.put(type, new ClientQuotaManager(type, metrics, window));
        }
    }

    /** Applies the quotas as configured now (every entity's, as {@code ClientQuotaStore} reads them). */
    public void update(Map<ClientQuotaEntity, Map<String, Double>> configured) {
        ClientQuotas quotas = new ClientQuotas(configured);
        managers.values().forEach(manager -> manager.update(quotas));
        anyQuota = !configured.isEmpty();
    }

    /** False while no quota is configured at all: nothing needs recording then. */
    public boolean anyQuota() {
        return anyQuota;
    }

    /** Records {@code bytes} of a produce request or fetch response; @return the throttle time in ms, or 0 */
    public long recordBytes(QuotaType type, String user, String clientId, long bytes) {
        if (type == QuotaType.REQUEST) {
            throw new IllegalArgumentException("request_percentage counts handler time, not bytes");
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

    @Override
    public void close() {
        metrics.close();
    }
}

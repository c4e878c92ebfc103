package io.tributary.broker.quota;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import io.tributary.broker.network.ConnectionRates;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Quota;
import org.apache.kafka.common.metrics.QuotaViolationException;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Avg;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.server.config.QuotaConfig;
import org.apache.kafka.server.quota.QuotaUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connection creation rates as Kafka measures them (KIP-612): a kafka-clients {@link Rate} over the {@link QuotaWindow}
 * per limit, the broker-wide one, each listener's, and one per client address that an {@code ip} quota entity (its own,
 * or the default) gives a {@code connection_creation_rate}. Over the broker-wide or listener rate the acceptor waits
 * before taking the connection; over an address's rate the connection is held and closed unanswered. Either lasts as
 * long as the rate needs to come back within its bound, at most one sample ({@code quota.window.size.seconds}), as in
 * Kafka. The throttle times are averaged per listener in {@code connection-accept-throttle-time} and
 * {@code ip-connection-accept-throttle-time} (Kafka's names). An address's sensor expires after an hour without
 * connections. Thread-safe.
 */
public final class ConnectionRateQuotas implements ConnectionRates {
    private static final Logger log = LoggerFactory.getLogger(ConnectionRateQuotas.class);
    private static final String GROUP = "socket-server-metrics";
    private static final String IP_TAG = "ip";
    private static final long IP_SENSOR_EXPIRATION_SECONDS = 3600;
    private static final int UNLIMITED = QuotaConfig.IP_CONNECTION_RATE_DEFAULT;

    private final Metrics metrics;
    private final QuotaWindow window;
    private final ConnectionRateLimits limits;
    private final Sensor brokerRate;
    private final Map<ListenerName, Sensor> listenerRates = new HashMap<>();
    private volatile IpRates ipRates = IpRates.NONE;

    /** Each address's {@code connection_creation_rate}: its own entity's, else the default entity's. */
    private record IpRates(int defaultRate, Map<InetAddress, Integer> rates) {
        static final IpRates NONE = new IpRates(UNLIMITED, Map.of());

        int rateFor(InetAddress address) {
            return rates.getOrDefault(address, defaultRate);
        }
    }

    ConnectionRateQuotas(Metrics metrics, QuotaWindow window, ConnectionRateLimits limits) {
        this.metrics = metrics;
        this.window = window;
        this.limits = limits;
        this.brokerRate = limits.brokerRate() == UNLIMITED ? null
                : rateSensor("ConnectionAcceptRate-broker", "broker-connection-accept-rate", Map.of(), limits.brokerRate(), Long.MAX_VALUE);
        limits.listenerRates().forEach((listener, rate) -> {
            if (rate != UNLIMITED) {
                listenerRates.put(listener, rateSensor("ConnectionAcceptRate-" + listener.value(), "connection-accept-rate",
                        Map.of("listener", listener.value()), rate, Long.MAX_VALUE));
            }
        });
    }

    @Override
    public long recordAndGetAcceptDelayMs(ListenerName listener, BooleanSupplier exempt, long nowMs) {
        long delayMs = 0;
        if (brokerRate != null && limits.countsBrokerWide(listener)) {
            delayMs = recordAndGetThrottleMs(brokerRate, nowMs);
        }
        Sensor listenerRate = listenerRates.get(listener);
        if (listenerRate != null) {
            delayMs = Math.max(delayMs, recordAndGetThrottleMs(listenerRate, nowMs));
        }
        if (delayMs == 0 || exempt.getAsBoolean()) {
            return 0;
        }
        throttleSensor(listener, "").record(delayMs, nowMs, false);
        return delayMs;
    }

    @Override
    public long recordAndGetIpThrottleMs(ListenerName listener, InetAddress address, BooleanSupplier exempt, long nowMs) {
        int rate = ipRates.rateFor(address);
        if (rate == UNLIMITED) {
            return 0;
        }
        Sensor sensor = ipSensor(address, rate);
        long throttleMs = recordAndGetThrottleMs(sensor, nowMs);
        if (throttleMs == 0 || exempt.getAsBoolean()) {
            return 0;
        }
        // Not taken, so not counted: neither for the address nor broker-wide nor for the listener.
        sensor.record(-1, nowMs, false);
        if (brokerRate != null && limits.countsBrokerWide(listener)) {
            brokerRate.record(-1, nowMs, false);
        }
        Sensor listenerRate = listenerRates.get(listener);
        if (listenerRate != null) {
            listenerRate.record(-1, nowMs, false);
        }
        throttleSensor(listener, "ip-").record(throttleMs, nowMs, false);
        return throttleMs;
    }

    /**
     * Applies the {@code ip} entities' {@code connection_creation_rate} among {@code configured} (every quota entity's,
     * as {@code ClientQuotaStore} reads them). Rates measured so far start again against their new bounds.
     */
    void update(Map<ClientQuotaEntity, Map<String, Double>> configured) {
        int defaultRate = UNLIMITED;
        Map<InetAddress, Integer> rates = new HashMap<>();
        for (Map.Entry<ClientQuotaEntity, Map<String, Double>> entry : configured.entrySet()) {
            Map<String, String> entity = entry.getKey().entries();
            Double rate = entry.getValue().get(QuotaConfig.IP_CONNECTION_RATE_OVERRIDE_CONFIG);
            if (rate == null || entity.size() != 1 || !entity.containsKey(ClientQuotaEntity.IP)) {
                continue;
            }
            String ip = entity.get(ClientQuotaEntity.IP);
            int connectionsPerSecond = (int) Math.min(UNLIMITED, Math.max(0, rate));
            if (ip == null) {
                defaultRate = connectionsPerSecond;
                continue;
            }
            try {
                rates.put(InetAddress.getByName(ip), connectionsPerSecond);
            } catch (UnknownHostException e) {
                log.warn("ignoring the connection_creation_rate of ip {}: it does not resolve", ip);
            }
        }
        ipRates = new IpRates(defaultRate, Map.copyOf(rates));
        List<MetricName> ipSensors = metrics.metrics().keySet().stream()
                .filter(name -> name.group().equals(GROUP) && name.tags().containsKey(IP_TAG)).toList();
        ipSensors.forEach(name -> metrics.removeSensor(ipSensorName(name.tags().get(IP_TAG))));
    }

    private long recordAndGetThrottleMs(Sensor sensor, long nowMs) {
        try {
            sensor.record(1, nowMs, true);
            return 0;
        } catch (QuotaViolationException e) {
            return Math.max(0, QuotaUtils.boundedThrottleTime(e, window.sampleMs(), nowMs));
        }
    }

    private Sensor ipSensor(InetAddress address, int rate) {
        String ip = address.getHostAddress();
        Sensor existing = metrics.getSensor(ipSensorName(ip));
        return existing != null ? existing
                : rateSensor(ipSensorName(ip), "connection-accept-rate", Map.of(IP_TAG, ip), rate, IP_SENSOR_EXPIRATION_SECONDS);
    }

    private static String ipSensorName(String ip) {
        return "ConnectionAcceptRate-ip:" + ip;
    }

    private synchronized Sensor rateSensor(String name, String metricName, Map<String, String> tags, int rate, long expirationSeconds) {
        Sensor sensor = metrics.sensor(name, window.metricConfig(new Quota(rate, true)), expirationSeconds);
        if (!sensor.hasMetrics()) {
            sensor.add(metrics.metricName(metricName, GROUP, "New connections per second", tags), new Rate(),
                    window.metricConfig(new Quota(rate, true)));
        }
        return sensor;
    }

    /** Kafka's per-listener average of throttle times: {@code prefix} "" for the broker-wide and listener rates, "ip-". */
    private synchronized Sensor throttleSensor(ListenerName listener, String prefix) {
        Sensor sensor = metrics.sensor(prefix + "ConnectionRateThrottleTime-" + listener.value(), window.metricConfig(null), Long.MAX_VALUE);
        if (!sensor.hasMetrics()) {
            sensor.add(metrics.metricName(prefix + "connection-accept-throttle-time", GROUP,
                    "Average throttle time in ms of the throttled new connections", Map.of("listener", listener.value())), new Avg());
        }
        return sensor;
    }
}

package io.tributary.broker.quota;

import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.network.ListenerName;

/**
 * The configured connection creation rates: {@code max.connection.creation.rate} broker-wide and each
 * {@code listener.name.<listener>.max.connection.creation.rate} (listeners without one are absent), in connections
 * per second, {@link Integer#MAX_VALUE} for none. As in Kafka, the broker-wide rate does not count the inter-broker
 * listener's connections when there are other listeners ({@code protectedListener}); its own rate does.
 */
public record ConnectionRateLimits(int brokerRate, Map<ListenerName, Integer> listenerRates,
                                   Optional<ListenerName> protectedListener) {
    public static final ConnectionRateLimits NONE = new ConnectionRateLimits(Integer.MAX_VALUE, Map.of(), Optional.empty());

    public ConnectionRateLimits {
        listenerRates = Map.copyOf(listenerRates);
    }

    boolean countsBrokerWide(ListenerName listener) {
        return protectedListener.map(name -> !name.equals(listener)).orElse(true);
    }
}

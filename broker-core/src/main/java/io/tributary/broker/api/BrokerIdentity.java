package io.tributary.broker.api;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import io.tributary.broker.controller.ClusterView;
import org.apache.kafka.common.network.ListenerName;

/**
 * Who this broker is, as the APIs report it: node id, cluster id, and its advertised address on each listener
 * (by listener name; the inter-broker one is the registration's host and port).
 */
public record BrokerIdentity(int nodeId, String clusterId, InetSocketAddress interBroker, Map<String, InetSocketAddress> listeners) {
    /** This broker as its own registration will show it, before that registration is seen. */
    public ClusterView.Endpoint asEndpoint() {
        return new ClusterView.Endpoint(nodeId, interBroker.getHostString(), interBroker.getPort(), -1, listeners);
    }

    /** This broker's address for clients of {@code listener}. */
    public Optional<ClusterView.Endpoint> on(ListenerName listener) {
        return asEndpoint().on(listener);
    }
}

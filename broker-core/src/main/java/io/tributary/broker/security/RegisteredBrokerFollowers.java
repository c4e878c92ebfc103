package io.tributary.broker.security;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import io.tributary.broker.controller.ClusterView;
import io.tributary.broker.network.Session;
import org.apache.kafka.common.security.auth.KafkaPrincipal;

/**
 * With or without an authorizer (which also asks CLUSTER_ACTION of a follower fetch): a fetch with a replica id
 * counts as a follower's only if that id is a registered broker, the fetch came in on the inter-broker listener (a
 * replica id sent to a client listener is refused: clients there cannot be told from brokers), and it comes from a
 * broker. On an SSL or SASL inter-broker listener that means the
 * brokers' principal authenticated it ({@link InterBrokerPrincipal}); on a PLAINTEXT one, at least, that it comes
 * from an address the broker registered. The addresses are resolved once per registration, not per fetch.
 */
public final class RegisteredBrokerFollowers implements FollowerCheck {
    private final ClusterView cluster;
    private final Listener interBroker;
    private final Optional<KafkaPrincipal> brokerPrincipal;
    private final Map<Integer, ResolvedRegistration> resolved = new ConcurrentHashMap<>();

    /** A broker's registration and the addresses its hosts resolved to when it was first seen. */
    private record ResolvedRegistration(ClusterView.Endpoint registration, Set<InetAddress> addresses) {
    }

    /** @param brokerPrincipal the principal followers authenticate as on an SSL or SASL inter-broker listener */
    public RegisteredBrokerFollowers(ClusterView cluster, Listener interBroker, Optional<KafkaPrincipal> brokerPrincipal) {
        this.cluster = cluster;
        this.interBroker = interBroker;
        this.brokerPrincipal = brokerPrincipal;
    }

    @Override
    public boolean mayFollow(int replicaId, Session session) {
        Optional<ClusterView.Endpoint> broker = cluster.broker(replicaId);
        if (broker.isEmpty() || !session.listener().equals(interBroker.name())) {
            return false;
        }
        if (interBroker.tls() || interBroker.sasl()) {
            return brokerPrincipal.isPresent() && brokerPrincipal.get().equals(session.principal());
        }
        return registeredAddresses(broker.get()).contains(session.clientAddress());
    }

    private Set<InetAddress> registeredAddresses(ClusterView.Endpoint broker) {
        ResolvedRegistration known = resolved.get(broker.id());
        if (known != null && known.registration().equals(broker)) {
            return known.addresses();
        }
        Set<String> hosts = Stream.concat(Stream.of(broker.host()), broker.listeners().values().stream().map(InetSocketAddress::getHostString))
                .collect(Collectors.toSet());
        Set<InetAddress> addresses = new HashSet<>();
        boolean allResolved = true;
        for (String host : hosts) {
            try {
                addresses.addAll(List.of(InetAddress.getAllByName(host)));
            } catch (UnknownHostException e) {
                allResolved = false;
            }
        }
        if (allResolved) {
            // A name that does not resolve now is asked again on the next fetch, not refused until the broker
            // registers anew.
            resolved.put(broker.id(), new ResolvedRegistration(broker, Set.copyOf(addresses)));
        }
        return addresses;
    }
}

package io.tributary.broker.security;

import java.util.Optional;
import io.tributary.broker.controller.ClusterView;
import io.tributary.broker.network.Session;
import org.apache.kafka.common.security.auth.KafkaPrincipal;

/**
 * With or without an authorizer (which also asks CLUSTER_ACTION of a follower fetch): a fetch with a replica id
 * counts as a follower's only if that id is a registered broker, the fetch came in on the inter-broker listener (a
 * replica id sent to a client listener is refused: clients there cannot be told from brokers), and it comes from a
 * broker. On an SSL or SASL inter-broker listener that means the
 * brokers' principal authenticated it ({@link InterBrokerPrincipal}); on a PLAINTEXT one, at least, that it comes
 * from an address the broker registered ({@link RegisteredBrokerAddresses}: resolved once per registration, not
 * per fetch).
 */
public final class RegisteredBrokerFollowers implements FollowerCheck {
    private final ClusterView cluster;
    private final Listener interBroker;
    private final Optional<KafkaPrincipal> brokerPrincipal;
    private final RegisteredBrokerAddresses addresses;

    /** @param brokerPrincipal the principal followers authenticate as on an SSL or SASL inter-broker listener */
    public RegisteredBrokerFollowers(ClusterView cluster, Listener interBroker, Optional<KafkaPrincipal> brokerPrincipal,
                                     RegisteredBrokerAddresses addresses) {
        this.cluster = cluster;
        this.interBroker = interBroker;
        this.brokerPrincipal = brokerPrincipal;
        this.addresses = addresses;
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
        return addresses.of(broker.get()).contains(session.clientAddress());
    }
}

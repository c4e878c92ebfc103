package io.tributary.broker.security;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.stream.Stream;
import io.tributary.broker.controller.ClusterView;
import io.tributary.broker.network.Session;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * Until ACLs exist: a fetch with a replica id counts as a follower's only if that id is a registered broker and the
 * fetch comes from it. On SASL listeners that means the broker principal authenticated it; on PLAINTEXT and SSL
 * listeners, at least, that it comes from an address the broker registered.
 */
public final class RegisteredBrokerFollowers implements FollowerCheck {
    private final ClusterView cluster;
    private final Optional<KafkaPrincipal> brokerPrincipal;

    public RegisteredBrokerFollowers(ClusterView cluster, Optional<KafkaPrincipal> brokerPrincipal) {
        this.cluster = cluster;
        this.brokerPrincipal = brokerPrincipal;
    }

    @Override
    public boolean mayFollow(int replicaId, Session session) {
        Optional<ClusterView.Endpoint> broker = cluster.broker(replicaId);
        if (broker.isEmpty()) {
            return false;
        }
        if (session.protocol() == SecurityProtocol.SASL_SSL || session.protocol() == SecurityProtocol.SASL_PLAINTEXT) {
            return brokerPrincipal.isPresent() && brokerPrincipal.get().equals(session.principal());
        }
        return registeredAddresses(broker.get()).anyMatch(session.clientAddress()::equals);
    }

    private static Stream<InetAddress> registeredAddresses(ClusterView.Endpoint broker) {
        return Stream.concat(Stream.of(broker.host()), broker.listeners().values().stream().map(InetSocketAddress::getHostString))
                .distinct()
                .flatMap(RegisteredBrokerFollowers::resolve);
    }

    private static Stream<InetAddress> resolve(String host) {
        try {
            return Stream.of(InetAddress.getAllByName(host));
        } catch (UnknownHostException e) {
            return Stream.empty();
        }
    }
}

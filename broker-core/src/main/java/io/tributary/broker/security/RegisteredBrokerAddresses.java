package io.tributary.broker.security;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import io.tributary.broker.controller.ClusterView;

/**
 * The addresses the live brokers registered: every host of a registration (its inter-broker host and each listener's)
 * resolved once per registration, not per connection or fetch; a new registration of a broker (a restart, a new
 * session: a new broker epoch) is resolved anew. A host that does not resolve is asked again the next time, so a
 * passing DNS failure does not shut a broker out until it registers again. Thread-safe.
 */
public final class RegisteredBrokerAddresses {
    private final Supplier<Collection<ClusterView.Endpoint>> liveBrokers;
    private final HostResolver resolver;
    private final Map<Integer, ResolvedRegistration> resolved = new ConcurrentHashMap<>();

    /** Name resolution, {@link InetAddress#getAllByName} outside tests. */
    interface HostResolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** A broker's registration and the addresses its hosts resolved to. */
    private record ResolvedRegistration(ClusterView.Endpoint registration, Set<InetAddress> addresses) {
    }

    public RegisteredBrokerAddresses(ClusterView cluster) {
        this(() -> cluster.liveBrokers().values(), InetAddress::getAllByName);
    }

    RegisteredBrokerAddresses(Supplier<Collection<ClusterView.Endpoint>> liveBrokers, HostResolver resolver) {
        this.liveBrokers = liveBrokers;
        this.resolver = resolver;
    }

    /** Whether {@code address} is one a live broker registered (its connections are never refused for a limit). */
    public boolean isLiveBroker(InetAddress address) {
        return liveBrokers.get().stream().anyMatch(broker -> of(broker).contains(address));
    }

    /** The addresses {@code broker}'s registration names. */
    public Set<InetAddress> of(ClusterView.Endpoint broker) {
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
                addresses.addAll(List.of(resolver.resolve(host)));
            } catch (UnknownHostException e) {
                allResolved = false;
            }
        }
        if (allResolved) {
            resolved.put(broker.id(), new ResolvedRegistration(broker, Set.copyOf(addresses)));
        }
        return addresses;
    }
}

package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import io.tributary.broker.controller.ClusterView;
import org.junit.jupiter.api.Test;

/** The live brokers' registered addresses are resolved once per registration, by the JVM's own resolver. */
class RegisteredBrokerAddressesTest {
    private final List<String> resolutions = new ArrayList<>();
    private final List<String> unresolvable = new ArrayList<>();
    private Collection<ClusterView.Endpoint> live = List.of(registration(1, 100));
    private final RegisteredBrokerAddresses addresses = new RegisteredBrokerAddresses(() -> live, host -> {
        resolutions.add(host);
        if (unresolvable.contains(host)) {
            throw new UnknownHostException(host);
        }
        return InetAddress.getAllByName(host);
    });

    /** Broker {@code id} registered as localhost, its listener at 127.0.0.1, with broker epoch {@code zxid}. */
    private static ClusterView.Endpoint registration(int id, long zxid) {
        return new ClusterView.Endpoint(id, "localhost", 9092, zxid, Map.of("PLAINTEXT", new InetSocketAddress("127.0.0.1", 9092)));
    }

    @Test
    void eachRegistrationIsResolvedOnceWhateverTheNumberOfConnections() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        for (int connection = 0; connection < 100; connection++) {
            assertThat(addresses.isLiveBroker(loopback)).isTrue();
            assertThat(addresses.isLiveBroker(InetAddress.getByName("198.18.0.99"))).as("no broker's").isFalse();
        }
        assertThat(resolutions).containsExactlyInAnyOrder("localhost", "127.0.0.1");

        live = List.of(registration(1, 200));
        assertThat(addresses.isLiveBroker(loopback)).isTrue();
        assertThat(resolutions).as("a new registration (restart, new session) is resolved anew").hasSize(4);

        live = List.of();
        assertThat(addresses.isLiveBroker(loopback)).as("a broker that is gone").isFalse();
    }

    @Test
    void aHostThatDidNotResolveIsAskedAgainNextTime() {
        unresolvable.add("localhost");
        ClusterView.Endpoint broker = registration(1, 100);
        assertThat(addresses.of(broker)).extracting(InetAddress::getHostAddress).containsExactly("127.0.0.1");
        unresolvable.clear();
        assertThat(addresses.of(broker)).hasSizeGreaterThanOrEqualTo(1);
        addresses.of(broker);
        assertThat(resolutions).as("resolved again once, then remembered").hasSize(4);
    }
}

package io.tributary.broker.network;

import java.net.InetAddress;
import java.util.Optional;
import javax.net.ssl.SSLEngine;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * How the connections of one listener are secured: a TLS engine per connection (SSL, SASL_SSL) and an authenticator
 * per connection. Shared by the listener's processors: thread-safe.
 */
public interface ChannelSecurity {
    ListenerName listener();

    SecurityProtocol protocol();

    /** A server-mode engine for a new connection, or empty when the listener is not TLS. */
    Optional<SSLEngine> newSslEngine(String peerHost, int peerPort);

    Authenticator newAuthenticator(InetAddress client);

    /** A PLAINTEXT listener: no TLS, every client {@code User:ANONYMOUS}. */
    static ChannelSecurity plaintext(ListenerName listener) {
        return new ChannelSecurity() {
            @Override
            public ListenerName listener() {
                return listener;
            }

            @Override
            public SecurityProtocol protocol() {
                return SecurityProtocol.PLAINTEXT;
            }

            @Override
            public Optional<SSLEngine> newSslEngine(String peerHost, int peerPort) {
                return Optional.empty();
            }

            @Override
            public Authenticator newAuthenticator(InetAddress client) {
                return PlaintextAuthenticator.INSTANCE;
            }
        };
    }
}

package io.tributary.broker.replica;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Optional;
import javax.security.sasl.SaslClient;

/**
 * How a follower reaches a leader's inter-broker listener: a socket (with its TLS handshake done, if the listener is
 * TLS) and the SASL exchange to run before the first request (if it is SASL). Thread-safe.
 */
public interface BrokerConnector {
    /** A plain TCP connection, no authentication: a PLAINTEXT inter-broker listener. */
    BrokerConnector PLAINTEXT = new BrokerConnector() {
        @Override
        public Socket connect(InetSocketAddress address, int timeoutMs) throws IOException {
            Socket socket = new Socket();
            try {
                socket.setTcpNoDelay(true);
                socket.connect(address, timeoutMs);
                return socket;
            } catch (IOException e) {
                socket.close();
                throw e;
            }
        }

        @Override
        public Optional<SaslClient> newSaslClient(String host) {
            return Optional.empty();
        }
    };

    /** A connected socket, ready for Kafka frames. */
    Socket connect(InetSocketAddress address, int timeoutMs) throws IOException;

    /** A SASL client for one exchange with the broker on {@code host}, or empty if the listener has no SASL. */
    Optional<SaslClient> newSaslClient(String host) throws IOException;
}

package io.tributary.broker.security;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import io.tributary.broker.replica.BrokerConnector;
import org.apache.kafka.common.network.ConnectionMode;
import org.apache.kafka.common.security.plain.internals.PlainSaslServer;
import org.apache.kafka.common.security.scram.ScramExtensionsCallback;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.security.scram.internals.ScramSaslClient;
import org.apache.kafka.common.security.ssl.DefaultSslEngineFactory;
import org.apache.kafka.common.security.ssl.SslFactory;

/**
 * How this broker's followers connect to the leaders' inter-broker listener: TLS with the listener's own
 * {@code ssl.*} settings in client mode (truststore, and the keystore for mutual TLS; reloaded when their files
 * change), then SASL as the broker's {@link InterBrokerCredentials}. With none configured a follower cannot
 * authenticate and the leader refuses it; a single broker never needs to. Thread-safe.
 */
public final class InterBrokerConnector implements BrokerConnector {
    private final Listener listener;
    private final ReloadableSslFactory tls;
    private final Optional<InterBrokerCredentials> credentials;

    private InterBrokerConnector(Listener listener, ReloadableSslFactory tls, Optional<InterBrokerCredentials> credentials) {
        this.listener = listener;
        this.tls = tls;
        this.credentials = credentials;
    }

    /** @param files watches the keystore and truststore of a TLS inter-broker listener */
    public static BrokerConnector create(Listener interBroker, Map<String, Object> settings, Optional<InterBrokerCredentials> credentials,
                                         TlsFileWatcher files) {
        if (!interBroker.tls() && !interBroker.sasl()) {
            return BrokerConnector.PLAINTEXT;
        }
        ReloadableSslFactory tls = null;
        if (interBroker.tls()) {
            tls = ReloadableSslFactory.create("inter-broker listener " + interBroker.name().value() + " (client)", ConnectionMode.CLIENT,
                    settings);
            files.watch(tls);
        }
        return new InterBrokerConnector(interBroker, tls, credentials);
    }

    @Override
    public Socket connect(InetSocketAddress address, int timeoutMs) throws IOException {
        Socket socket = BrokerConnector.PLAINTEXT.connect(address, timeoutMs);
        if (tls == null) {
            return socket;
        }
        try {
            String host = address.getHostString();
            // The engine carries what the ssl.* keys ask for (protocols, cipher suites, host name verification).
            SslFactory current = tls.current();
            SSLEngine settings = current.createSslEngine(host, address.getPort());
            SSLContext context = ((DefaultSslEngineFactory) current.sslEngineFactory()).sslContext();
            SSLSocket secured = (SSLSocket) context.getSocketFactory().createSocket(socket, host, address.getPort(), true);
            secured.setUseClientMode(true);
            secured.setSSLParameters(settings.getSSLParameters());
            secured.setSoTimeout(timeoutMs);
            secured.startHandshake();
            return secured;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    @Override
    public Optional<SaslClient> newSaslClient(String host) throws IOException {
        if (!listener.sasl()) {
            return Optional.empty();
        }
        InterBrokerCredentials own = credentials.orElseThrow(() -> new IOException("no inter-broker SASL credentials: "
                + "set username and password in " + listener.configPrefix() + "<mechanism>.sasl.jaas.config"));
        CallbackHandler handler = callbacks -> answer(callbacks, own);
        if (own.mechanism().equals(PlainSaslServer.PLAIN_MECHANISM)) {
            return Optional.of(Sasl.createSaslClient(new String[] {PlainSaslServer.PLAIN_MECHANISM}, null, "kafka", host,
                    Map.of(), handler));
        }
        try {
            return Optional.of(new ScramSaslClient(ScramMechanism.forMechanismName(own.mechanism()), handler));
        } catch (NoSuchAlgorithmException e) {
            throw new IOException(own.mechanism() + " is not available in this JVM", e);
        }
    }

    private static void answer(Callback[] callbacks, InterBrokerCredentials own) throws UnsupportedCallbackException {
        for (Callback callback : callbacks) {
            if (callback instanceof NameCallback name) {
                name.setName(own.username());
            } else if (callback instanceof PasswordCallback password) {
                password.setPassword(own.password().toCharArray());
            } else if (!(callback instanceof ScramExtensionsCallback)) {
                throw new UnsupportedCallbackException(callback);
            }
        }
    }
}

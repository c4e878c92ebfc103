package io.tributary.broker.security;

import java.net.InetAddress;
import java.util.Optional;
import javax.net.ssl.SSLSession;
import io.tributary.broker.network.Authenticator;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.KafkaPrincipalBuilder;
import org.apache.kafka.common.security.auth.SslAuthenticationContext;

/**
 * An SSL listener's: the TLS handshake authenticates. The principal is the client certificate's distinguished name
 * (mapped by {@code ssl.principal.mapping.rules}), or {@code User:ANONYMOUS} without one, as Kafka's
 * {@code DefaultKafkaPrincipalBuilder} decides.
 */
final class SslAuthenticator implements Authenticator {
    private final KafkaPrincipalBuilder principals;
    private final InetAddress client;
    private final String listener;
    private KafkaPrincipal principal = KafkaPrincipal.ANONYMOUS;
    private boolean authenticated;

    SslAuthenticator(KafkaPrincipalBuilder principals, InetAddress client, String listener) {
        this.principals = principals;
        this.client = client;
        this.listener = listener;
    }

    @Override
    public void transportReady(Optional<SSLSession> session) {
        principal = principals.build(new SslAuthenticationContext(session.orElseThrow(), client, listener));
        authenticated = true;
    }

    @Override
    public boolean authenticated() {
        return authenticated;
    }

    @Override
    public KafkaPrincipal principal() {
        return principal;
    }
}

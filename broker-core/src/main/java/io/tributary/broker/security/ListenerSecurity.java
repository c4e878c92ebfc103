package io.tributary.broker.security;

import java.net.InetAddress;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLEngine;
import io.tributary.broker.network.Authenticator;
import io.tributary.broker.network.ChannelSecurity;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.network.ConnectionMode;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.security.auth.KafkaPrincipalBuilder;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuilder;
import org.apache.kafka.common.security.ssl.SslPrincipalMapper;
import org.apache.kafka.common.security.token.delegation.internals.DelegationTokenCache;

/**
 * How one listener secures its connections, built from its settings with kafka-clients' classes: TLS engines from
 * {@link org.apache.kafka.common.security.ssl.SslFactory} (keystore and truststore of type PKCS12, JKS or PEM,
 * {@code ssl.client.auth}, {@code ssl.enabled.protocols}, {@code ssl.cipher.suites}), reloaded when the keystore or
 * truststore file changes ({@link ReloadableSslFactory}), principals from {@link DefaultKafkaPrincipalBuilder}, SASL
 * from {@link SaslMechanisms}. Thread-safe.
 */
public final class ListenerSecurity implements ChannelSecurity {
    private final Listener listener;
    private final ReloadableSslFactory tls;
    private final KafkaPrincipalBuilder principals;
    private final SaslMechanisms sasl;
    private final int maxSaslReceiveBytes;

    private ListenerSecurity(Listener listener, ReloadableSslFactory tls, KafkaPrincipalBuilder principals, SaslMechanisms sasl,
                             int maxSaslReceiveBytes) {
        this.listener = listener;
        this.tls = tls;
        this.principals = principals;
        this.sasl = sasl;
        this.maxSaslReceiveBytes = maxSaslReceiveBytes;
    }

    /**
     * @param settings the listener's {@code ssl.*}/{@code sasl.*} settings ({@code BrokerConfig.securitySettings})
     * @param tokens   the delegation tokens a SCRAM login with {@code tokenauth=true} is checked against (empty when disabled)
     * @param files    watches the keystore and truststore of a TLS listener
     * @throws ConfigException if a TLS listener has no keystore, or the keystore or truststore cannot be loaded
     */
    public static ListenerSecurity create(Listener listener, Map<String, Object> settings, ScramCredentialCache scram,
                                          DelegationTokenCache tokens, TlsFileWatcher files) {
        ReloadableSslFactory tls = listener.tls() ? serverTls(listener, settings) : null;
        if (tls != null) {
            files.watch(tls);
        }
        KafkaPrincipalBuilder principals = new DefaultKafkaPrincipalBuilder(null,
                SslPrincipalMapper.fromRules((String) settings.get(SecurityConfigs.SSL_PRINCIPAL_MAPPING_RULES)));
        SaslMechanisms sasl = listener.sasl() ? new SaslMechanisms(listener, settings, scram, tokens) : null;
        return new ListenerSecurity(listener, tls, principals, sasl, (Integer) settings.get(SecurityConfigs.SASL_SERVER_MAX_RECEIVE_SIZE));
    }

    private static ReloadableSslFactory serverTls(Listener listener, Map<String, Object> settings) {
        if (settings.get(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG) == null && settings.get(SslConfigs.SSL_KEYSTORE_KEY_CONFIG) == null) {
            throw new ConfigException(listener.configPrefix() + SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, "(missing)",
                    "listener " + listener.name().value() + " is " + listener.protocol() + " but has no keystore");
        }
        return ReloadableSslFactory.create("listener " + listener.name().value(), ConnectionMode.SERVER, settings);
    }

    @Override
    public ListenerName listener() {
        return listener.name();
    }

    @Override
    public SecurityProtocol protocol() {
        return listener.protocol();
    }

    @Override
    public Optional<SSLEngine> newSslEngine(String peerHost, int peerPort) {
        return tls == null ? Optional.empty() : Optional.of(tls.createSslEngine(peerHost, peerPort));
    }

    @Override
    public Authenticator newAuthenticator(InetAddress client) {
        if (sasl != null) {
            return new SaslAuthenticator(sasl, principals, client, listener.name(), listener.protocol(), maxSaslReceiveBytes);
        }
        if (tls != null) {
            return new SslAuthenticator(principals, client, listener.name().value());
        }
        return ChannelSecurity.plaintext(listener.name()).newAuthenticator(client);
    }
}

package io.tributary.broker.security;

import java.io.IOException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.network.ConnectionMode;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.ssl.SslFactory;
import org.apache.kafka.common.security.ssl.SslPrincipalMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The principal the brokers replicate as, which is the only one whose follower fetches count on an SSL or SASL
 * inter-broker listener: on SASL the user of the broker's own JAAS login ({@link InterBrokerCredentials}); on SSL
 * the distinguished name of the certificate in the listener's keystore — the one this broker's followers present —
 * mapped by {@code ssl.principal.mapping.rules}, as {@code DefaultKafkaPrincipalBuilder} maps a client's. So the
 * brokers of a cluster share one login, or certificates that map to one principal (Kafka's equivalent is the brokers'
 * principal in {@code super.users}).
 */
public final class InterBrokerPrincipal {
    private static final Logger log = LoggerFactory.getLogger(InterBrokerPrincipal.class);

    private InterBrokerPrincipal() {
    }

    /**
     * @param settings the inter-broker listener's settings ({@code BrokerConfig.securitySettings})
     * @return empty on PLAINTEXT, and on SASL without a login of its own
     * @throws ConfigException if an SSL listener's keystore holds no certificate or its DN does not map
     */
    public static Optional<KafkaPrincipal> of(Listener interBroker, Map<String, Object> settings,
                                              Optional<InterBrokerCredentials> credentials) {
        if (interBroker.sasl()) {
            return credentials.map(InterBrokerCredentials::principal);
        }
        if (!interBroker.tls()) {
            return Optional.empty();
        }
        if ("none".equals(settings.get(SecurityConfigs.SSL_CLIENT_AUTH))) {
            log.warn("the inter-broker listener {} has {}=none: followers present no certificate, so the leaders refuse "
                    + "their fetches; set it to required", interBroker.name().value(), SecurityConfigs.SSL_CLIENT_AUTH);
        }
        String dn = certificateSubject(interBroker, settings);
        try {
            String name = SslPrincipalMapper.fromRules((String) settings.get(SecurityConfigs.SSL_PRINCIPAL_MAPPING_RULES)).getName(dn);
            return Optional.of(new KafkaPrincipal(KafkaPrincipal.USER_TYPE, name));
        } catch (IOException e) {
            throw new ConfigException(interBroker.configPrefix() + SecurityConfigs.SSL_PRINCIPAL_MAPPING_RULES, "(rules)",
                    "no rule maps the broker certificate's DN " + dn + ": " + e.getMessage());
        }
    }

    /** The subject of the first key entry's certificate (by alias), in RFC 2253 form (as an SSL session names its peer). */
    private static String certificateSubject(Listener interBroker, Map<String, Object> settings) {
        SslFactory tls = new SslFactory(ConnectionMode.CLIENT);
        try {
            tls.configure(settings);
            KeyStore keystore = tls.sslEngineFactory().keystore();
            if (keystore != null) {
                for (String alias : Collections.list(keystore.aliases()).stream().sorted().toList()) {
                    Certificate certificate = keystore.isKeyEntry(alias) ? keystore.getCertificate(alias) : null;
                    if (certificate instanceof X509Certificate x509) {
                        return x509.getSubjectX500Principal().getName();
                    }
                }
            }
            throw new ConfigException("inter-broker listener " + interBroker.name().value()
                    + ": its keystore holds no certificate for the brokers' followers to present");
        } catch (KafkaException | IllegalArgumentException | KeyStoreException e) {
            throw new ConfigException("inter-broker listener " + interBroker.name().value() + ": cannot read the keystore: "
                    + e.getMessage());
        } finally {
            tls.close();
        }
    }
}

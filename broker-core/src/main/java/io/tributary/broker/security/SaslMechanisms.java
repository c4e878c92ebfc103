package io.tributary.broker.security;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.security.JaasContext;
import org.apache.kafka.common.security.auth.AuthenticateCallbackHandler;
import org.apache.kafka.common.security.plain.internals.PlainSaslServer;
import org.apache.kafka.common.security.scram.ScramLoginModule;
import org.apache.kafka.common.security.plain.internals.PlainServerCallbackHandler;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.security.scram.internals.ScramSaslServer;
import org.apache.kafka.common.security.scram.internals.ScramServerCallbackHandler;
import org.apache.kafka.common.security.token.delegation.internals.DelegationTokenCache;

/**
 * The SASL mechanisms of one listener and kafka-clients' server side of each: {@link PlainSaslServer} checking the
 * listener's JAAS configuration ({@code listener.name.<listener>.plain.sasl.jaas.config}, options
 * {@code user_<name>="<password>"}), {@link ScramSaslServer} checking the {@link ScramCredentialCache} and, for a client
 * logging in with a delegation token (SCRAM extension {@code tokenauth=true}), the {@link DelegationTokenCache}. Thread-safe.
 */
final class SaslMechanisms {
    private final List<String> enabled;
    private final Map<String, AuthenticateCallbackHandler> handlers = new HashMap<>();
    private final Map<String, Long> maxReauthMs = new HashMap<>();

    /** @throws ConfigException if PLAIN is enabled without a JAAS configuration to check passwords against */
    SaslMechanisms(Listener listener, Map<String, Object> settings, ScramCredentialCache scram, DelegationTokenCache tokens) {
        @SuppressWarnings("unchecked")
        List<String> mechanisms = (List<String>) settings.get(SecurityConfigs.SASL_ENABLED_MECHANISMS);
        this.enabled = List.copyOf(mechanisms);
        for (String mechanism : enabled) {
            maxReauthMs.put(mechanism, (Long) settings.getOrDefault(mechanism.toLowerCase(Locale.ROOT) + "."
                    + SecurityConfigs.CONNECTIONS_MAX_REAUTH_MS, settings.get(SecurityConfigs.CONNECTIONS_MAX_REAUTH_MS)));
            if (mechanism.equals(PlainSaslServer.PLAIN_MECHANISM)) {
                String key = jaasKey(listener, mechanism);
                if (!settings.containsKey(key.substring(listener.configPrefix().length()))) {
                    throw new ConfigException(key, "(missing)", "PLAIN is enabled on listener " + listener.name().value()
                            + " but there is no JAAS configuration with its users (user_<name>=\"<password>\")");
                }
                PlainServerCallbackHandler plain = new PlainServerCallbackHandler();
                plain.configure(settings, mechanism, JaasContext.loadServerContext(listener.name(), mechanism, settings).configurationEntries());
                handlers.put(mechanism, plain);
            } else {
                ScramMechanism scramMechanism = ScramMechanism.forMechanismName(mechanism);
                ScramServerCallbackHandler handler = new ScramServerCallbackHandler(scram.cache(scramMechanism), tokens);
                handler.configure(settings, mechanism, List.of()); // the mechanism it looks a token's credential up by
                handlers.put(mechanism, handler);
            }
        }
    }

    /** Kafka's key for a listener's JAAS configuration of one mechanism. */
    static String jaasKey(Listener listener, String mechanism) {
        return listener.configPrefix() + mechanism.toLowerCase(Locale.ROOT) + "." + SaslConfigs.SASL_JAAS_CONFIG;
    }

    List<String> enabled() {
        return enabled;
    }

    /** {@code connections.max.reauth.ms} of one enabled mechanism: how long its logins last, 0 for ever. */
    long maxReauthMs(String mechanism) {
        return maxReauthMs.get(mechanism);
    }

    /** Whether a completed exchange logged in with a delegation token (SCRAM extension {@code tokenauth=true}), as Kafka tells. */
    static boolean loggedInWithToken(SaslServer server) {
        return ScramMechanism.isScram(server.getMechanismName())
                && Boolean.parseBoolean((String) server.getNegotiatedProperty(ScramLoginModule.TOKEN_AUTH_CONFIG));
    }

    /** A server for one exchange; {@code mechanism} must be {@link #enabled()}. */
    SaslServer newServer(String mechanism) throws SaslException {
        AuthenticateCallbackHandler handler = handlers.get(mechanism);
        if (mechanism.equals(PlainSaslServer.PLAIN_MECHANISM)) {
            return new PlainSaslServer(handler);
        }
        try {
            return new ScramSaslServer(ScramMechanism.forMechanismName(mechanism), Map.of(), handler);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new SaslException(mechanism + " is not available in this JVM", e);
        }
    }
}

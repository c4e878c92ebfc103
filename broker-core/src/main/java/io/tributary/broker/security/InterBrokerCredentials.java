package io.tributary.broker.security;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.security.auth.login.AppConfigurationEntry;
import org.apache.kafka.common.security.JaasContext;
import org.apache.kafka.common.security.auth.KafkaPrincipal;

/**
 * The broker's own SASL identity for replication: {@code username} and {@code password} of the inter-broker
 * listener's JAAS configuration for {@code sasl.mechanism.inter.broker.protocol}, as in Kafka. Its principal is the
 * one follower fetches on SASL listeners must come from.
 */
public record InterBrokerCredentials(String mechanism, String username, String password) {
    /** Empty when the listener is not SASL or its JAAS configuration for the mechanism names no username. */
    public static Optional<InterBrokerCredentials> of(Listener interBroker, Map<String, Object> settings) {
        String mechanism = (String) settings.get(SecurityConfigs.SASL_MECHANISM_INTER_BROKER_PROTOCOL);
        if (!interBroker.sasl() || !settings.containsKey(SaslMechanisms.jaasKey(interBroker, mechanism)
                .substring(interBroker.configPrefix().length()))) {
            return Optional.empty();
        }
        List<AppConfigurationEntry> entries = JaasContext.loadServerContext(interBroker.name(), mechanism, settings).configurationEntries();
        Map<String, ?> options = entries.get(0).getOptions();
        Object username = options.get("username");
        Object password = options.get("password");
        if (username == null || password == null) {
            return Optional.empty();
        }
        return Optional.of(new InterBrokerCredentials(mechanism, username.toString(), password.toString()));
    }

    public KafkaPrincipal principal() {
        return new KafkaPrincipal(KafkaPrincipal.USER_TYPE, username);
    }

    @Override
    public String toString() {
        return "InterBrokerCredentials[" + mechanism + ", " + username + "]";
    }
}

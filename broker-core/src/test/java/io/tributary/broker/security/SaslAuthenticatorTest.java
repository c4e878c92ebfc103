package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.Map;
import io.tributary.broker.BrokerConfig;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuilder;
import org.apache.kafka.common.security.ssl.SslPrincipalMapper;
import org.junit.jupiter.api.Test;

/** Who a SASL or SSL connection is before it has authenticated: Kafka's {@code User:ANONYMOUS}, never nobody. */
class SaslAuthenticatorTest {
    private static final DefaultKafkaPrincipalBuilder PRINCIPALS = new DefaultKafkaPrincipalBuilder(null, SslPrincipalMapper.fromRules("DEFAULT"));

    @Test
    void aSaslConnectionIsAnonymousUntilItsExchangeCompletes() throws Exception {
        BrokerConfig config = new BrokerConfig(Map.of("listeners", "SASL_PLAINTEXT://127.0.0.1:0", "sasl.enabled.mechanisms", "PLAIN",
                "sasl.mechanism.inter.broker.protocol", "PLAIN",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required user_bob=\"bob-secret\";"));
        Listener listener = config.listeners().bound().get(0);
        SaslMechanisms mechanisms = new SaslMechanisms(listener, config.securitySettings(listener), null, null);

        SaslAuthenticator authenticator = new SaslAuthenticator(mechanisms, PRINCIPALS, InetAddress.getLoopbackAddress(),
                listener.name(), listener.protocol(), 1024);

        assertThat(authenticator.authenticated()).isFalse();
        assertThat(authenticator.principal()).isEqualTo(KafkaPrincipal.ANONYMOUS);
    }

    @Test
    void anSslConnectionIsAnonymousUntilItsHandshakeCompletes() throws Exception {
        SslAuthenticator authenticator = new SslAuthenticator(PRINCIPALS, InetAddress.getLoopbackAddress(), "SSL");

        assertThat(authenticator.principal()).isEqualTo(KafkaPrincipal.ANONYMOUS);
    }
}

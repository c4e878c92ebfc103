package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import io.tributary.broker.BrokerConfig;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.ZkClient;
import io.tributary.broker.testing.FakeTime;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SaslAuthenticationContext;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuilder;
import org.apache.kafka.common.security.scram.ScramExtensionsCallback;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.security.scram.internals.ScramSaslClient;
import org.apache.kafka.common.security.ssl.SslPrincipalMapper;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SCRAM login with a delegation token ({@code tokenauth=true}, the token id as user name, its base64 HMAC as the
 * password), through a listener's {@link SaslMechanisms} and kafka-clients' own SCRAM client: it authenticates as the
 * token's owner, a token login; a wrong HMAC or an unknown token is refused.
 */
@Timeout(60)
class TokenLoginTest {
    private static final KafkaPrincipal ALICE = new KafkaPrincipal("User", "alice");

    private EmbeddedZooKeeper zookeeper;
    private ZkClient zk;
    private ScramCredentialCache scram;
    private DelegationTokens tokens;
    private SaslMechanisms mechanisms;

    @BeforeEach
    void start(@TempDir Path dir) throws Exception {
        zookeeper = EmbeddedZooKeeper.start(dir, 0);
        zk = ZkClient.connect(zookeeper.connectString(), 10_000, 10_000);
        scram = ScramCredentialCache.start(zk, 10_000);
        tokens = DelegationTokens.start(zk, new DelegationTokenSettings(Optional.of("secret"), 60_000, 60_000, 3_600_000),
                new FakeTime(), 10_000);
        BrokerConfig config = new BrokerConfig(Map.of("listeners", "SASL_PLAINTEXT://127.0.0.1:0",
                "sasl.enabled.mechanisms", "SCRAM-SHA-256,SCRAM-SHA-512", "sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512"));
        Listener listener = config.listeners().bound().get(0);
        mechanisms = new SaslMechanisms(listener, config.securitySettings(listener), scram, tokens.cache());
    }

    @AfterEach
    void stop() {
        tokens.close();
        scram.close();
        zk.close();
        zookeeper.close();
    }

    @Test
    void aTokenLogsInAsItsOwnerWithEitherScramMechanism() throws Exception {
        DelegationToken token = tokens.create(ALICE, ALICE, List.of(), 0);
        for (ScramMechanism mechanism : ScramMechanism.values()) {
            SaslServer server = login(mechanism, token.tokenInfo().tokenId(), token.hmacAsBase64String());

            KafkaPrincipal principal = new DefaultKafkaPrincipalBuilder(null, SslPrincipalMapper.fromRules("DEFAULT"))
                    .build(new SaslAuthenticationContext(server, SecurityProtocol.SASL_PLAINTEXT, InetAddress.getLoopbackAddress(), "SASL_PLAINTEXT"));
            assertThat(principal).isEqualTo(ALICE);
            assertThat(SaslMechanisms.loggedInWithToken(server)).as("the principal is marked token-authenticated").isTrue();
        }
    }

    @Test
    void aWrongHmacOrAnUnknownTokenIsRefused() {
        DelegationToken token = tokens.create(ALICE, ALICE, List.of(), 0);

        assertThatThrownBy(() -> login(ScramMechanism.SCRAM_SHA_512, token.tokenInfo().tokenId(), "d3Jvbmc="))
                .isInstanceOf(SaslException.class);
        assertThatThrownBy(() -> login(ScramMechanism.SCRAM_SHA_512, "no-such-token", token.hmacAsBase64String()))
                .isInstanceOf(SaslException.class);
    }

    /** The whole exchange; @return the completed server */
    private SaslServer login(ScramMechanism mechanism, String tokenId, String hmac) throws Exception {
        ScramSaslClient client = new ScramSaslClient(mechanism, callbacks -> {
            for (Callback callback : callbacks) {
                if (callback instanceof NameCallback name) {
                    name.setName(tokenId);
                } else if (callback instanceof PasswordCallback password) {
                    password.setPassword(hmac.toCharArray());
                } else if (callback instanceof ScramExtensionsCallback extensions) {
                    extensions.extensions(Map.of("tokenauth", "true"));
                }
            }
        });
        SaslServer server = mechanisms.newServer(mechanism.mechanismName());
        byte[] response = client.evaluateChallenge(new byte[0]);
        while (!server.isComplete()) {
            byte[] challenge = server.evaluateResponse(response);
            response = client.evaluateChallenge(challenge);
        }
        assertThat(client.isComplete()).isTrue();
        return server;
    }
}

package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import io.tributary.broker.network.Session;
import org.apache.kafka.common.message.CreateDelegationTokenRequestData;
import org.apache.kafka.common.message.DescribeDelegationTokenRequestData;
import org.apache.kafka.common.message.ExpireDelegationTokenRequestData;
import org.apache.kafka.common.message.RenewDelegationTokenRequestData;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.junit.jupiter.api.Test;

/**
 * Who may ask for delegation tokens at all, as Kafka's {@code allowTokenRequests}, and the answers that need no token:
 * DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, DELEGATION_TOKEN_AUTH_DISABLED, INVALID_PRINCIPAL_TYPE.
 */
class DelegationTokenHandlerTest {
    private static final KafkaPrincipal ALICE = new KafkaPrincipal("User", "alice");
    private static final DelegationTokenHandler DISABLED = new DelegationTokenHandler(Optional.empty());

    private static Session session(SecurityProtocol protocol, KafkaPrincipal principal) {
        return new Session(principal, InetAddress.getLoopbackAddress(), ListenerName.forSecurityProtocol(protocol), protocol);
    }

    private static KafkaPrincipal tokenLogin() {
        KafkaPrincipal principal = new KafkaPrincipal("User", "alice");
        principal.tokenAuthenticated(true);
        return principal;
    }

    @Test
    void onlyClientsThatAuthenticatedWithTheirOwnCredentialsMayAskForTokens() {
        assertThat(DelegationTokenHandler.mayRequestTokens(session(SecurityProtocol.SASL_SSL, ALICE))).isTrue();
        assertThat(DelegationTokenHandler.mayRequestTokens(session(SecurityProtocol.SASL_PLAINTEXT, ALICE))).isTrue();
        assertThat(DelegationTokenHandler.mayRequestTokens(session(SecurityProtocol.SSL, new KafkaPrincipal("User", "CN=alice"))))
                .as("a client certificate").isTrue();
        assertThat(DelegationTokenHandler.mayRequestTokens(session(SecurityProtocol.SSL, KafkaPrincipal.ANONYMOUS))).isFalse();
        assertThat(DelegationTokenHandler.mayRequestTokens(session(SecurityProtocol.PLAINTEXT, KafkaPrincipal.ANONYMOUS))).isFalse();
        assertThat(DelegationTokenHandler.mayRequestTokens(session(SecurityProtocol.SASL_SSL, tokenLogin()))).isFalse();
    }

    @Test
    void aClientThatMayNotAskIsRefusedBeforeTokensBeingDisabledIsTold() {
        Session plaintext = session(SecurityProtocol.PLAINTEXT, KafkaPrincipal.ANONYMOUS);
        Session sasl = session(SecurityProtocol.SASL_SSL, ALICE);
        byte[] hmac = new byte[64];

        assertThat(DISABLED.create(new CreateDelegationTokenRequestData(), plaintext, (short) 3).errorCode())
                .isEqualTo(Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED.code());
        assertThat(DISABLED.renew(new RenewDelegationTokenRequestData().setHmac(hmac), plaintext).errorCode())
                .isEqualTo(Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED.code());
        assertThat(DISABLED.expire(new ExpireDelegationTokenRequestData().setHmac(hmac), session(SecurityProtocol.SASL_SSL, tokenLogin())).errorCode())
                .isEqualTo(Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED.code());
        assertThat(DISABLED.describe(new DescribeDelegationTokenRequestData().setOwners(null), plaintext, (short) 3).errorCode())
                .isEqualTo(Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED.code());

        var created = DISABLED.create(new CreateDelegationTokenRequestData(), sasl, (short) 3);
        assertThat(created.errorCode()).isEqualTo(Errors.DELEGATION_TOKEN_AUTH_DISABLED.code());
        assertThat(created.principalName()).isEqualTo("alice");
        assertThat(DISABLED.renew(new RenewDelegationTokenRequestData().setHmac(hmac), sasl).errorCode())
                .isEqualTo(Errors.DELEGATION_TOKEN_AUTH_DISABLED.code());
        assertThat(DISABLED.describe(new DescribeDelegationTokenRequestData().setOwners(null), sasl, (short) 3).errorCode())
                .isEqualTo(Errors.DELEGATION_TOKEN_AUTH_DISABLED.code());
    }

    @Test
    void aRenewerMustBeAUser() {
        var request = new CreateDelegationTokenRequestData().setRenewers(List.of(
                new CreateDelegationTokenRequestData.CreatableRenewers().setPrincipalType("Group").setPrincipalName("ops")));

        assertThat(DISABLED.create(request, session(SecurityProtocol.SASL_SSL, ALICE), (short) 3).errorCode())
                .isEqualTo(Errors.INVALID_PRINCIPAL_TYPE.code());
    }
}

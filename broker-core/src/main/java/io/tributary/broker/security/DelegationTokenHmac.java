package io.tributary.broker.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.apache.kafka.common.security.token.delegation.TokenInformation;

/**
 * A token's password, as Kafka computes it: the HmacSHA512 of its id keyed with {@code delegation.token.secret.key},
 * so every broker with the same key knows it without storing it; and the SCRAM credentials of that password (its
 * base64 form) that kafka-clients' {@code ScramSaslServer} checks a token login against. Thread-safe.
 */
final class DelegationTokenHmac {
    private static final String ALGORITHM = "HmacSHA512";

    private final SecretKeySpec key;

    DelegationTokenHmac(String secretKey) {
        this.key = new SecretKeySpec(secretKey.getBytes(StandardCharsets.UTF_8), ALGORITHM);
    }

    byte[] of(String tokenId) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac.doFinal(tokenId.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is not available in this JVM", e);
        }
    }

    DelegationToken token(TokenInformation information) {
        return new DelegationToken(information, of(information.tokenId()));
    }

    /** One credential per SCRAM mechanism, at the mechanism's minimum iterations as in Kafka (the HMAC is random). */
    static Map<String, ScramCredential> scramCredentials(DelegationToken token) {
        Map<String, ScramCredential> credentials = new HashMap<>();
        for (ScramMechanism mechanism : ScramMechanism.values()) {
            credentials.put(mechanism.mechanismName(), ScramUsers.credential(mechanism, token.hmacAsBase64String(), mechanism.minIterations()));
        }
        return credentials;
    }
}

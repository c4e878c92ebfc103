package io.tributary.broker.security;

import java.util.Optional;

/**
 * The delegation token keys of the broker (KIP-48), with Kafka's names and meaning: {@code delegation.token.secret.key}
 * (tokens are enabled only when it is set), {@code delegation.token.max.lifetime.ms},
 * {@code delegation.token.expiry.time.ms} and {@code delegation.token.expiry.check.interval.ms}.
 */
public record DelegationTokenSettings(Optional<String> secretKey, long maxLifetimeMs, long expiryTimeMs, long expiryCheckIntervalMs) {
    public boolean enabled() {
        return secretKey.isPresent();
    }
}

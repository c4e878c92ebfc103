package io.tributary.broker.security;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.cluster.ZkClient;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.apache.kafka.common.security.token.delegation.TokenInformation;
import org.apache.kafka.common.security.token.delegation.internals.DelegationTokenCache;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delegation tokens (KIP-48) with the rules of Kafka's DelegationTokenManager: a token lives
 * {@code delegation.token.expiry.time.ms} from its creation or a renewal, never beyond its maximum lifetime (what it
 * asked for, at most {@code delegation.token.max.lifetime.ms}); only its owner and its renewers may renew or expire
 * it; an expired token can be neither renewed nor given a new expiry, and every
 * {@code delegation.token.expiry.check.interval.ms} each broker deletes the expired ones from ZooKeeper. Who may ask
 * for these at all (and for another owner's token) is the request handlers' and the authorizer's business.
 * Thread-safe.
 */
public final class DelegationTokens implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DelegationTokens.class);

    /** What a renewal or an expiry came to: Kafka's error, and the token's expiry time then (-1 on an error). */
    public record Outcome(Errors error, long expiryTimestamp) {
        public static Outcome failed(Errors error) {
            return new Outcome(error, -1);
        }
    }

    /** One attempt at a change of a stored token; null when someone else changed the token meanwhile. */
    @FunctionalInterface
    private interface Change {
        Outcome apply(TokenInformation token, int version, long nowMs);
    }

    private final DelegationTokenSettings settings;
    private final DelegationTokenStore store;
    private final DelegationTokenHmac hmac;
    private final DelegationTokenCache cache = new DelegationTokenCache(ScramMechanism.mechanismNames());
    private final Time time;
    private DelegationTokenWatch watch;
    private ScheduledExecutorService expiryTask;

    private DelegationTokens(ZkClient zk, DelegationTokenSettings settings, Time time) {
        this.settings = settings;
        this.store = new DelegationTokenStore(zk);
        this.hmac = new DelegationTokenHmac(settings.secretKey().orElseThrow());
        this.time = time;
    }

    /**
     * Loads the tokens, watches them and starts deleting the expired ones.
     *
     * @param settings with a secret key: tokens are enabled
     */
    public static DelegationTokens start(ZkClient zk, DelegationTokenSettings settings, Time time, long zooKeeperTimeoutMs)
            throws InterruptedException {
        DelegationTokens tokens = new DelegationTokens(zk, settings, time);
        tokens.watch = DelegationTokenWatch.start(zk, tokens.cache, tokens.hmac, zooKeeperTimeoutMs);
        tokens.expiryTask = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tributary-delegation-token-expiry");
            thread.setDaemon(true);
            return thread;
        });
        tokens.expiryTask.scheduleWithFixedDelay(tokens::removeExpiredQuietly, settings.expiryCheckIntervalMs(),
                settings.expiryCheckIntervalMs(), TimeUnit.MILLISECONDS);
        return tokens;
    }

    /** The tokens as kafka-clients' SCRAM server reads them. */
    public DelegationTokenCache cache() {
        return cache;
    }

    /** A new token of {@code owner}; {@code maxLifetimeMs} 0 or less asks for {@code delegation.token.max.lifetime.ms}. */
    public DelegationToken create(KafkaPrincipal owner, KafkaPrincipal requester, List<KafkaPrincipal> renewers, long maxLifetimeMs) {
        long now = time.milliseconds();
        long maxTimestamp = now + (maxLifetimeMs <= 0 ? settings.maxLifetimeMs() : Math.min(maxLifetimeMs, settings.maxLifetimeMs()));
        long expiryTimestamp = Math.min(maxTimestamp, now + settings.expiryTimeMs());
        TokenInformation information;
        do {
            information = new TokenInformation(Uuid.randomUuid().toString(), owner, requester, renewers, now, maxTimestamp, expiryTimestamp);
        } while (!store.create(information));
        DelegationToken token = hmac.token(information);
        watch.put(token);
        log.info("created delegation token {} of {} for {}, renewers {}", information.tokenId(), owner, requester, renewers);
        return token;
    }

    /** Extends the token's life by {@code renewPeriodMs} from now (a negative period: {@code delegation.token.expiry.time.ms}). */
    public Outcome renew(KafkaPrincipal principal, byte[] tokenHmac, long renewPeriodMs) {
        return change(principal, tokenHmac, (token, version, now) -> {
            if (expired(token, now)) {
                return Outcome.failed(Errors.DELEGATION_TOKEN_EXPIRED);
            }
            long period = renewPeriodMs < 0 ? settings.expiryTimeMs() : renewPeriodMs;
            return setExpiry(token, version, Math.min(token.maxTimestamp(), now + period));
        });
    }

    /** Ends the token's life {@code expiryPeriodMs} from now; a negative period deletes it at once. */
    public Outcome expire(KafkaPrincipal principal, byte[] tokenHmac, long expiryPeriodMs) {
        return change(principal, tokenHmac, (token, version, now) -> {
            if (expiryPeriodMs < 0) {
                if (!store.delete(token.tokenId(), version)) {
                    return null;
                }
                watch.remove(token.tokenId());
                log.info("expired delegation token {} of {} at the request of {}", token.tokenId(), token.owner(), principal);
                return new Outcome(Errors.NONE, now);
            }
            if (expired(token, now)) {
                return Outcome.failed(Errors.DELEGATION_TOKEN_EXPIRED);
            }
            return setExpiry(token, version, Math.min(token.maxTimestamp(), now + expiryPeriodMs));
        });
    }

    /** Every token (expired ones until the expiry check deletes them, as in Kafka), each with its HMAC. */
    public List<DelegationToken> all() {
        List<DelegationToken> tokens = new ArrayList<>();
        cache.tokens().forEach(information -> tokens.add(hmac.token(information)));
        return tokens;
    }

    /** The token the HMAC is for, read from ZooKeeper (the truth, even before this broker's watch fires). */
    private Outcome change(KafkaPrincipal principal, byte[] tokenHmac, Change change) {
        String tokenId = cache.tokenIdForHmac(Base64.getEncoder().encodeToString(tokenHmac));
        while (true) {
            Optional<DelegationTokenStore.Stored> stored = tokenId == null ? Optional.empty() : store.read(tokenId);
            if (stored.isEmpty()) {
                return Outcome.failed(Errors.DELEGATION_TOKEN_NOT_FOUND);
            }
            TokenInformation token = stored.get().token();
            if (!token.ownerOrRenewer(principal)) {
                return Outcome.failed(Errors.DELEGATION_TOKEN_OWNER_MISMATCH);
            }
            Outcome outcome = change.apply(token, stored.get().version(), time.milliseconds());
            if (outcome != null) {
                return outcome;
            }
        }
    }

    private Outcome setExpiry(TokenInformation token, int version, long expiryTimestamp) {
        token.setExpiryTimestamp(expiryTimestamp);
        if (!store.update(token, version)) {
            return null;
        }
        watch.put(hmac.token(token));
        log.info("delegation token {} of {} now expires at {}", token.tokenId(), token.owner(), expiryTimestamp);
        return new Outcome(Errors.NONE, expiryTimestamp);
    }

    static boolean expired(TokenInformation token, long nowMs) {
        return token.maxTimestamp() < nowMs || token.expiryTimestamp() < nowMs;
    }

    /** Deletes the tokens expired by now from ZooKeeper; every broker's watch then forgets them. */
    void removeExpired() {
        long now = time.milliseconds();
        for (TokenInformation cached : cache.tokens()) {
            if (expired(cached, now)) {
                store.read(cached.tokenId()).filter(stored -> expired(stored.token(), now))
                        .filter(stored -> store.delete(cached.tokenId(), stored.version()))
                        .ifPresent(stored -> log.info("deleted delegation token {} of {}: it expired at {}", cached.tokenId(),
                                cached.owner(), cached.expiryTimestamp()));
            }
        }
    }

    private void removeExpiredQuietly() {
        try {
            removeExpired();
        } catch (RuntimeException e) {
            log.warn("could not delete the expired delegation tokens, trying again in {} ms: {}", settings.expiryCheckIntervalMs(),
                    e.toString());
        }
    }

    @Override
    public void close() {
        if (expiryTask != null) {
            expiryTask.shutdownNow();
        }
        if (watch != null) {
            watch.close();
        }
    }
}

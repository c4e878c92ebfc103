package io.tributary.broker.security;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.cluster.ZkClient;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.apache.kafka.common.security.token.delegation.internals.DelegationTokenCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tokens of {@link DelegationTokenStore}, kept current on this broker by a ZooKeeper watch (as the SCRAM users of
 * {@link ScramCredentialCache}), in kafka-clients' {@link DelegationTokenCache}: what its SCRAM server checks a token
 * login against and where renewals look a token up by its HMAC. A token created, renewed or expired through any broker
 * is known to all as soon as the watch fires. Thread-safe.
 */
final class DelegationTokenWatch implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DelegationTokenWatch.class);

    private final DelegationTokenCache cache;
    private final DelegationTokenHmac hmac;
    private final CuratorCache tokens;

    private DelegationTokenWatch(ZkClient zk, DelegationTokenCache cache, DelegationTokenHmac hmac) {
        this.cache = cache;
        this.hmac = hmac;
        this.tokens = CuratorCache.build(zk.curator(), DelegationTokenStore.TOKENS_PATH);
    }

    /** Starts the watch and waits until {@code cache} holds what ZooKeeper holds. */
    static DelegationTokenWatch start(ZkClient zk, DelegationTokenCache cache, DelegationTokenHmac hmac, long timeoutMs)
            throws InterruptedException {
        DelegationTokenWatch watch = new DelegationTokenWatch(zk, cache, hmac);
        CountDownLatch loaded = new CountDownLatch(1);
        watch.tokens.listenable().addListener(CuratorCacheListener.builder()
                .forCreatesAndChanges((before, after) -> watch.changed(after))
                .forDeletes(watch::deleted)
                .forInitialized(loaded::countDown)
                .build());
        watch.tokens.start();
        if (!loaded.await(timeoutMs, TimeUnit.MILLISECONDS)) {
            watch.close();
            throw new TimeoutException("could not read " + DelegationTokenStore.TOKENS_PATH + " from ZooKeeper within " + timeoutMs + " ms");
        }
        return watch;
    }

    /** Puts a token into the cache now, ahead of the watch, so that this broker's next request sees its own change. */
    void put(DelegationToken token) {
        cache.updateCache(token, DelegationTokenHmac.scramCredentials(token));
    }

    void remove(String tokenId) {
        cache.removeCache(tokenId);
    }

    private void changed(ChildData node) {
        if (tokenId(node) == null) {
            return;
        }
        try {
            put(hmac.token(DelegationTokenStore.parse(node.getData())));
        } catch (RuntimeException e) {
            log.warn("ignoring unreadable delegation token {}: {}", node.getPath(), e.getMessage());
        }
    }

    private void deleted(ChildData node) {
        String tokenId = tokenId(node);
        if (tokenId != null) {
            remove(tokenId);
        }
    }

    /** The token a node of the watched tree is for; null for the tree's root. */
    private static String tokenId(ChildData node) {
        String prefix = DelegationTokenStore.TOKENS_PATH + "/";
        return node.getPath().startsWith(prefix) ? node.getPath().substring(prefix.length()) : null;
    }

    @Override
    public void close() {
        tokens.close();
    }
}

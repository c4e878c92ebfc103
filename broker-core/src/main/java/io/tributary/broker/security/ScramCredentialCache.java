package io.tributary.broker.security;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import io.tributary.broker.cluster.ZkClient;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.security.authenticator.CredentialCache;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SCRAM credentials of {@link ScramUsers}, kept current on this broker by a ZooKeeper watch, in kafka-clients'
 * {@link CredentialCache} that its {@code ScramServerCallbackHandler} reads. A user added with {@code kafka-configs}
 * or {@code bin/tributary users add} can log in on every broker as soon as the watch fires. Thread-safe.
 */
public final class ScramCredentialCache implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ScramCredentialCache.class);

    private final CredentialCache credentials = new CredentialCache();
    private final CuratorCache users;

    private ScramCredentialCache(ZkClient zk) {
        for (ScramMechanism mechanism : ScramMechanism.values()) {
            credentials.createCache(mechanism.mechanismName(), ScramCredential.class);
        }
        this.users = CuratorCache.build(zk.curator(), ScramUsers.USERS_PATH);
    }

    /** Starts the watch and waits until the cache holds what ZooKeeper holds. */
    public static ScramCredentialCache start(ZkClient zk, long timeoutMs) throws InterruptedException {
        ScramCredentialCache cache = new ScramCredentialCache(zk);
        CountDownLatch loaded = new CountDownLatch(1);
        cache.users.listenable().addListener(CuratorCacheListener.builder()
                .forCreatesAndChanges((before, after) -> cache.changed(after))
                .forDeletes(cache::deleted)
                .forInitialized(loaded::countDown)
                .build());
        cache.users.start();
        if (!loaded.await(timeoutMs, TimeUnit.MILLISECONDS)) {
            cache.close();
            throw new TimeoutException("could not read " + ScramUsers.USERS_PATH + " from ZooKeeper within " + timeoutMs + " ms");
        }
        return cache;
    }

    public CredentialCache.Cache<ScramCredential> cache(ScramMechanism mechanism) {
        return credentials.cache(mechanism.mechanismName(), ScramCredential.class);
    }

    private void changed(ChildData node) {
        String user = user(node);
        if (user == null) {
            return;
        }
        try {
            Map<ScramMechanism, ScramCredential> stored = ScramUsers.parse(node.getData());
            for (ScramMechanism mechanism : ScramMechanism.values()) {
                ScramCredential credential = stored.get(mechanism);
                if (credential == null) {
                    cache(mechanism).remove(user);
                } else {
                    cache(mechanism).put(user, credential);
                }
            }
        } catch (RuntimeException e) {
            log.warn("ignoring unreadable SCRAM credentials of user {}: {}", user, e.getMessage());
        }
    }

    private void deleted(ChildData node) {
        String user = user(node);
        if (user != null) {
            for (ScramMechanism mechanism : ScramMechanism.values()) {
                cache(mechanism).remove(user);
            }
        }
    }

    /** The user a node of the watched tree is for; null for the tree's root. */
    private static String user(ChildData node) {
        String prefix = ScramUsers.USERS_PATH + "/";
        return node.getPath().startsWith(prefix) ? ScramUsers.userOf(node.getPath().substring(prefix.length())) : null;
    }

    @Override
    public void close() {
        users.close();
    }
}
